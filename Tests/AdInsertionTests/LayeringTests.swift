import Foundation
import Testing

/// What the package's target graph cannot say about the ad side's imports.
///
/// AdDecisioning (VAST, VMAP, resolution, the plan) cannot import AdCore, and AdCore (the ads manager, sessions,
/// screens) cannot import VideoPipeline or CFFmpeg: neither depends on them, and the compiler refuses the import.
/// What the graph allows but the design does not is checked here:
/// AdInsertion reaches CFFmpeg through VideoPipeline, yet only VideoPipeline may touch it; and AdCore may use
/// Networking, yet the screen model is pure geometry and rules.
@Suite struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardized

    /// The modules the `.swift` files under `folder` (relative to `Sources/`) import, by file.
    static func imports(under folder: String) throws -> [String: [String]] {
        let root = sources.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var result: [String: [String]] = [:]
        for file in files {
            result[file] = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_exported import ") }
                .map { String($0.split(separator: " ").last!) }
        }
        return result
    }

    @Test func theStitcherAndVerifierReachFFmpegOnlyThroughVideoPipeline() throws {
        let files = try Self.imports(under: "AdInsertion")
        #expect(files.count > 10)
        for (file, modules) in files {
            #expect(!modules.contains("CFFmpeg"), "AdInsertion/\(file) imports CFFmpeg")
        }
    }

    /// The screen model is pure geometry and rules: not even the network.
    @Test func theScreenModelImportsOnlyFoundationAndMediaCore() throws {
        let files = try Self.imports(under: "AdCore/Screen")
        #expect(files.count >= 10)
        for (file, modules) in files {
            #expect(Set(modules).isSubset(of: ["Foundation", "MediaCore"]), "Screen/\(file) imports \(modules)")
        }
    }

    /// No target re-exports another (`@_exported import`): a file names every module it uses, so what a target
    /// depends on is what its imports and the package's graph say, not what an import of another target drags in.
    @Test func noTargetReExportsAnother() throws {
        let root = Self.sources.deletingLastPathComponent()
        var checked = 0
        for folder in ["Sources", "Tests", "Fuzz"] {
            let base = root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(atPath: base.path)).compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") }
            for file in files {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                #expect(!text.split(separator: "\n").contains { $0.hasPrefix("@_exported") }, "\(folder)/\(file) re-exports a module")
                checked += 1
            }
        }
        #expect(checked > 300)
    }

    /// AdCore's folders depend on each other one way (a folder uses the types another declares; nothing leads back):
    /// the lines along which it can split into targets, kept until the compiler keeps them. A cycle is named.
    @Test func adCoresFoldersDependOnEachOtherWithoutACycle() throws {
        let root = Self.sources.appendingPathComponent("AdCore")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        let declaration = try Regex(#"^(?:@\w+ +)*(?:(?:public|package|internal|fileprivate|private|final|indirect) +)*(?:struct|enum|class|protocol|typealias|actor) +([A-Z]\w*)"#)
            .anchorsMatchLineEndings()
        let literal = try Regex(#""(?:[^"\\]|\\.)*""#)
        var texts: [(folder: String, code: String)] = []
        var owner: [String: String] = [:]
        for file in files {
            let folder = String(file.split(separator: "/")[0])
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { owner[String(name)] = owner[String(name)] ?? folder }
            }
            // Comments and string literals name types without using them.
            let code = text.split(separator: "\n").map { line in
                String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                    .replacing(literal, with: "\"\"")
            }.joined(separator: "\n")
            texts.append((folder, code))
        }
        #expect(Set(owner.values).count >= 10)
        var uses: [String: Set<String>] = [:]
        let identifier = try Regex(#"\b[A-Z]\w*\b"#).wordBoundaryKind(.simple) // `A.B` is one word by Unicode's rules
        for (folder, code) in texts {
            for match in code.matches(of: identifier) {
                if let other = owner[String(code[match.range])], other != folder { uses[folder, default: []].insert(other) }
            }
        }
        // Depth-first search with an explicit stack: a folder met again while still on the path closes a cycle.
        var state: [String: Bool] = [:] // false: on the path; true: done
        for start in uses.keys.sorted() where state[start] == nil {
            var path = [start]
            var pending = [uses[start, default: []].sorted()]
            state[start] = false
            while let last = pending.indices.last {
                guard let next = pending[last].popLast() else {
                    state[path.removeLast()] = true
                    pending.removeLast()
                    continue
                }
                switch state[next] {
                case false?:
                    let cycle = path[path.firstIndex(of: next)!...] + [next]
                    Issue.record("AdCore's folders form a cycle: \(cycle.joined(separator: " → "))")
                    return
                case true?: continue
                case nil:
                    state[next] = false
                    path.append(next)
                    pending.append(uses[next, default: []].sorted())
                }
            }
        }
    }

    /// The report's page is written without media: only the reader and the contact sheet use VideoPipeline.
    @Test func theReportPageIsWrittenWithoutMedia() throws {
        let files = try Self.imports(under: "AdInsertion/Report")
        let media: Set = ["RenderReportReader.swift", "ContactSheet.swift", "SheetText.swift", "ReportError.swift"]
        #expect(files.count >= 10)
        for (file, modules) in files where !media.contains(file) {
            #expect(Set(modules).isSubset(of: ["AdCore", "AdDecisioning", "Foundation", "MediaCore"]), "Report/\(file) imports \(modules)")
        }
    }
}
