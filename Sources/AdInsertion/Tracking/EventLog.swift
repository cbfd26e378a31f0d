import Foundation
import MediaCore

/// Writes session events as JSON lines (`OUT.events.jsonl`), atomically: nothing is at the destination until
/// `finish()`.
public final class EventLog {
    private let file: AtomicFile
    private let encoder: JSONEncoder

    public init(destination: String) throws(AtomicFile.Failure) {
        file = try AtomicFile(destination: destination)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    public func append(_ event: SessionEvent) throws {
        var line = try encoder.encode(event)
        line.append(0x0A)
        try file.append(line)
    }

    public func finish() throws(AtomicFile.Failure) {
        try file.commit()
    }

    /// Reads a log back.
    public static func read(_ path: String) throws -> [SessionEvent] {
        let decoder = JSONDecoder()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try decoder.decode(SessionEvent.self, from: Data($0.utf8))
        }
    }
}
