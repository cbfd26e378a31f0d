@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// Every error that quotes a user's value quotes at most `excerptLimit` characters of it, so one bad value in a
/// huge input gives one short line (issue 22: a 50 MB script printed a 52 MB error).
@Suite struct ErrorExcerptTests {
    /// A 50 MB script is refused by its size before any of it is parsed, in one short line.
    @Test func aFiftyMegabyteScriptIsRefusedUnparsedInOneShortLine() throws {
        let script = "pip on@1; pip off@2\n" + "frobnicate " + String(repeating: "z", count: 50_000_000) + "@3\n"
        let error = #expect(throws: ScriptError.self) { try SessionScript(parsing: script) }
        #expect(error == .tooLarge(.bytes(script.utf8.count)))
        #expect(error?.description == "script: \(script.utf8.count) bytes, more than the limit of 4194304 bytes")
    }

    /// A script at its size limit whose one bad command, 3 MB long, comes after a few good ones and before 1 MB
    /// more: one short line, quoting 200 characters of the command (issue 22: a 50 MB script printed a 52 MB error).
    @Test func aScriptAtTheLimitWithOneBadCommandGivesAShortError() throws {
        let good = String(repeating: "pip on@1; pip off@2\n", count: 25_000)
        let bad = "frobnicate " + String(repeating: "z", count: 3_000_000) + "@3\n"
        let script = "pip on@1; pip off@2\n" + bad + good + String(repeating: " ", count: SessionScript.maximumBytes - bad.utf8.count - good.utf8.count - 20)
        #expect(script.utf8.count == SessionScript.maximumBytes)
        let error = #expect(throws: ScriptError.self) { try SessionScript(parsing: script) }
        let line = error?.description ?? ""
        #expect(line.utf8.count < 600)  // 200 quoted + the ~300-byte list of commands "unknown command" names
        #expect(line.hasPrefix("script command \"frobnicate zzz") && line.contains("bytes in all"))
        #expect(!line.contains("\n"))
    }

    /// One command past `maximumCommands` is refused, however small each command is.
    @Test func oneCommandPastTheLimitIsRefused() throws {
        let script = { (count: Int) in String(repeating: "pip@1;", count: count) }
        #expect(try SessionScript(parsing: script(SessionScript.maximumCommands)).commands.count == SessionScript.maximumCommands)
        let error = #expect(throws: ScriptError.self) { try SessionScript(parsing: script(SessionScript.maximumCommands + 1)) }
        #expect(error?.description == "script: more than the limit of 10000 commands")
    }

    @Test(arguments: ["pip on", "seek " + String(repeating: "9", count: 10_000) + "@1", "rotate " + String(repeating: "q", count: 10_000) + "@1",
                      "pip " + String(repeating: "w", count: 10_000) + "@1", "resize main " + String(repeating: "1", count: 10_000) + "@1"])
    func eachScriptErrorQuotesAtMostTheLimit(command: String) {
        let error = #expect(throws: ScriptError.self) { try SessionScript(parsing: command + String(repeating: " x", count: 5_000)) }
        #expect((error?.description.utf8.count ?? .max) < 400 + 400, "\(error?.description.prefix(100) ?? "")")
    }

    @Test func aSessionFileQuotesAtMostTheLimitOfAKeyOrAValue() {
        let long = String(repeating: "k", count: 100_000)
        for json in [#"{"device": "ipad-11", "\#(long)": 1, "scenes": []}"#,
                     #"{"device": "\#(long)", "scenes": [{"id": "a"}]}"#,
                     #"{"device": "ipad-11", "layout": "\#(long)", "scenes": [{"id": "a"}]}"#,
                     #"{"device": "ipad-11", "scenes": [{"id": "\#(long)"}, {"id": "\#(long)"}]}"#,
                     #"{"device": "ipad-11", "scenes": [{"id": "a", "banner": {"source": "ftp://\#(long)"}}]}"#] {
            let error = #expect(throws: SessionFileError.self) { try ScreenSession(sessionFile: Data(json.utf8), file: "s.json") }
            let line = error?.description ?? ""
            #expect(line.hasPrefix("s.json: ") && line.utf8.count < 600, "\(line.prefix(120))")
        }
    }

    @Test func aURLMapAndANativeResponseQuoteAtMostTheLimit() {
        let long = String(repeating: "u", count: 100_000)
        let map = #expect(throws: DecisioningError.self) { try URLMap(parsing: "\(long)\t/media", file: "m.urlmap", directory: "/") }
        #expect((map?.description.utf8.count ?? .max) < 600)
        let id = String(repeating: "i", count: 4_000)
        let response = #"{"ads": [{"adid": "\#(id)", "assets": [{"title": {"text": "a"}}]}, {"adid": "\#(id)", "assets": [{"title": {"text": "a"}}]}]}"#
        let native = #expect(throws: NativeError.self) { try NativeResponseParser().parse(Data(response.utf8), source: "r.json") }
        #expect((native?.description.utf8.count ?? .max) < 600, "\(native?.description.prefix(120) ?? "")")
    }
}
