@testable import AdPlayback
import Foundation
import Testing

/// `EventLogReader.read(path:limits:)`: an event log read a chunk and a line at a time, its bytes, lines and line
/// length bounded while it is read, before anything past a limit is decoded.
@Suite struct BoundedEventLogReaderTests {
    static let small = EventLogReader.Limits(maximumBytes: 1 << 20, maximumLines: 1000, maximumLineBytes: 4096)

    static func file(_ bytes: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString).jsonl").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    static let events = [
        SessionEvent(.adBreakStarted(breakIndex: 0, cueTime: nil), time: 0, frame: 0, contentTime: 0),
        SessionEvent(.adError(.ad(AdReference(1, 1)), code: 403, message: "no media\nsecond line"), time: 20.5, contentTime: 10),
    ]

    static func log(_ events: [SessionEvent]) throws -> Data {
        var data = Data()
        for event in events {
            data += try JSONEncoder().encode(event)
            data += Data("\n".utf8)
        }
        return data
    }

    @Test func readsWhatTheUnboundedReaderReadsAcrossChunks() throws {
        // 3000 events: far more than one 64 KiB chunk, so lines are cut across reads.
        let events = (0..<3000).map { i in SessionEvent(.log(.session, reason: nil, message: "note \(i)"), time: Double(i), contentTime: 0) }
        let data = try Self.log(events + Self.events)
        let path = try Self.file(data)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let limits = EventLogReader.Limits(maximumBytes: 1 << 20, maximumLines: 5000, maximumLineBytes: 4096)
        let read = try EventLogReader.read(path: path, limits: limits)
        #expect(read == events + Self.events)
        #expect(read == (try EventLogReader.decode(data, path: path)))
        // A last line without its newline, and blank lines, as before.
        #expect(try EventLogReader.decode(Data("\n\n".utf8) + data.dropLast(), path: path, limits: limits) == events + Self.events)
    }

    @Test func newlinesPastTheLineLimitAreRefusedBeforeTheLineAfterIsDecoded() throws {
        // 1001 blank lines, then a line that is not an event: the line limit is met first, so the bad line is never read.
        let path = try Self.file(Data(repeating: UInt8(ascii: "\n"), count: 1001) + Data("not json\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: EventLogError.tooLarge(path: path, reason: "more than 1000 lines, more than an event log is read")) {
            try EventLogReader.read(path: path, limits: Self.small)
        }
        // 1000 blank lines are fine.
        #expect(try EventLogReader.decode(Data(repeating: UInt8(ascii: "\n"), count: 1000), path: path, limits: Self.small).isEmpty)
    }

    @Test func aFileOrALinePastItsLimitIsRefused() throws {
        let big = try Self.file(Data(repeating: UInt8(ascii: "\n"), count: (1 << 20) + 1))
        defer { try? FileManager.default.removeItem(atPath: big) }
        var manyLines = Self.small
        manyLines.maximumLines = 2 << 20
        #expect(throws: EventLogError.tooLarge(path: big, reason: "larger than 1048576 bytes, more than an event log is read")) {
            try EventLogReader.read(path: big, limits: manyLines)
        }
        let long = Data(repeating: UInt8(ascii: " "), count: 5000)
        #expect(throws: EventLogError.tooLarge(path: "x", reason: "line 2 is longer than 4096 bytes")) {
            try EventLogReader.decode(Data("\n".utf8) + long, path: "x", limits: Self.small)
        }
    }

    @Test func aBadLineIsNamedByItsNumber() throws {
        let data = try Self.log(Self.events) + Data("\n{\"type\": 3}\n".utf8)
        #expect(throws: EventLogError.self) { try EventLogReader.decode(data, path: "x", limits: Self.small) }
        do { _ = try EventLogReader.decode(data, path: "x", limits: Self.small) } catch {
            guard case .malformedLine(_, let line, _) = error else { Issue.record("\(error)"); return }
            #expect(line == 4)
        }
    }

    @Test func theReportsLimitsAreTheDocumentedOnes() {
        #expect(EventLogReader.Limits.renderLog == .init(maximumBytes: 64 << 20, maximumLines: 200_000, maximumLineBytes: 4 << 20))
    }
}
