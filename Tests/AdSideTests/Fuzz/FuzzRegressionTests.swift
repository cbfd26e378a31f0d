@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import Testing

/// What the fuzzers found (`scripts/fuzz`, issue 9), replayed through the library on every test run.
///
/// Each finding is kept as a file under `Fuzz/Regressions/TARGET/`; `scripts/fuzz` also replays them first.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func findings(_ target: String) throws -> [URL] {
        let directory = root.appendingPathComponent("Fuzz/Regressions/\(target)")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func everyVASTFindingIsRefusedAsMalformedXML() throws {
        let files = try Self.findings("vast")
        #expect(!files.isEmpty)
        for file in files {
            let error = #expect(throws: DecisioningError.self, "\(file.lastPathComponent)") {
                _ = try VASTParser().parse(Data(contentsOf: file), source: file.lastPathComponent)
            }
            #expect(error?.code == .xmlParsing, "\(file.lastPathComponent): \(String(describing: error))")
        }
    }

    /// libxml2 2.9 dereferences NULL when an ASCII document declares a UTF-32 encoding: refused before parsing.
    @Test(arguments: ["UTF-32", "utf-32le", "UTF-32BE", "UCS-4", "EBCDIC-US"])
    func refusesADeclaredEncodingOtherThanTheUsualOnes(encoding: String) {
        let text = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<VAST version=\"3.0\"></VAST>\n"
        #expect(throws: DecisioningError.malformedXML(
            source: "e.xml", line: 1,
            reason: "unsupported encoding '\(encoding)' (pipctl reads UTF-8, UTF-16, US-ASCII, ISO-8859-1, windows-1252)")) {
            _ = try VASTParser().parse(Data(text.utf8), source: "e.xml")
        }
    }

    @Test(arguments: ["UTF-8", "utf-8", "ISO-8859-1", "US-ASCII", "windows-1252"])
    func readsTheEncodingsAdServersSend(encoding: String) throws {
        let text = "<?xml version='1.0' encoding = '\(encoding)' ?>\n<VAST version=\"3.0\"></VAST>\n"
        let document = try VASTParser().parse(Data(text.utf8), source: "e.xml")
        #expect(document.ads.isEmpty)
    }

    @Test func everyVMAPFindingIsRefusedAsMalformedXML() throws {
        let files = try Self.findings("vmap")
        #expect(!files.isEmpty)
        for file in files {
            let error = #expect(throws: DecisioningError.self, "\(file.lastPathComponent)") {
                _ = try VMAPParser().parse(Data(contentsOf: file), source: file.lastPathComponent)
            }
            #expect(error?.code == .xmlParsing, "\(file.lastPathComponent): \(String(describing: error))")
        }
    }

    @Test func everyScriptFindingIsAScriptError() throws {
        let files = try Self.findings("script")
        #expect(!files.isEmpty)
        for file in files {
            #expect(throws: ScriptError.self, "\(file.lastPathComponent)") {
                _ = try SessionScript(parsing: String(decoding: Data(contentsOf: file), as: UTF8.self))
            }
        }
    }

    /// FoundationXML calls `strlen(NULL)` for a processing instruction without data; libxml2 guesses UCS-4 from a
    /// NUL byte and crashes. Both are refused before parsing.
    @Test(arguments: [("<?h?><VAST version=\"3.0\"/>", "refused: a processing instruction without data"),
                      ("<VAST version=\"3.0\"><?pi \t ?></VAST>", "refused: a processing instruction without data"),
                      ("\u{0}\u{0}\u{0}<\u{0}?xml", "refused: a NUL byte (pipctl reads UTF-8, or UTF-16 with a byte-order mark)")])
    func refusesWhatCrashesTheXMLParser(text: String, reason: String) {
        #expect(throws: DecisioningError.malformedXML(source: "c.xml", line: 1, reason: reason)) {
            _ = try VASTParser().parse(Data(text.utf8), source: "c.xml")
        }
    }

    /// A UTF-16 byte-order mark before bytes that are not UTF-16 (an unpaired surrogate here) crashed
    /// `xmlParseChunk`.
    @Test func refusesAByteOrderMarkBeforeTextThatIsNotUTF16() {
        let bytes = Data([0xFE, 0xFF, 0xFF, 0x69, 0x6E, 0x74, 0xD9, 0xDD, 0x09, 0xDD])
        #expect(throws: DecisioningError.malformedXML(
            source: "b.xml", line: 1, reason: "refused: a UTF-16 byte-order mark before text that is not UTF-16")) {
            _ = try VASTParser().parse(bytes, source: "b.xml")
        }
    }

    @Test func keepsProcessingInstructionsWithData() throws {
        let text = "<?xml-stylesheet href=\"a.xsl\"?><VAST version=\"3.0\"></VAST>"
        #expect(try VASTParser().parse(Data(text.utf8), source: "p.xml").ads.isEmpty)
    }
}
