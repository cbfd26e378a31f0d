@testable import AdPlayback
import Foundation
import Testing

/// A fresh directory for one test, removed afterwards.
private struct ScratchDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("eventlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
}

@Suite struct EventLogTests {
    static let events = [
        SessionEvent(.adBreakStarted(breakIndex: 0, cueTime: nil), time: 0, frame: 0, contentTime: 0),
        SessionEvent(.beacon(.start, url: "https://t.example/a?b=1&c=%20", .ad(AdReference(1, 0)), code: nil),
                     time: 12.5, frame: 375, contentTime: 10),
        SessionEvent(.adError(.ad(AdReference(1, 1)), code: 403, message: "no media file of type \"video/mp4\"\nsecond line\t\u{1}é"),
                     time: 20.033367, contentTime: 10.000001),
        SessionEvent(.adBreakDeferred(breakIndex: 2, reason: .pipActive, cueTime: 30.5), time: 31, contentTime: 30),
    ]

    func write(_ events: [SessionEvent], to destination: URL) throws {
        let log = try EventLog(destination: destination.path)
        for event in events { try log.append(event) }
        try log.finish()
    }

    @Test func readsBackWhatItWrote() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("out.events.jsonl")
        try write(Self.events, to: destination)
        #expect(try EventLogReader.read(contentsOf: destination) == Self.events)
    }

    @Test func writesOneLinePerEventInFieldOrderWithoutNulls() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("out.events.jsonl")
        try write(Array(Self.events.prefix(3)), to: destination)
        let text = try String(contentsOf: destination, encoding: .utf8)
        #expect(text == """
            {"type":"AD_BREAK_STARTED","time":0,"frame":0,"contentTime":0,"break":0}
            {"type":"BEACON","time":12.5,"frame":375,"contentTime":10,"break":1,"ad":0,"url":"https://t.example/a?b=1&c=%20","event":"start"}
            {"type":"AD_ERROR","time":20.033367,"contentTime":10.000001,"break":1,"ad":1,"code":403,"message":"no media file of type \\"video/mp4\\"\\nsecond line\\t\\u0001é"}

            """)
    }

    @Test func theSameEventsGiveTheSameBytes() throws {
        let scratch = try ScratchDirectory()
        let a = scratch.url.appendingPathComponent("a.jsonl"), b = scratch.url.appendingPathComponent("b.jsonl")
        try write(Self.events, to: a)
        try write(Self.events, to: b)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test(arguments: [
        (1e-7, "0"), (0.1, "0.1"), (1.0 / 3.0, "0.333333"), (-2.5, "-2.5"), (1001.0 / 30000.0, "0.033367"),
        (3600.0 + 1.0 / 3.0, "3600.333333"), (5e-7, "0.000001"), (-0.0, "0"), (86400, "86400"),
    ])
    func writesTimesAsPlainDecimalsWithAtMostSixDigits(value: Double, json: String) throws {
        #expect(try EventLogEncoder.decimal(value, field: "time") == json)
    }

    @Test func refusesNumbersJSONCannotCarry() throws {
        let scratch = try ScratchDirectory()
        let log = try EventLog(destination: scratch.url.appendingPathComponent("x.jsonl").path)
        #expect(throws: EventLogError.unencodable(field: "time", reason: "nan is not a finite number")) {
            try log.append(SessionEvent(.log(.session, reason: nil, message: "x"), time: .nan, contentTime: 0))
        }
        #expect(log.count == 0)
    }

    /// Enough events to fill the write buffer several times.
    static let many = (0..<3000).map {
        SessionEvent(.adProgress(AdReference(0, 0), adTime: Double($0) / 30), time: Double($0) / 30, frame: Int64($0),
                     contentTime: Double($0) / 30)
    }

    @Test func leavesNothingAtTheDestinationUntilFinished() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("out.events.jsonl")
        let log = try EventLog(destination: destination.path)
        for event in Self.many { try log.append(event) }
        let temporary = URL(fileURLWithPath: log.temporaryPath)
        #expect(scratch.files == [temporary.lastPathComponent], "only the temporary file, beside the destination")
        #expect(temporary.deletingLastPathComponent().path == scratch.url.path)
        try log.finish()
        #expect(scratch.files == ["out.events.jsonl"])
        #expect(throws: EventLogError.closed(path: destination.path)) { try log.append(Self.events[1]) }
    }

    @Test func discardRemovesTheTemporaryFileAndKeepsAnOlderLog() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("out.events.jsonl")
        try Data("old\n".utf8).write(to: destination)
        let log = try EventLog(destination: destination.path)
        for event in Self.many { try log.append(event) }
        log.discard()
        #expect(scratch.files == ["out.events.jsonl"])
        #expect(try Data(contentsOf: destination) == Data("old\n".utf8))
        #expect(throws: EventLogError.closed(path: destination.path)) { try log.finish() }
    }

    @Test func releasingAnUnfinishedLogRemovesItsTemporaryFile() throws {
        let scratch = try ScratchDirectory()
        do {
            let log = try EventLog(destination: scratch.url.appendingPathComponent("out.events.jsonl").path)
            for event in Self.many { try log.append(event) }
            #expect(scratch.files.count == 1)
        }
        #expect(scratch.files.isEmpty)
    }

    @Test func finishingWithoutEventsLeavesAnEmptyLog() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("empty.jsonl")
        try write([], to: destination)
        #expect(try EventLog.read(destination.path).isEmpty)
        #expect(scratch.files == ["empty.jsonl"])
    }

    @Test func finishingReplacesAnOlderLog() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("out.events.jsonl")
        try Data("old\n".utf8).write(to: destination)
        try write([Self.events[1]], to: destination)
        #expect(try EventLogReader.read(contentsOf: destination) == [Self.events[1]])
    }

    @Test func keepsEveryLineOfALogLargerThanItsBuffer() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("big.jsonl")
        try write(Self.many, to: destination)
        let read = try EventLog.read(destination.path)
        #expect(read.count == 3000)
        #expect(read.map(\.frame) == Self.many.map(\.frame))
        #expect(read[1].time == 0.033333)
    }

    @Test func cannotCreateALogInAMissingDirectory() throws {
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("missing/out.jsonl").path
        #expect(throws: EventLogError.cannotCreate(
            path: destination, reason: "the directory \(scratch.url.path)/missing does not exist")) {
            _ = try EventLog(destination: destination)
        }
    }

    @Test func namesTheFirstMalformedLine() throws {
        let data = Data("""
            {"type":"LOG","time":1,"contentTime":1,"message":"fine"}

            {"type":"LOG","time":"soon","contentTime":1}
            not json
            """.utf8)
        #expect(throws: EventLogError.malformedLine(path: "x.jsonl", line: 3, reason: "field \"time\" is not a Double")) {
            try EventLogReader.decode(data, path: "x.jsonl")
        }
        #expect(throws: EventLogError.malformedLine(path: "y.jsonl", line: 1, reason: "missing field \"contentTime\"")) {
            try EventLogReader.decode(Data(#"{"type":"LOG","time":1}"#.utf8), path: "y.jsonl")
        }
        #expect(throws: EventLogError.cannotRead(path: "/nonexistent/z.jsonl", reason: "No such file or directory")) {
            try EventLogReader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/z.jsonl"))
        }
    }
}
