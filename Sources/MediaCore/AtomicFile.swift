import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A file written under a temporary name and put in place only on success, so that the destination never holds a
/// half-written file and a user's file is never replaced by anything else than a finished output.
///
/// Where the bytes go depends on what the destination is when the file is prepared (`OutputDestination`):
/// - nothing, or a regular file: a temporary file `.NAME.pipctl-<pid>-<n>.tmp` in the destination's directory,
///   renamed over it on commit. A symlink is followed first: the rename goes to the resolved target, never over
///   the link.
/// - a character device or a FIFO (`/dev/null`, `/dev/stdout`): the temporary file lives in the system's temporary
///   directory and is copied through to the destination, opened in place, on commit. The node is never replaced;
///   an MP4 muxer can still seek in the temporary file (faststart).
/// - a directory, a socket or a block device: refused.
///
/// `commitAll(_:)` puts several files in place together (a render's MP4, timeline, event log, frame hashes): all
/// of them, or none, with every previous file restored. Dropped without a commit, the temporary file is removed;
/// `removeAllPending()` removes every one of the process (as it exits after a signal: never while other work of
/// the process may be writing), and a later run removes
/// those of processes that are gone (`removeStaleTemporaries(in:)`).
public final class AtomicFile: Sendable {
    /// Why an output file cannot be written; `description` names the destination.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the output: \(reason)" }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The path as the user gave it.
    public let destination: String
    /// Where the file lands: the destination with its symlinks resolved (the destination itself for a device).
    public let target: String
    /// What the destination was when the file was prepared.
    public let kind: OutputDestination.Kind
    public let temporaryPath: String

    private struct State {
        var handle: FileHandle?
        var committed = false
    }

    private let state = LockedState(State())

    /// True when the destination is a device or FIFO written in place on commit rather than renamed over.
    public var writesThrough: Bool { kind.writesThrough }

    /// Prepares a temporary path for `destination` and removes stale temporary files of dead processes beside it.
    /// - Throws: `Failure` when the directory does not exist, or the destination is a directory, a socket or a
    ///   block device.
    public init(destination: String) throws(Failure) {
        let resolved: OutputDestination
        do { resolved = try OutputDestination(destination) } catch { throw Failure(path: destination, reason: error.reason) }
        self.destination = destination
        target = resolved.target
        kind = resolved.kind
        let name = OutputDestination.name(of: resolved.target)
        let directory = resolved.kind.writesThrough ? AtomicFile.throughDirectory : resolved.directory
        AtomicFile.removeStaleTemporaries(in: directory)
        temporaryPath = directory + "/" + AtomicFile.temporaryName(for: name, suffix: "tmp")
        AtomicFile.pending.withLock { _ = $0.insert(temporaryPath) }
    }

    deinit {
        let committed = state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            return state.committed
        }
        if !committed { discard() }
    }

    /// Appends bytes to the temporary file (creating it on first use).
    public func append(_ data: Data) throws(Failure) {
        try state.withLock { (state) throws(Failure) in
            if state.handle == nil {
                let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
                guard fd >= 0 else { throw Failure(path: destination, reason: "cannot create \(temporaryPath): \(AtomicFile.errorText())") }
                state.handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            }
            do { try state.handle!.write(contentsOf: data) } catch {
                throw Failure(path: destination, reason: error.localizedDescription)
            }
        }
    }

    /// Replaces the content of the temporary file with `data`.
    public func write(_ data: Data) throws(Failure) {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
        }
        unlink(temporaryPath)
        try append(data)
    }

    /// Puts the finished file in place (replacing what was there, or writing through to a device).
    public func commit() throws(Failure) {
        try AtomicFile.commitAll([self])
    }

    /// Removes the temporary file; the destination is untouched.
    public func discard() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
        }
        unlink(temporaryPath)
        AtomicFile.pending.withLock { _ = $0.remove(temporaryPath) }
    }

    /// Closes the temporary file, creating it empty when nothing was written.
    private func close() throws(Failure) {
        try state.withLock { (state) throws(Failure) in
            do { try state.handle?.close() } catch {
                state.handle = nil
                throw Failure(path: destination, reason: error.localizedDescription)
            }
            state.handle = nil
        }
        if access(temporaryPath, F_OK) != 0 {
            let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw Failure(path: destination, reason: "cannot create \(temporaryPath): \(AtomicFile.errorText())") }
            Glibc.close(fd)
        }
    }

    private func markCommitted() {
        state.withLock { $0.committed = true }
        AtomicFile.pending.withLock { _ = $0.remove(temporaryPath) }
    }

    // MARK: - Committing a set

    /// A destination renamed over during `commitAll`, and how to undo it.
    private struct Placed {
        var target: String
        /// A hard link (or copy) of the previous file; nil when there was none.
        var backup: String?
    }

    /// Puts every file in place, or none: either every destination holds its new file, or every destination is left
    /// exactly as it was (the previous files restored from hard links made before the first rename).
    ///
    /// Temporary files are closed first; then every previous regular file gets a backup link; then the renames run;
    /// then devices and FIFOs are written through (last, because what was sent to a device cannot be taken back).
    /// On any failure the renames done so far are undone and every temporary file is removed.
    /// - Throws: `Failure` naming the destination that could not be written.
    public static func commitAll(_ files: [AtomicFile]) throws(Failure) {
        var placed: [Placed] = []
        var backups: [String] = []
        func undo() {
            for entry in placed.reversed() {
                if let backup = entry.backup { rename(backup, entry.target) } else { unlink(entry.target) }
            }
            for backup in backups { unlink(backup) }
            pending.withLock { set in for backup in backups { set.remove(backup) } }
            backups = []
            for file in files { file.discard() }
        }
        do throws(Failure) {
            for file in files { try file.close() }
            var plannedBackups: [String?] = []
            for file in files {
                guard !file.writesThrough, isRegularFile(file.target) else { plannedBackups.append(nil); continue }
                let backup = OutputDestination.parent(of: file.target) + "/"
                    + temporaryName(for: OutputDestination.name(of: file.target), suffix: "bak")
                pending.withLock { _ = $0.insert(backup) }
                backups.append(backup)
                guard link(file.target, backup) == 0 || copyFile(from: file.target, to: backup) else {
                    throw Failure(path: file.destination, reason: "cannot keep a copy of the previous file: \(errorText())")
                }
                plannedBackups.append(backup)
            }
            for (file, backup) in zip(files, plannedBackups) where !file.writesThrough {
                guard rename(file.temporaryPath, file.target) == 0 else {
                    throw Failure(path: file.destination, reason: errorText())
                }
                placed.append(Placed(target: file.target, backup: backup))
            }
            for file in files where file.writesThrough {
                try file.copyThrough()
            }
        } catch {
            undo()
            throw error
        }
        for file in files {
            file.markCommitted()
            if file.writesThrough { unlink(file.temporaryPath) }
        }
        for backup in backups { unlink(backup) }
        pending.withLock { set in for backup in backups { set.remove(backup) } }
    }

    /// Writes the temporary file's bytes to the device or FIFO in place (opened without creating or truncating).
    private func copyThrough() throws(Failure) {
        let input = open(temporaryPath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Failure(path: destination, reason: "cannot read \(temporaryPath): \(AtomicFile.errorText())") }
        defer { Glibc.close(input) }
        let output = open(destination, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { throw Failure(path: destination, reason: AtomicFile.errorText()) }
        defer { Glibc.close(output) }
        guard AtomicFile.copyBytes(from: input, to: output) else { throw Failure(path: destination, reason: AtomicFile.errorText()) }
    }

    // MARK: - Temporary names

    /// Temporary files made for devices and FIFOs: the system's temporary directory (`TMPDIR`, else `/tmp`).
    static var throughDirectory: String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    }

    private static let counter = Atomic<Int>(0)

    /// `.NAME.pipctl-<pid>-<n>.SUFFIX`: hidden, recognisable, and carrying the process that owns it.
    static func temporaryName(for name: String, suffix: String) -> String {
        let n = counter.add(1, ordering: .relaxed).oldValue
        return ".\(name).pipctl-\(getpid())-\(n).\(suffix)"
    }

    /// The process id in a temporary name made by `temporaryName`, or nil for any other name.
    static func owner(ofTemporaryName name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") || name.hasSuffix(".bak"),
              let marker = name.range(of: ".pipctl-", options: .backwards) else { return nil }
        let rest = name[marker.upperBound...].dropLast(4)
        let parts = rest.split(separator: "-")
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, Int(parts[1]) != nil else { return nil }
        return pid
    }

    /// Removes the temporary files in `directory` left by processes that no longer exist (`kill(pid, 0)` says
    /// ESRCH); those of live processes, this one included, are left alone.
    public static func removeStaleTemporaries(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            guard let pid = owner(ofTemporaryName: name), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                let path = directory + "/" + name
                if isRegularFile(path, followingLinks: false) { unlink(path) }
            }
        }
    }

    private static let pending = LockedState<Set<String>>([])

    /// Removes every temporary file still pending in this process (for a job stopped by a signal).
    public static func removeAllPending() {
        pending.withLock {
            for path in $0 { unlink(path) }
            $0.removeAll()
        }
    }

    // MARK: - Helpers

    static func errorText() -> String { String(cString: strerror(errno)) }

    static func isRegularFile(_ path: String, followingLinks: Bool = true) -> Bool {
        var info = stat()
        let status = followingLinks ? stat(path, &info) : lstat(path, &info)
        return status == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func copyFile(from source: String, to destination: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { Glibc.close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { return false }
        defer { Glibc.close(output) }
        return copyBytes(from: input, to: output)
    }

    /// Copies until the end of `input`, retrying interrupted and partial writes.
    private static func copyBytes(from input: Int32, to output: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return false }
            if count == 0 { return true }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + offset, count - offset) }
                if written < 0 { if errno == EINTR { continue }; return false }
                offset += written
            }
        }
    }
}
