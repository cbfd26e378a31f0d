import Foundation
import Testing
@testable import Batch

@Suite struct BatchManifestTests {
    func manifest(_ lines: [String]) throws -> BatchManifest {
        try BatchManifest(data: Data(lines.joined(separator: "\n").utf8), path: "m.jsonl", directory: "/data/batch")
    }

    @Test func readsJobsWithAdsOrBreaksAndOptionsInNameOrder() throws {
        let m = try manifest([
            #"{"id": "a", "content": "c.mp4", "ads": "s.vmap.xml", "output": "out/a.mp4"}"#,
            "",
            #"{"id": "b", "content": "/abs/c.mp4", "breaks": ["pre=x.mp4", "50%=y.mp4,z.mp4"], "output": "out/b.mp4", "options": {"fps": 30, "passthrough": true, "size": "640x360", "cue-points": [10, 20.5], "no-preroll": false}}"#,
        ])
        #expect(m.errors.isEmpty)
        #expect(m.jobs.count == 2)
        #expect(m.jobs[0] == BatchJob(id: "a", line: 1, content: "c.mp4", ads: .document("s.vmap.xml"), output: "out/a.mp4", options: []))
        let b = m.jobs[1]
        #expect(b.line == 3)
        #expect(b.source == .content("/abs/c.mp4", ads: .breaks(["pre=x.mp4", "50%=y.mp4,z.mp4"])))
        #expect(b.options.map(\.name) == ["cue-points", "fps", "no-preroll", "passthrough", "size"])
        #expect(b.options[0].value == .text(["10", "20.5"]))
        #expect(b.options[1].value == .text(["30"]))
        #expect(b.options[2].value == .boolean(false))
        #expect(b.options[3].value == .boolean(true))
        #expect(m.directory == "/data/batch")
    }

    @Test(arguments: [
        (#"{"id": "a", "content": "c.mp4", "output": "o.mp4"}"#, "line 1: ads: missing: give ads (a VMAP/VAST path or URL) or breaks"),
        (#"{"id": "a", "content": "c.mp4", "ads": "x", "breaks": ["pre=a.mp4"], "output": "o.mp4"}"#, "line 1: breaks: give either ads or breaks, not both"),
        (#"{"content": "c.mp4", "ads": "x", "output": "o.mp4"}"#, "line 1: id: missing"),
        (#"{"id": 7, "content": "c.mp4", "ads": "x", "output": "o.mp4"}"#, "line 1: id: expected a string, not a number"),
        (#"{"id": "a", "content": "c.mp4", "ads": "x", "outptu": "o.mp4"}"#, "line 1: outptu: unknown field (did you mean output?)"),
        (#"{"id": "a", "content": "c.mp4", "ads": "x"}"#, "line 1: output: missing"),
        (#"{"id": "a", "content": "", "ads": "x", "output": "o.mp4"}"#, "line 1: content: empty"),
        (#"{"id": "a", "content": "c.mp4", "breaks": [], "output": "o.mp4"}"#, "line 1: breaks: empty"),
        (#"{"id": "a", "content": "c.mp4", "breaks": ["pre=a.mp4", 3], "output": "o.mp4"}"#, "line 1: breaks[1]: expected a non-empty string, not a number"),
        (#"{"id": "a", "content": "c.mp4", "breaks": "pre=a.mp4", "output": "o.mp4"}"#, "line 1: breaks: expected a list of strings, not a string"),
        (#"{"id": "a", "content": "c.mp4", "ads": "x", "output": "o.mp4", "options": {"fps": {"n": 30}}}"#, "line 1: options.fps: expected a string, a number, a boolean or a list of those, not an array or object"),
        (#"{"id": "a", "content": "c.mp4", "ads": "x", "output": "o.mp4", "options": {"cue-points": [1, null]}}"#, "line 1: options.cue-points[1]: expected a string or a number, not null"),
        (#"{"id": "a", "content": "c.mp4", "ads": "x", "output": "o.mp4", "options": ["fps"]}"#, "line 1: options: expected an object of render options, not a list"),
        (#"[1, 2]"#, "line 1: not a JSON object (the line is not an object)"),
        (#"{"id": "a", "session": "s.json", "content": "c.mp4", "output": "o.mp4"}"#, "line 1: content: the session file says this: give session, or content with ads or breaks, not both"),
        (#"{"id": "a", "session": "s.json", "breaks": ["pre=a.mp4"], "output": "o.mp4"}"#, "line 1: breaks: the session file says this: give session, or content with ads or breaks, not both"),
        (#"{"id": "a", "ads": "x", "output": "o.mp4"}"#, "line 1: content: missing: give content (with ads or breaks) or session (a session file)"),
        (#"{"id": "a", "session": 3, "output": "o.mp4"}"#, "line 1: session: expected a string, not a number"),
    ])
    func reportsTheLineAndTheFieldOfEachMistake(line: String, message: String) throws {
        let m = try manifest([line])
        #expect(m.jobs.isEmpty)
        #expect(m.errors.map(\.description) == [message])
    }

    @Test func anInvalidLineKeepsItsIdAndTheOtherLinesStillRead() throws {
        let m = try manifest([
            #"{"id": "good", "content": "c.mp4", "ads": "x", "output": "a.mp4"}"#,
            #"{"id": "bad", "content": "c.mp4", "output": "b.mp4"}"#,
            #"{not json"#,
            #"{"id": "good2", "content": "c.mp4", "ads": "x", "output": "c.mp4x"}"#,
        ])
        #expect(m.jobs.map(\.id) == ["good", "good2"])
        #expect(m.errors.map(\.line) == [2, 3])
        #expect(m.errors[0].id == "bad")
        #expect(m.errors[1].id == nil)
        #expect(m.errors[1].description.hasPrefix("line 3: not a JSON object"))
    }

    @Test func aRepeatedIdOrOutputIsRefusedOnTheLaterLine() throws {
        let m = try manifest([
            #"{"id": "a", "content": "c.mp4", "ads": "x", "output": "out/a.mp4"}"#,
            #"{"id": "a", "content": "c.mp4", "ads": "x", "output": "out/other.mp4"}"#,
            #"{"id": "b", "content": "c.mp4", "ads": "x", "output": "out/../out/a.mp4"}"#,
            #"{"id": "c", "content": "c.mp4", "ads": "x", "output": "/data/batch/out/a.mp4"}"#,
        ])
        #expect(m.jobs.map(\.id) == ["a"])
        #expect(m.errors.map(\.description) == [
            #"line 2: id: "a" is already the id of line 1"#,
            #"line 3: output: "out/../out/a.mp4" is also the output of "a" (line 1)"#,
            #"line 4: output: "/data/batch/out/a.mp4" is also the output of "a" (line 1)"#,
        ])
    }

    @Test func aLineTooLongOrAnIdWithControlCharactersIsRefused() throws {
        let long = #"{"id": "a", "content": ""# + String(repeating: "x", count: BatchManifest.maximumLineLength) + #"", "ads": "x", "output": "o"}"#
        let m = try manifest([long, #"{"id": "a\u0007b", "content": "c.mp4", "ads": "x", "output": "o.mp4"}"#])
        #expect(m.errors.map(\.description) == ["line 1: longer than \(BatchManifest.maximumLineLength) bytes",
                                                "line 2: id: contains a control character"])
    }

    @Test func aSessionFileJobTakesThePlaceOfContentAndAds() throws {
        let m = try manifest([#"{"id": "s", "session": "media/slider.session.json", "output": "out/s.mp4", "options": {"fps": 25}}"#])
        #expect(m.errors.isEmpty)
        #expect(m.jobs == [BatchJob(id: "s", line: 1, source: .session("media/slider.session.json"), output: "out/s.mp4",
                                    options: [.init(name: "fps", value: .text(["25"]))])])
        #expect(m.jobs[0].inputsAsWritten == ["media/slider.session.json"])
    }

    /// `before`, the bytes `bad`, then `after`, as one line.
    static func bytes(_ before: String, _ bad: [UInt8], _ after: String) -> Data {
        var data = Data(before.utf8)
        data.append(contentsOf: bad)
        data.append(contentsOf: Array(after.utf8))
        return data
    }

    static let notUTF8: [(Data, String)] = [
        (bytes(#"{"id": "a", "content": "c"#, [0xFF], #".mp4", "ads": "x", "output": "o.mp4"}"#),
         "line 1: content: not valid UTF-8 (byte 0xFF at byte 26 of the line)"),
        (bytes(#"{"id": "a", "content": "c.mp4", "breaks": ["pre=a.mp4", "50%="#, [0xC3, 0x28], #""], "output": "o.mp4"}"#),
         "line 1: breaks[1]: not valid UTF-8 (byte 0xC3 at byte 62 of the line)"),
        (bytes(#"{"id": "a", "content": "c.mp4", "ads": "x", "output": "o.mp4", "options": {"fps": 25, "font": "f"#, [0xE2, 0x82], #""}}"#),
         "line 1: options.font: not valid UTF-8 (byte 0xE2 at byte 97 of the line)"),
        (bytes(#"{"id": "#, [0x22, 0x80, 0x22], #", "content": "c.mp4", "ads": "x", "output": "o.mp4"}"#),
         "line 1: id: not valid UTF-8 (byte 0x80 at byte 9 of the line)"),
        (bytes(#"{"id": "a", "opt"#, [0xFE], #"": 1}"#),
         "line 1: a field name is not valid UTF-8 (byte 0xFE at byte 17 of the line)"),
    ]

    /// Bytes that are not UTF-8, in a value, a list item, an option, an id and a field name: each named by its
    /// line and JSON path, not reported as a value of another type.
    @Test(arguments: notUTF8)
    func invalidUTF8IsNamedByItsLineAndJSONPath(line: Data, message: String) throws {
        var data = Data(#"{"id": "ok", "content": "c.mp4", "ads": "x", "output": "ok.mp4"}"#.utf8)
        data.append(UInt8(ascii: "\n"))
        data.append(line)
        let m = try BatchManifest(data: data, path: "m.jsonl", directory: "/data/batch")
        #expect(m.jobs.map(\.id) == ["ok"])
        #expect(m.errors.map(\.description) == [message.replacingOccurrences(of: "line 1:", with: "line 2:")])
    }

    @Test func readingStopsWhenCancelled() {
        let lines = (1...100).map { #"{"id": "j\#($0)", "content": "c.mp4", "ads": "x", "output": "o\#($0).mp4"}"# }
        var asked = 0
        #expect(throws: BatchManifest.Failure(path: "m.jsonl", reason: "stopped at line 3")) {
            try BatchManifest(data: Data(lines.joined(separator: "\n").utf8), path: "m.jsonl", directory: "/d",
                              isCancelled: { asked += 1; return asked > 2 })
        }
    }

    @Test func controlCharactersBecomeVisibleEscapes() {
        #expect(PrintableText.escaping("a\u{1B}]0;title\u{07}b\nc\u{9B}d") == #"a\x1B]0;title\x07b\x0Ac\x9Bd"#)
        #expect(PrintableText.escaping("plain é ✓") == "plain é ✓")
    }

    @Test func relativePathsResolveAgainstTheManifestsDirectoryAndURLsStay() {
        #expect(BatchManifest.resolve("a/../b.mp4", in: "/data/x") == "/data/x/b.mp4")
        #expect(BatchManifest.resolve("/abs//b.mp4", in: "/data/x") == "/abs/b.mp4")
        #expect(BatchManifest.resolve("https://ads.example/v.xml", in: "/data/x") == "https://ads.example/v.xml")
    }

    @Test func theDigestChangesWithTheBytes() throws {
        let a = try manifest([#"{"id": "a", "content": "c.mp4", "ads": "x", "output": "o.mp4"}"#])
        let b = try manifest([#"{"id": "a", "content": "c.mp4", "ads": "y", "output": "o.mp4"}"#])
        #expect(a.digest != b.digest)
        #expect(a.digest.count == 16)
    }
}
