import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads an event log written by `EventLog` back into its events, for `pipctl verify` and tests.
public enum EventLogReader {
    /// The events of the log file at `url`, in file order. Blank lines are skipped.
    /// - Throws: `EventLogError.cannotRead` when the file cannot be read, `.malformedLine` for the first line
    ///   that is not a valid event.
    public static func read(contentsOf url: URL) throws(EventLogError) -> [SessionEvent] {
        // Opened here rather than by Data(contentsOf:) so that the reason is the system's plain message.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: url.path, reason: String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw .cannotRead(path: url.path, reason: (error as NSError).localizedDescription)
        }
        return try decode(data, path: url.path)
    }

    /// The events of a log's bytes; `path` names the source in errors.
    public static func decode(_ data: Data, path: String) throws(EventLogError) -> [SessionEvent] {
        let decoder = JSONDecoder()
        var events: [SessionEvent] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { !$0.isJSONWhitespace }) else { continue }
            do {
                events.append(try decoder.decode(SessionEvent.self, from: Data(line)))
            } catch {
                throw .malformedLine(path: path, line: index + 1, reason: reason(error))
            }
        }
        return events
    }

    /// The decoding error in a few words: which field and what was wrong.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let columns as SessionEventColumnsError: columns.description
        case DecodingError.keyNotFound(let key, _): "missing field \"\(key.stringValue)\""
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is not a \(type)"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\": \(context.debugDescription)"
        case DecodingError.dataCorrupted: "not a JSON object"
        default: "\(error)"
        }
    }
}

extension UInt8 {
    fileprivate var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0D || self == 0x0A }
}
