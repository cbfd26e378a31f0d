import Foundation
import Synchronization

/// A file written under a temporary name beside its destination and renamed into place only on success, so
/// that the destination never holds a half-written file. Dropped without `commit()`, the temporary file is removed.
final class AtomicOutput {
    let destination: String
    let temporaryPath: String
    private var committed = false

    /// Prepares a temporary path in the destination's directory (which must exist and be a directory).
    init(destination: String) throws(MediaError) {
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw .outputNotWritable(path: destination, reason: "the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else {
            throw .outputNotWritable(path: destination, reason: "\(directory) is not a directory")
        }
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .outputNotWritable(path: destination, reason: "it is a directory")
        }
        self.destination = destination
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp").path
        AtomicOutput.registry.add(temporaryPath)
    }

    deinit {
        if !committed { discard() }
    }

    /// Moves the finished file into place (replacing what was there).
    func commit() throws(MediaError) {
        guard rename(temporaryPath, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw .outputNotWritable(path: destination, reason: reason)
        }
        committed = true
        AtomicOutput.registry.remove(temporaryPath)
    }

    /// Removes the temporary file.
    func discard() {
        unlink(temporaryPath)
        AtomicOutput.registry.remove(temporaryPath)
    }

    /// Temporary files not yet committed, so that a signal handler can remove them before the process dies.
    static let registry = TemporaryFiles()

    /// Removes every temporary file still pending (for SIGINT/SIGTERM handlers).
    public static func removeAllPending() { registry.removeAll() }
}

/// The set of temporary paths in flight, so that an interrupted job can remove them on its way out.
final class TemporaryFiles: Sendable {
    private let paths = Mutex<Set<String>>([])

    func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }
    func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }
    func removeAll() {
        paths.withLock {
            for path in $0 { unlink(path) }
            $0.removeAll()
        }
    }
}
