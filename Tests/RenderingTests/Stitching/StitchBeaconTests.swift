import AdDecisioning
import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// `--send-beacons`: a render's tracking URLs really reach an ad server (a real HTTP server on loopback), with
/// their macros filled in, while the render runs.
@Suite struct StitchBeaconTests {
    @Test func aRenderSendsItsBeaconsToTheAdServer() async throws {
        let media = try StampedMedia.shared
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        for path in ["/imp", "/start", "/q1", "/mid", "/q3", "/complete"] { server.route(path, .init(status: 204)) }
        let base = server.baseURL.absoluteString
        let dir = try TemporaryDirectory()
        let vast = try dir.write("preroll.xml", """
            <VAST version="4.2"><Ad id="a"><InLine><AdSystem>test</AdSystem><AdTitle>beacons</AdTitle>
              <Impression><![CDATA[\(base)/imp?cb=[CACHEBUSTING]]]></Impression>
              <Creatives><Creative><Linear><Duration>00:00:01</Duration>
                <TrackingEvents>
                  <Tracking event="start"><![CDATA[\(base)/start?pos=[BREAKPOSITION]]]></Tracking>
                  <Tracking event="firstQuartile"><![CDATA[\(base)/q1?p=[ADPLAYHEAD]]]></Tracking>
                  <Tracking event="midpoint"><![CDATA[\(base)/mid?p=[ADPLAYHEAD]]]></Tracking>
                  <Tracking event="thirdQuartile"><![CDATA[\(base)/q3?p=[ADPLAYHEAD]]]></Tracking>
                  <Tracking event="complete"><![CDATA[\(base)/complete?c=[CONTENTPLAYHEAD]]]></Tracking>
                </TrackingEvents>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(media.ad25.path)]]></MediaFile></MediaFiles>
              </Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let plan = try await AdsLoader().loadPlan(AdsRequest(adTag: vast, contentDuration: media.content.duration))
        #expect(plan.breaks.count == 1 && plan.breaks[0].position == .preroll)
        let request = media.request(plan, output: dir.file("out.mp4"))
        // finish's deadline is on a clock that stands: it waits for every beacon, however slow the machine.
        let clock = ManualClock()
        let sender = BeaconSender(clock: clock)
        let stitcher = try Stitcher(request: request)
        stitcher.observe(sender)
        while try stitcher.step() {}
        try stitcher.finish()
        let summary = await sender.finish(deadline: clock.now + .seconds(10))
        #expect(summary.sent == 6 && summary.failures.isEmpty && summary.dropped == 0)
        let targets = Set(server.requests.map(\.target))
        #expect(targets.contains("/start?pos=1"))
        #expect(targets.contains("/q1?p=00%3A00%3A00.266"), "ad tick 8 (8/30 s) is the first frame at or past a quarter of 1 s")
        #expect(targets.contains("/mid?p=00%3A00%3A00.500"))
        #expect(targets.contains("/complete?c=00%3A00%3A00.000"))
        #expect(server.requests.contains { $0.target.hasPrefix("/imp?cb=") && $0.target.count == "/imp?cb=".count + 8 })
        // The event log holds the same URLs the server received.
        let logged = try EventLog.read(request.eventsFile).filter { $0.type == .beacon }.compactMap(\.columns.url)
        #expect(Set(logged.map { String($0.dropFirst(base.count)) }) == targets)
    }
}

@Suite struct StitchProgressTests {
    /// `--break` ads declare no duration; progress counts their probed length, so that it reaches 100% at the end.
    @Test func theEstimatedLengthCountsQuickBreakAdsByTheirMedia() throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let request = media.request(try media.plan(["pre=ad25.mp4", "5=ad24.mp4,ad60.mp4"]), output: dir.file("out.mp4"))
        let stitcher = try Stitcher(request: request)
        #expect(stitcher.estimatedFrames == 300 + 3 * 30, "10 s of content and three 1 s ads at 30 fps")
        while try stitcher.step() {}
        #expect(stitcher.frameCount == stitcher.estimatedFrames)
    }
}
