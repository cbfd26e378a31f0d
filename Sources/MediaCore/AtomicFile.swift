import Foundation
import Synchronization

/// A file written under a temporary name beside its destination and renamed into place only on success, so that
/// the destination never holds a half-written file. Dropped without `commit()`, the temporary file is removed.
public final class AtomicFile {
    /// Why an output file cannot be written; `description` names the destination.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the output: \(reason)" }
    }

    public let destination: String
    public let temporaryPath: String
    private var committed = false
    private var handle: FileHandle?

    /// Prepares a temporary path in the destination's directory (which must exist and be a directory).
    public init(destination: String) throws(Failure) {
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw Failure(path: destination, reason: "the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw Failure(path: destination, reason: "\(directory) is not a directory") }
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Failure(path: destination, reason: "it is a directory")
        }
        self.destination = destination
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp").path
        AtomicFile.pending.withLock { _ = $0.insert(temporaryPath) }
    }

    deinit {
        try? handle?.close()
        if !committed { discard() }
    }

    /// Appends bytes to the temporary file (creating it on first use).
    public func append(_ data: Data) throws(Failure) {
        do {
            if handle == nil {
                guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
                      let h = FileHandle(forWritingAtPath: temporaryPath) else {
                    throw Failure(path: destination, reason: "cannot create \(temporaryPath)")
                }
                handle = h
            }
            try handle!.write(contentsOf: data)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: destination, reason: error.localizedDescription)
        }
    }

    /// Replaces the content of the temporary file with `data`.
    public func write(_ data: Data) throws(Failure) {
        try? handle?.close()
        handle = nil
        unlink(temporaryPath)
        try append(data)
    }

    /// Moves the finished file into place (replacing what was there).
    public func commit() throws(Failure) {
        do { try handle?.close() } catch {
            discard()
            throw Failure(path: destination, reason: error.localizedDescription)
        }
        handle = nil
        if !FileManager.default.fileExists(atPath: temporaryPath) { try append(Data()) ; try? handle?.close(); handle = nil }
        guard rename(temporaryPath, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw Failure(path: destination, reason: reason)
        }
        committed = true
        AtomicFile.pending.withLock { _ = $0.remove(temporaryPath) }
    }

    /// Removes the temporary file; the destination is untouched.
    public func discard() {
        try? handle?.close()
        handle = nil
        unlink(temporaryPath)
        AtomicFile.pending.withLock { _ = $0.remove(temporaryPath) }
    }

    private static let pending = Mutex<Set<String>>([])

    /// Removes every temporary file still pending in this process (for a job stopped by a signal).
    public static func removeAllPending() {
        pending.withLock {
            for path in $0 { unlink(path) }
            $0.removeAll()
        }
    }
}
