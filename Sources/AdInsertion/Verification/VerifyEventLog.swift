import AdPlayback
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `verify`'s reading of an event log (`OUT.events.jsonl`, a golden's `NAME.events.jsonl`), bounded before anything
/// is decoded: at most `maximumBytes`, refused from the file's size when it says so (and never read more than one
/// byte past it, for a FIFO or a device), and at most `maximumEvents` events, counted line by line as they are
/// decoded. The lines are walked in place, so blank lines cost nothing: 100 MB of newlines used to take 2.29 GB
/// (one slice per line, before the first was decoded). The report's reader keeps its own limits, the same numbers.
enum VerifyEventLog {
    /// 64 MiB: a two-hour render of a session file logs a few MB.
    static let maximumBytes = 64 << 20
    /// 200 000 events.
    static let maximumEvents = 200_000

    /// Why an event log was not read.
    enum Failure: Error, Hashable, CustomStringConvertible {
        case absent(path: String)
        case unreadable(path: String, reason: String)
        case tooLarge(path: String, bytes: Int64?)
        case tooManyEvents(path: String, line: Int)
        case malformedLine(path: String, line: Int, reason: String)

        /// The same words as `EventLogError` for a log that cannot be read or is malformed; the file named first.
        var description: String {
            switch self {
            case .absent(let path): "cannot read \(path): No such file or directory"
            case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
            case .tooLarge(let path, _), .tooManyEvents(let path, _): "\(path): \(reason)"
            case .malformedLine(let path, let line, let reason): "\(path), line \(line): \(reason)"
            }
        }

        /// What is wrong, without the file's name.
        var reason: String {
            switch self {
            case .absent: "no such file"
            case .unreadable(_, let reason): reason
            case .tooLarge(_, let bytes):
                "\(bytes.map { "\($0) bytes, " } ?? "")larger than the limit of \(VerifyEventLog.maximumBytes) bytes for an event log"
            case .tooManyEvents(_, let line):
                "line \(line): more than the limit of \(VerifyEventLog.maximumEvents) events for an event log"
            case .malformedLine(_, let line, let reason): "line \(line): \(reason)"
            }
        }

        /// Whether the log is refused for its size or its count (as opposed to absent or malformed).
        var isOverLimit: Bool {
            switch self {
            case .tooLarge, .tooManyEvents: true
            default: false
            }
        }
    }

    /// The events of the log at `path`, in file order; blank lines are skipped.
    static func read(_ path: String, maximumBytes: Int = maximumBytes,
                     maximumEvents: Int = maximumEvents) throws(Failure) -> [SessionEvent] {
        let data = try contents(path, limit: maximumBytes)
        return try decode(data, path: path, maximumEvents: maximumEvents)
    }

    /// The bytes of `path`, at most `limit`: a regular file larger than that is refused by its size, unread.
    static func contents(_ path: String, limit: Int) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .absent(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }
            if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > Int64(limit) { throw .tooLarge(path: path, bytes: Int64(info.st_size)) }
        }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard data.count <= limit else { throw .tooLarge(path: path, bytes: nil) }
        return data
    }

    /// The events of a log's bytes, refused at the first event past `maximumEvents`, before it is decoded.
    static func decode(_ data: Data, path: String, maximumEvents: Int = maximumEvents) throws(Failure) -> [SessionEvent] {
        var failure: Failure?
        // Each line is found in place (memchr); only a line with something on it is copied, and decoded.
        let events = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [SessionEvent] in
            guard let base = raw.baseAddress else { return [] }
            var events: [SessionEvent] = []
            var at = 0, number = 0
            while at < raw.count {
                number += 1
                let found: UnsafeMutableRawPointer? = memchr(base + at, 0x0A, raw.count - at)
                let end: Int = found.map { UnsafeRawPointer($0) - base } ?? raw.count
                defer { at = end + 1 }
                let line = UnsafeRawBufferPointer(rebasing: raw[at..<end])
                guard line.contains(where: { (byte: UInt8) in byte != 0x20 && byte != 0x09 && byte != 0x0D }) else { continue }
                guard events.count < maximumEvents else {
                    failure = .tooManyEvents(path: path, line: number)
                    break
                }
                do throws(EventLogError) {
                    events.append(contentsOf: try EventLogReader.decode(Data(line), path: path))
                } catch .malformedLine(_, _, let reason) {
                    failure = .malformedLine(path: path, line: number, reason: reason)
                    break
                } catch {
                    failure = .malformedLine(path: path, line: number, reason: "\(error)")
                    break
                }
            }
            return events
        }
        if let failure { throw failure }
        return events
    }
}
