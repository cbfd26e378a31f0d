import AdDecisioning
import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// An ad whose best rendition cannot be used plays its next acceptable one: missing at decision time (chosen no
/// more), or failing to open when the render reaches it (a `LOG` `renditionFailed` per failure, no `AD_ERROR`).
@Suite struct StitchRenditionFallbackTests {
    /// A one-ad VAST pre-roll with `files` as its renditions (url, width, height), in that order.
    private func vast(_ files: [(String, Int, Int)], in dir: TemporaryDirectory) throws -> String {
        let mediaFiles = files.map { url, w, h in
            "<MediaFile delivery=\"progressive\" type=\"video/mp4\" width=\"\(w)\" height=\"\(h)\"><![CDATA[\(url)]]></MediaFile>"
        }.joined()
        return try dir.write("vast.xml", """
            <VAST version="4.1"><Ad id="a"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle>
              <Impression><![CDATA[https://track.example/imp]]></Impression>
              <Creatives><Creative><Linear><Duration>00:00:01</Duration><MediaFiles>\(mediaFiles)</MediaFiles>
              </Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
    }

    @Test func aBestRenditionMissingAtDecisionTimeLeavesTheNextOneChosen() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let tag = try vast([(dir.path + "/gone-360.mp4", 640, 360), (media.ad25.path, 320, 180),
                            (media.ad24.path, 1280, 720)], in: dir)
        let plan = try await AdsLoader().loadPlan(AdsRequest(adTag: tag, contentDuration: media.content.duration))
        let selection = try #require(plan.breaks.first?.ads.first?.ad.selection)
        // Ranked for 640x360: 640x360 (the best fit, missing), then 1280x720 (covers), then 320x180.
        #expect(selection.chosen?.url == media.ad24.path)
        #expect(selection.localPath == media.ad24.path)
        #expect(selection.fallbacks.map(\.file.url) == [media.ad25.path])
        #expect(selection.candidates[0].reason.contains("cannot be used: media \(dir.path)/gone-360.mp4"))
        #expect(selection.candidates[2].reason == "chosen: the next fallback, as the better renditions cannot be used")
        #expect(plan.breaks[0].ads[0].state == .available)
    }

    @Test func everyRenditionMissingIsThe401OfTheBestOne() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let tag = try vast([(dir.path + "/a.mp4", 1920, 1080), (dir.path + "/b.mp4", 640, 360)], in: dir)
        let plan = try await AdsLoader().loadPlan(AdsRequest(adTag: tag, contentDuration: media.content.duration))
        let ad = try #require(plan.breaks.first?.ads.first)
        #expect(ad.state == .failed)
        #expect(ad.error?.code.rawValue == 401)
        // The best fit for 640x360 is b.mp4; its failure is the one reported.
        #expect(ad.error?.message.contains("\(dir.path)/b.mp4") == true, "\(ad.error?.message ?? "")")
    }

    @Test func aRenditionThatFailsToOpenFallsBackWhileTheRenderPlays() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        // The best fit exists when the plan is made but is the first half of an MP4: it cannot be opened (405).
        let broken = dir.path + "/broken.mp4"
        let whole = try Data(contentsOf: URL(fileURLWithPath: media.ad60.path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: broken))
        let tag = try vast([(broken, 640, 360), (media.ad25.path, 320, 180)], in: dir)
        let plan = try await AdsLoader().loadPlan(AdsRequest(adTag: tag, contentDuration: media.content.duration))
        #expect(plan.breaks[0].ads[0].ad.selection?.chosen?.url == broken)

        let request = media.request(plan, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        try StampedMedia.expectGoodRender(result, request)
        #expect(result.plan.breaks[0].ads.map(\.state) == [.played])
        // The plan names the rendition that really played.
        #expect(result.plan.breaks[0].ads[0].ad.selection?.chosen?.url == media.ad25.path)
        #expect(StampedMedia.adSegments(result.timeline).map(\.source) == [media.ad25.path])

        let events = try EventLog.read(request.eventsFile)
        #expect(!events.contains { $0.type == .adError })
        let logs = events.filter { $0.columns.reason == .renditionFailed }
        #expect(logs.count == 2)
        #expect(logs.first?.columns.message?.contains("rendition failed (VAST 405)") == true)
        #expect(logs.first?.columns.message?.contains(broken) == true)
        #expect(logs.last?.columns.message?.contains("plays its fallback rendition \(media.ad25.path)") == true)
        let loaded = try #require(events.firstIndex { $0.type == .loaded })
        #expect(events.firstIndex { $0.columns.reason == .renditionFailed }! == loaded + 1, "the fallback is logged right after LOADED")
    }

    @Test func whenEveryRenditionFailsToOpenTheAdFailsNamingEachOne() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let whole = try Data(contentsOf: URL(fileURLWithPath: media.ad60.path))
        let first = dir.path + "/first.mp4", second = dir.path + "/second.mp4"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: first))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: second))
        let tag = try vast([(first, 640, 360), (second, 320, 180)], in: dir)
        let plan = try await AdsLoader().loadPlan(AdsRequest(adTag: tag, contentDuration: media.content.duration))
        let request = media.request(plan, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        #expect(result.plan.breaks[0].ads.map(\.state) == [.failed])
        let error = try #require(result.plan.breaks[0].ads[0].error)
        #expect(error.code.rawValue == 405)
        #expect(error.message.contains(first) && error.message.contains("every fallback rendition failed too"))
        #expect(error.message.contains(second))
    }
}
