import Foundation
import MediaCore
import Testing
import VideoPipeline
@testable import AdInsertion

@Suite struct StitchSmokeTests {
    @Test func smoke() throws {
        func ad(_ path: String) -> LinearAd {
            var a = LinearAd(id: path, mediaFiles: [MediaFile(url: path)])
            a.selection = MediaSelection(chosen: a.mediaFiles[0], localPath: path, candidates: [])
            return a
        }
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [ad("/tmp/vp/ad3.mp4")]),
                                   AdBreak(position: .midroll(MediaTime(seconds: 5)), ads: [ad("/tmp/vp/ad3.mp4"), ad("/tmp/vp/missing.mp4")]),
                                   AdBreak(position: .postroll, ads: [ad("/tmp/vp/ad3.mp4")])])
        let r = try Stitcher.render(RenderRequest(contentPath: "/tmp/vp/content.mp4", plan: plan, outputPath: "/tmp/vp/stitched.mp4",
                                                  encoding: EncodingSettings(preset: "ultrafast"), script: try SessionScript(parsing: "pip on@4; pip off@6")))
        print(String(decoding: try r.timeline.jsonData(), as: UTF8.self).prefix(3000))
    }
}
