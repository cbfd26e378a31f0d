import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension EventLogReader {
    /// How much of an event log a reader accepts, checked while the file is read, before anything past a limit is
    /// decoded or even kept: the file's bytes, its lines (blank ones included: 63 MB of newlines is 63 million
    /// lines, refused at the first line past the limit), and one line's bytes.
    public struct Limits: Hashable, Sendable {
        public var maximumBytes: Int
        public var maximumLines: Int
        public var maximumLineBytes: Int

        public init(maximumBytes: Int, maximumLines: Int, maximumLineBytes: Int) {
            self.maximumBytes = maximumBytes
            self.maximumLines = maximumLines
            self.maximumLineBytes = maximumLineBytes
        }

        /// What `pipctl report` and `pipctl verify` read of a render's log (docs/REPORT.md): 64 MiB, 200,000
        /// lines, 4 MiB a line.
        public static let renderLog = Limits(maximumBytes: 64 << 20, maximumLines: 200_000, maximumLineBytes: 4 << 20)
    }

    /// The events of the log file at `path`, in file order, read 64 KiB at a time and decoded a line at a time, so
    /// that memory holds the events and one line, never the file; blank lines are skipped (but counted).
    /// - Throws: `EventLogError.cannotRead` when the file cannot be opened or read, `.tooLarge` as soon as a limit
    ///   is passed, `.malformedLine` for the first line that is not a valid event.
    public static func read(path: String, limits: Limits) throws(EventLogError) -> [SessionEvent] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { Glibc.close(descriptor) }
        var lines = LineDecoder(path: path, limits: limits)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            try lines.feed(chunk[0..<count])
        }
        return try lines.finish()
    }

    /// The events of a log's bytes, under `limits`; `path` names the source in errors.
    public static func decode(_ data: Data, path: String, limits: Limits) throws(EventLogError) -> [SessionEvent] {
        var lines = LineDecoder(path: path, limits: limits)
        try lines.feed(data)
        return try lines.finish()
    }

    /// Cuts bytes into lines as they arrive and decodes each whole line, counting bytes and lines against the limits.
    struct LineDecoder {
        let path: String
        let limits: Limits
        var bytes = 0
        var lines = 0
        var line: [UInt8] = []
        var events: [SessionEvent] = []
        let decoder = JSONDecoder()

        init(path: String, limits: Limits) {
            self.path = path
            self.limits = limits
        }

        mutating func feed<Bytes: Collection<UInt8>>(_ chunk: Bytes) throws(EventLogError) {
            bytes += chunk.count
            guard bytes <= limits.maximumBytes else {
                throw .tooLarge(path: path, reason: "larger than \(limits.maximumBytes) bytes, more than an event log is read")
            }
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try append(chunk[start..<newline])
                try endLine()
                start = chunk.index(after: newline)
            }
            try append(chunk[start...])
        }

        mutating func finish() throws(EventLogError) -> [SessionEvent] {
            if !line.isEmpty { try endLine() }
            return events
        }

        private mutating func append<Piece: Collection<UInt8>>(_ piece: Piece) throws(EventLogError) {
            guard line.count + piece.count <= limits.maximumLineBytes else {
                throw .tooLarge(path: path, reason: "line \(lines + 1) is longer than \(limits.maximumLineBytes) bytes")
            }
            line.append(contentsOf: piece)
        }

        private mutating func endLine() throws(EventLogError) {
            lines += 1
            guard lines <= limits.maximumLines else {
                throw .tooLarge(path: path, reason: "more than \(limits.maximumLines) lines, more than an event log is read")
            }
            defer { line.removeAll(keepingCapacity: true) }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }) else { return }
            do {
                events.append(try decoder.decode(SessionEvent.self, from: Data(line)))
            } catch {
                throw .malformedLine(path: path, line: lines, reason: EventLogReader.reason(error))
            }
        }
    }
}
