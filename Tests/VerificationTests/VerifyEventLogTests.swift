import AdPlayback
import Foundation
@testable import Rendering
import Testing
@testable import Verification

/// `verify` reads an event log as `report` does, bounded while it streams (issue 36: 100 MB of newlines took 2.29 GB):
/// the output's log over a limit fails verify in one line naming it; a golden's is not compared, saying why.
@Suite struct VerifyEventLogTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("verify-event-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func line(_ frame: Int64, _ command: String) throws -> String {
        let event = SessionEvent(.command(command), time: Double(frame) / 30, frame: frame, contentTime: 0)
        return String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    }

    static let small = EventLogReader.Limits(maximumBytes: 4096, maximumLines: 3, maximumLineBytes: 1024)

    @Test func verifyFailsInOneLineOnAnEventLogOverALimit() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mp4.events.jsonl").path
        // Four lines, blank ones counted: refused at the fourth, before the fourth line (not JSON) is decoded.
        try Data((try Self.line(0, "seek 10") + "\n\n\nnot an event\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: Verifier.Failure.self) { try Verifier.seekFrames(path, limits: Self.small) }
        do { _ = try Verifier.seekFrames(path, limits: Self.small) } catch {
            #expect(error.description.hasPrefix("\(path): "), "\(error)")
            #expect(error.description.contains("more than 3 lines"), "\(error)")
        }
        // Within the limits the seeks are read; a malformed or absent log has none, as before.
        try Data((try Self.line(0, "pip off") + "\n" + Self.line(30, "seek 10") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Verifier.seekFrames(path, limits: Self.small) == [30])
        try Data("not an event\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Verifier.seekFrames(path, limits: Self.small).isEmpty)
        #expect(try Verifier.seekFrames(dir.appendingPathComponent("none.jsonl").path).isEmpty)
    }

    @Test func aHundredMegabytesOfNewlinesAreRefusedAtTheLineLimit() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mp4.events.jsonl").path
        let limits = EventLogReader.Limits.renderLog
        try Data(repeating: UInt8(ascii: "\n"), count: limits.maximumLines + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: Verifier.Failure.self) { try Verifier.seekFrames(path) }
        // A golden's log over the limit is not compared, and the comparison says why.
        guard case .failure(let unavailable) = GoldenComparison.readEvents(path) else {
            Issue.record("a golden log over the limit was read")
            return
        }
        #expect(unavailable.reason.contains("more than \(limits.maximumLines) lines"), "\(unavailable.reason)")
    }
}
