@testable import AdInsertion
import AdPlayback
import Foundation
import Testing

/// `verify` reads an event log bounded before it decodes anything: by its size (from the file's own, unread), and
/// by its count of events, line by line (issue 36: 100 MB of newlines took 2.29 GB).
@Suite struct VerifyEventLogTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("verify-event-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func line(_ frame: Int64) throws -> String {
        let event = SessionEvent(.command("pip off"), time: Double(frame) / 30, frame: frame, contentTime: 0)
        return String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    }

    @Test func aLogLargerThanTheLimitIsRefusedByItsSizeNamingTheFile() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mp4.events.jsonl").path
        try Data(repeating: UInt8(ascii: "\n"), count: 1001).write(to: URL(fileURLWithPath: path))
        #expect(throws: VerifyEventLog.Failure.tooLarge(path: path, bytes: 1001)) {
            try VerifyEventLog.read(path, maximumBytes: 1000)
        }
        let message = VerifyEventLog.Failure.tooLarge(path: path, bytes: 1001).description
        #expect(message == "\(path): 1001 bytes, larger than the limit of \(VerifyEventLog.maximumBytes) bytes for an event log")
        // At the limit it is read: blank lines are skipped without a slice each.
        try Data(repeating: UInt8(ascii: "\n"), count: 1000).write(to: URL(fileURLWithPath: path))
        #expect(try VerifyEventLog.read(path, maximumBytes: 1000).isEmpty)
    }

    @Test func eventsPastTheLimitAreRefusedBeforeTheyAreDecoded() throws {
        // The third event is not even JSON: the count stops the reading before it is decoded.
        let data = Data((try Self.line(0) + "\n\n" + Self.line(30) + "\n" + "not an event\n").utf8)
        #expect(throws: VerifyEventLog.Failure.tooManyEvents(path: "log", line: 4)) {
            try VerifyEventLog.decode(data, path: "log", maximumEvents: 2)
        }
        #expect(throws: VerifyEventLog.Failure.malformedLine(path: "log", line: 4, reason: "not a JSON object")) {
            try VerifyEventLog.decode(data, path: "log", maximumEvents: 3)
        }
        let two = Data((try Self.line(0) + "\n" + Self.line(30)).utf8)
        #expect(try VerifyEventLog.decode(two, path: "log", maximumEvents: 2).map(\.frame) == [0, 30])
    }

    @Test func verifyFailsInOneLineOnAnEventLogOverTheLimit() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mp4.events.jsonl").path
        try Data(repeating: UInt8(ascii: "\n"), count: VerifyEventLog.maximumBytes + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: Verifier.Failure.self) { try Verifier.seekFrames(path) }
        do { _ = try Verifier.seekFrames(path) } catch {
            #expect(error.description == "\(path): \(VerifyEventLog.maximumBytes + 1) bytes, larger than the limit of \(VerifyEventLog.maximumBytes) bytes for an event log")
        }
        // An absent log has no seeks, as before.
        #expect(try Verifier.seekFrames(dir.appendingPathComponent("none.jsonl").path).isEmpty)
    }
}
