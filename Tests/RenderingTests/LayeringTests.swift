import Foundation
import Testing

/// What the package's target graph cannot say about the imports.
///
/// The graph keeps the ad side's lines: AdDecisioning (VAST, VMAP, resolution, the plan) cannot import AdPlayback,
/// AdPlayback (the ads manager, sessions, picture-in-picture, the timeline) cannot import AdScreen (the screen model,
/// screen and native ads, session files, the director), and none of them can import VideoPipeline: a target that
/// imports another of the package without depending on it is a compile error (`scripts/test` builds with
/// `--explicit-target-dependency-import-check error`). What that check does not cover, system libraries, and what
/// the graph allows but the design does not, is checked here: Rendering and Verification reach CFFmpeg through
/// VideoPipeline, yet only VideoPipeline may touch it; and AdScreen may use Networking, yet the screen model is pure geometry and rules.
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
        for target in ["Rendering", "Verification"] {
            let files = try Self.imports(under: target)
            #expect(files.count > 10)
            for (file, modules) in files {
                #expect(!modules.contains("CFFmpeg"), "\(target)/\(file) imports CFFmpeg")
            }
        }
    }

    /// The screen model is pure geometry and rules: not even the network (it names the script's commands and
    /// the pixels a session sees, from AdPlayback).
    @Test func theScreenModelImportsOnlyFoundationAndMediaCore() throws {
        let files = try Self.imports(under: "AdScreen/Screen")
        #expect(files.count >= 10)
        for (file, modules) in files {
            #expect(Set(modules).isSubset(of: ["AdPlayback", "Foundation", "MediaCore"]), "Screen/\(file) imports \(modules)")
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

    /// The director owns the frame (issue 37): the renderer asks it for the frame and its plan, reports what it found
    /// of the media, and takes the events. No Rendering source names the screen ads' playback, the live native run,
    /// the director's parts, or the session's re-decide calls: ad state is driven from AdScreen alone.
    @Test func theRendererReachesAdStateOnlyThroughTheDirector() throws {
        let root = Self.sources.appendingPathComponent("Rendering")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        let forbidden = ["ScreenAdPlayback", "LiveNativeRun", "LiveBannerRequests", "adFailed", "decideLastFrameAgain", "PlaybackSession",
                         "director.session", "director.screen", "director.screenAds", "director.players", "director.planner",
                         "director.schedule"]
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for name in forbidden {
                // The whole name: `director.screenNow` is the director's answer, not its screen.
                let named = text.range(of: "\\b" + NSRegularExpression.escapedPattern(for: name) + "\\b", options: .regularExpression)
                #expect(named == nil, "Rendering/\(file) names \(name)")
            }
        }
        // What the stitcher still holds is the drawing: the per-frame driving of ad state lives in the director.
        let stitcher = try String(contentsOf: root.appendingPathComponent("Stitcher.swift"), encoding: .utf8)
        #expect(stitcher.split(separator: "\n", omittingEmptySubsequences: false).count < 350)
    }

    /// The report's page is written without media: only the reader and the contact sheet use VideoPipeline, and
    /// only `RenderFiles` names the renderer (for the file names an HLS render writes).
    @Test func theReportPageIsWrittenWithoutMedia() throws {
        let files = try Self.imports(under: "Verification/Report")
        let media: Set = ["RenderReportReader.swift", "ContactSheet.swift", "SheetText.swift", "ReportError.swift", "RenderFiles.swift"]
        #expect(files.count >= 10)
        for (file, modules) in files where !media.contains(file) {
            #expect(Set(modules).isSubset(of: ["AdDecisioning", "AdPlayback", "AdScreen", "Foundation", "MediaCore"]), "Report/\(file) imports \(modules)")
        }
    }
}
