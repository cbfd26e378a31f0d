import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import Testing
@testable import VideoPipeline

/// docs/LIBRARY.md's program renders `media/slider.session.json` through the library as
/// `pipctl render --session media/slider.session.json` does.
///
/// The test runs the document's statements themselves (its two paths being `sessionFile` and `output`, so that the
/// render goes into a scratch directory) and checks that docs/LIBRARY.md still shows exactly them; the timeline and the
/// event log must be those `scripts/golden` recorded for the `slider` case, which `pipctl render` writes.
@Suite struct LibraryExampleTests {
    /// The checkout: this file is `Tests/RenderingTests/LibraryExampleTests.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theReadmeProgramRendersTheSliderSessionAsPipctlDoes() async throws {
        let readme = try String(contentsOfFile: Self.root + "/docs/LIBRARY.md", encoding: .utf8)
        let program = try #require(Self.swiftBlocks(in: readme).first { $0.contains("RenderRequest(sessionFile:") },
                                   "docs/LIBRARY.md shows the program")
        #expect(program.hasPrefix("import Rendering\n\n@main struct "), "\(program)")
        let statements = Self.statements(ofMain: program)
        #expect(statements.count == 3, "\(statements)")
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        for statement in statements {
            let here = statement.replacingOccurrences(of: #""media/slider.session.json""#, with: "sessionFile")
                .replacingOccurrences(of: #""out/slider.mp4""#, with: "output")
            #expect(source.contains("\n        " + here + "\n"), "the test runs the document's \(statement)")
        }

        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.file("slider"), withIntermediateDirectories: true)
        // Where `scripts/golden` renders the case: ROOT/media/slider.session.json into WORK/slider/out.mp4.
        let sessionFile = Self.root + "/media/slider.session.json", output = scratch.file("slider/out.mp4")
        let request = try await RenderRequest(sessionFile: sessionFile, output: output)
        let result = try Stitcher.render(request)
        print("\(result.timeline.output.frames) frames")

        #expect(result.timeline.output.frames == 330)
        #expect(result.timeline.output.width == 590 && result.timeline.output.height == 1278)
        let golden = try String(contentsOfFile: Self.root + "/scripts/golden.d/md5.txt", encoding: .utf8)
        for file in ["out.mp4.timeline.json", "out.mp4.events.jsonl"] {
            // As `scripts/golden` hashes text outputs: the scratch folder's path is WORK, the checkout's ROOT.
            let text = try String(contentsOfFile: scratch.file("slider/" + file), encoding: .utf8)
                .replacingOccurrences(of: scratch.path, with: "WORK").replacingOccurrences(of: Self.root, with: "ROOT")
            #expect(golden.contains("\nslider \(file) \(try Self.md5(text))\n"), "\(file) is what pipctl render writes")
        }
    }

    /// The contents of each ```swift block of `markdown`.
    static func swiftBlocks(in markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    /// The lines of `main()`'s body, without their indentation.
    static func statements(ofMain program: String) -> [String] {
        let lines = program.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("static func main()") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0 != "}" })
    }

    /// The MD5 of `text`'s UTF-8, in hexadecimal (as `md5sum` prints it).
    static func md5(_ text: String) throws -> String {
        let bytes = Array(text.utf8)
        let digest = try MD5Context().digest { update in bytes.withUnsafeBufferPointer { update($0.baseAddress!, $0.count) } }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
