import Foundation
import Testing

/// The parsing and scheduling half of AdInsertion needs no FFmpeg: only the stitcher and the verifier may import
/// VideoPipeline (and nothing in AdInsertion imports CFFmpeg).
@Suite struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/AdInsertion").standardized

    static let allowed: Set<String> = ["Foundation", "FoundationXML", "FoundationNetworking", "Synchronization",
                                       "Dispatch", "MediaCore", "Networking", "Glibc"]

    @Test func parsingAndSchedulingImportNoMediaCode() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 40)
        for file in files {
            let imports = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
            let mediaSide = file.hasPrefix("Stitching/") || file.hasPrefix("Verification/")
            for module in imports where !Self.allowed.contains(module) {
                #expect(mediaSide && module == "VideoPipeline", "\(file) imports \(module)")
            }
        }
    }

    /// The screen model is pure geometry and rules: not even the network.
    @Test func theScreenModelImportsOnlyFoundationAndMediaCore() throws {
        let folder = Self.sources.appendingPathComponent("Screen")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 10)
        for file in files {
            let imports = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
            #expect(Set(imports).isSubset(of: ["Foundation", "MediaCore"]), "Screen/\(file) imports \(imports)")
        }
    }
}
