import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file that must not be larger than a limit, without reading more than one byte past the limit
/// (so a huge file, a FIFO or a device is refused as soon as it is known to be too large).
///
/// The file is opened without blocking, so a FIFO that no one writes yet does not hold the caller in `open(2)`:
/// it is then waited for in steps of `pollInterval`, and the wait ends as soon as `isCancelled` says so (a signal
/// arrived), with `.cancelled`.
public enum BoundedRead {
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file cannot be opened or read; the system's reason.
        case unreadable(String)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)
        /// `isCancelled` said so while the file (a FIFO) was waited for.
        case cancelled

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read (\(reason))"
            case .tooLarge(let limit): "larger than the limit of \(limit) bytes"
            case .cancelled: "not read: interrupted while waiting for it"
            }
        }
    }

    /// How often a wait for a FIFO's writer or data looks at `isCancelled`, in milliseconds.
    static let pollInterval: Int32 = 50

    /// The bytes of the file at `path`, at most `limit` of them.
    ///
    /// - Parameter isCancelled: asked while a FIFO is waited for (every `pollInterval` ms); `true` ends the read
    ///   with `.cancelled`.
    public static func contents(ofFile path: String, limit: Int,
                                isCancelled: () -> Bool = { false }) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw .unreadable(String(cString: strerror(EISDIR))) }
        let waits = (info.st_mode & S_IFMT) == S_IFIFO
        if !waits {
            // Anything but a FIFO is read as it always was: blocking.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while data.count <= limit {
            if waits {
                // Linux reports no hang-up on a FIFO that has not had a writer yet: poll waits for the first one.
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, pollInterval)
                if ready < 0, errno != EINTR { throw .unreadable(String(cString: strerror(errno))) }
                if ready <= 0 {
                    if isCancelled() { throw .cancelled }
                    continue
                }
            }
            let wanted = min(buffer.count, limit + 1 - data.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN {
                    if isCancelled() { throw .cancelled }
                    continue
                }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        guard data.count <= limit else { throw .tooLarge(limit: limit) }
        return data
    }
}
