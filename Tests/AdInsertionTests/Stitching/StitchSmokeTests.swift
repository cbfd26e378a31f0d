import Foundation
import MediaCore
import Testing
import VideoPipeline
@testable import AdInsertion

@Suite struct StitchSmokeTests {
    @Test func smoke() throws {
        let dir = "/tmp/vp/st"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fast = EncodingSettings(preset: "ultrafast")
        _ = try TestSourceGenerator.generate(.init(output: dir + "/content.mp4", duration: MediaDuration(seconds: 10), sourceID: "content", encoding: fast))
        _ = try TestSourceGenerator.generate(.init(output: dir + "/ad3.mp4", duration: MediaDuration(seconds: 3), size: PixelSize(width: 360, height: 640), frameRate: FrameRate(25), sourceID: "ad3", toneFrequency: 880, sampleRate: 44100, channels: 1, encoding: fast))
        _ = try TestSourceGenerator.generate(.init(output: dir + "/ad2.mp4", duration: MediaDuration(seconds: 2), size: PixelSize(width: 1280, height: 720), frameRate: FrameRate(60), sourceID: "ad2", toneFrequency: 660, encoding: fast))
        func ad(_ path: String) -> LinearAd {
            var a = LinearAd(id: path, mediaFiles: [MediaFile(url: path)])
            a.selection = MediaSelection(chosen: a.mediaFiles[0], localPath: path, candidates: [])
            return a
        }
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [ad(dir + "/ad3.mp4")]),
                                   AdBreak(position: .midroll(MediaTime(seconds: 5)), ads: [ad(dir + "/ad2.mp4"), ad(dir + "/missing.mp4"), ad(dir + "/ad3.mp4")]),
                                   AdBreak(position: .postroll, ads: [ad(dir + "/ad2.mp4")])])
        let r = try Stitcher.render(RenderRequest(contentPath: dir + "/content.mp4", plan: plan, outputPath: dir + "/out.mp4",
                                                  encoding: fast, script: try SessionScript(parsing: "pip on@4; pip off@6")))
        print(r.timeline.segments.map { "\($0.kind) \($0.source) \($0.outStartFrame)-\($0.outEndFrame) \($0.srcStartTick) pip=\($0.pip != nil)" }.joined(separator: "\n"))
        let report = try Verifier.verify(.init(outputPath: dir + "/out.mp4"))
        print(report.text)
        print(report.audioBoundaries)
    }
}
