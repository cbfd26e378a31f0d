@testable import AdPlayback
@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// The screen ads of a render as it plays (`ScreenAdPlayback`): live screen commands walk the driver's rules, so a
/// live present, tap and dismiss give the events the script gives; a reload they cause is fetched in the
/// background; a video that fails part-way is dismissed with its error.
@Suite struct ScreenAdPlaybackTests {
    typealias Loading = FullScreenLoadingTests

    static func placement(_ ads: SizedCreativeServer) -> FullScreenPlacement {
        FullScreenPlacement(scene: "side", source: .image(AdRequestTemplate(ads.url("/interstitial/[WIDTH]x[HEIGHT].png"))))
    }

    /// The events as `seconds type`, with their reasons.
    static func lines(_ events: [ScreenAdEvent]) -> [String] {
        events.map { "\($0.time.seconds) \($0.type.rawValue)\($0.columns.reason.map { " \($0.rawValue)" } ?? "")" }
    }

    @Test func liveCommandsGiveTheScriptsEventsWithTheReloadLoggedWhenItArrives() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        let reloaded = try ads.serveImage("interstitial", PointSize(width: 320, height: 1194), color: "green")
        let script: [(Int64, ScreenCommand)] = [(2, .split(.oneThird)), (3, .presentInterstitial("side")), (4, .tap(x: 100, y: 600)),
                                                (5, .dismiss("side"))]
        let batch = try await ScreenAdDriver(timeline: Loading.ipad(script), fullScreenAds: [Self.placement(ads)]).run(with: ScreenAdLoader())

        // The same commands typed live: the run knows only the first load.
        let run = await ScreenAdRun.load(try ScreenAdDriver(timeline: Loading.ipad([]), fullScreenAds: [Self.placement(ads)]),
                                         with: ScreenAdLoader())
        let playback = ScreenAdPlayback(run: run)
        var state = run.driver.timeline.initial
        // The reload's answer is held until the test has seen it still loading.
        let gate = LoopbackHTTPServer.Gate()
        var held = LoopbackHTTPServer.Response.file(URL(fileURLWithPath: reloaded), contentType: "image/png")
        held.gate = gate
        ads.server.route("/interstitial/320x1194.png", held)
        playback.advance(through: MediaTime(seconds: 2))
        playback.screenChanged(try LiveBannerRequestsTests.change(&state, .split(.oneThird), at: 2))
        #expect(playback.isLoading, "fetched in the background: the call returned before the answer")
        gate.open()
        // The 60 s only keeps a broken run from hanging: the released load ends long before on any machine.
        let deadline = ContinuousClock.now + .seconds(60)
        while playback.isLoading && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!playback.isLoading, "the reload ended once its answer was let through")
        let arrivals = playback.takeArrivals()
        #expect(arrivals.map(\.request.reason) == [.adTooLargeForWindow])
        for arrival in arrivals { playback.take(arrival, video: nil, at: MediaTime(seconds: Rational(5, 2))) }
        for (seconds, command) in script.dropFirst() {
            playback.advance(through: MediaTime(seconds: seconds))
            playback.screenChanged(try LiveBannerRequestsTests.change(&state, command, at: seconds))
        }
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 4)) == FullScreenPresentation(
            scene: "side", from: MediaTime(seconds: 3), until: MediaTime(seconds: 5), request: 1))
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 5)) == nil)

        let live = Self.lines(playback.takeEvents())
        #expect(ads.requestedSizes("interstitial") == ["412x1194", "320x1194", "412x1194", "320x1194"])
        // Only the reload's answer moves: logged when it arrived (2.5 s), not at its request (2 s).
        #expect(live == Self.lines(batch).map { $0.hasPrefix("2 adDidLoad") ? "5/2" + $0.dropFirst(1) : $0 })
        #expect(live.contains("4 adDidRecordClick"))
    }

    /// Google Mobile Ads: a present that fails (`ad:didFailToPresentFullScreenContentWithError`) shows nothing, so
    /// the scene is not left "presenting": the next present is heard and a dismiss of the ad never shown refused.
    @Test func aFailedPresentLeavesItsSceneUncoveredSoTheNextPresentIsHeardAndADismissRefused() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        // The ad presents at 1 and is used up: the presents at 3 and 4 fail, and nothing is left for the dismiss at 5.
        let script: [(Int64, ScreenCommand)] = [(1, .presentInterstitial("side")), (2, .dismiss("side")), (3, .presentInterstitial("side")),
                                                (4, .presentInterstitial("side")), (5, .dismiss("side"))]
        let run = await ScreenAdRun.load(try ScreenAdDriver(timeline: Loading.ipad(script), fullScreenAds: [Self.placement(ads)]),
                                         with: ScreenAdLoader())
        let failed = run.events.filter { $0.type == .adDidFailToPresentFullScreenContent }
        #expect(failed.map(\.time) == [MediaTime(seconds: 3), MediaTime(seconds: 4)])
        #expect(failed.allSatisfy { $0.columns.reason == .adNotLoaded })
        #expect(run.presentations.map(\.from) == [MediaTime(seconds: 1)])
        #expect(run.timeline.changes.map(\.time) == [1, 2, 3, 4].map { MediaTime(seconds: $0) })
        #expect(run.timeline.refusals.map(\.time) == [MediaTime(seconds: 5)])
        #expect(run.timeline.state(at: MediaTime(seconds: 4)).scene("side")?.presentation == nil)
        // Played frame by frame, the same failures.
        let playback = ScreenAdPlayback(run: run)
        for seconds in 1...6 { playback.advance(through: MediaTime(seconds: Int64(seconds))) }
        #expect(Self.lines(playback.takeEvents()).filter { $0.contains("FailToPresent") }
            == ["3 ad:didFailToPresentFullScreenContentWithError adNotLoaded", "4 ad:didFailToPresentFullScreenContentWithError adNotLoaded"])

        // The session's screen agrees: it applies the same commands at their frames.
        let screen = DeviceScreen(initial: run.driver.timeline.initial, script: SessionScript(), live: false)
        screen.ads = ScreenAdPlayback(run: run)
        var events: [SessionEvent.ScreenEventKind] = []
        for (seconds, command) in script.prefix(4) {
            // As the director does before each frame is decided: what covers the scenes then is walked first.
            screen.ads?.advance(through: MediaTime(seconds: seconds))
            events += try screen.apply(command, at: MediaTime(seconds: seconds), live: false)
        }
        #expect(screen.state.scene("side")?.presentation == nil)
        #expect(events.filter { $0 == .presented(scene: "side", .interstitial) }.count == 1,
                "only the present that showed is logged as one: \(events)")
        #expect(throws: ScreenRefusal("screen command \"dismiss side\": scene \"side\" presents nothing")) {
            try screen.apply(.dismiss("side"), at: MediaTime(seconds: 5), live: false)
        }
        // A live present is settled the same way.
        let live = DeviceScreen(initial: run.driver.timeline.initial, script: SessionScript(), live: true)
        live.ads = ScreenAdPlayback(run: await ScreenAdRun.load(try ScreenAdDriver(timeline: Loading.ipad([]), fullScreenAds: []),
                                                                 with: ScreenAdLoader()))
        _ = try live.apply(.presentInterstitial("side"), at: MediaTime(seconds: 1), live: true)
        #expect(live.state.scene("side")?.presentation == nil)
        _ = try live.apply(.presentInterstitial("side"), at: MediaTime(seconds: 2), live: true)
    }

    /// A presented video that fails part-way leaves its scene uncovered, as a failed present does: the script's next
    /// present there is heard (the ad was shown once: `adNotLoaded`) and a dismiss refused, by the screen ads and by
    /// the session's screen alike. Before, both still counted the scene as presenting.
    @Test func aVideoThatFailsPartWayLeavesItsSceneUncoveredSoTheNextPresentIsHeardAndADismissRefused() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        let script: [(Int64, ScreenCommand)] = [(1, .presentInterstitial("side")), (3, .presentInterstitial("side")), (4, .dismiss("side"))]
        let run = await ScreenAdRun.load(try ScreenAdDriver(timeline: Loading.ipad(script), fullScreenAds: [Self.placement(ads)]),
                                         with: ScreenAdLoader())
        let playback = ScreenAdPlayback(run: run)
        let screen = DeviceScreen(initial: run.driver.timeline.initial, script: SessionScript(), live: false)
        screen.ads = playback
        screen.recordsNativeCommands = true
        playback.advance(through: MediaTime(seconds: 1))
        _ = try screen.apply(.presentInterstitial("side"), at: MediaTime(seconds: 1), live: false)
        #expect(screen.state.scene("side")?.presentation == .interstitial)
        playback.videoFailed(in: "side", at: MediaTime(seconds: 2), error: .mediaUnavailable(source: "ad.mp4", detail: "decoding failed"))
        screen.videoFailed(in: "side", at: MediaTime(seconds: 2))
        #expect(screen.state.scene("side")?.presentation == nil)
        // `play`'s native placements see the scene uncovered from the failure on, as after a dismiss.
        let followed = try #require(screen.takeNativeCommands().last?.change)
        #expect(followed.time == MediaTime(seconds: 2) && followed.state.scene("side")?.presentation == nil)
        playback.advance(through: MediaTime(seconds: 3))
        _ = try screen.apply(.presentInterstitial("side"), at: MediaTime(seconds: 3), live: false)
        #expect(screen.state.scene("side")?.presentation == nil, "the present failed: nothing was left to show")
        playback.advance(through: MediaTime(seconds: 4))
        #expect(throws: ScreenRefusal("screen command \"dismiss side\": scene \"side\" presents nothing")) {
            try screen.apply(.dismiss("side"), at: MediaTime(seconds: 4), live: false)
        }
        playback.advance(through: MediaTime(seconds: 5))
        let lines = Self.lines(playback.takeEvents())
        #expect(lines.filter { $0.contains("FailToPresent") } == ["3 ad:didFailToPresentFullScreenContentWithError adNotLoaded"], "\(lines)")
        #expect(lines.filter { $0.contains("Dismiss") } == ["2 adWillDismissFullScreenContent mediaUnavailable",
                                                             "2 adDidDismissFullScreenContent mediaUnavailable"], "\(lines)")
    }

    @Test func onlyAScenesPlayerIsAskedToPauseAndResumeForItsFullScreenAd() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        var driver = try ScreenAdDriver(timeline: Loading.ipad([(1, .presentInterstitial("side")), (4, .dismiss("side"))]),
                                        fullScreenAds: [Self.placement(ads)])
        // The player is in "main": "side" has no content to pause.
        driver.playerScenes = ["main"]
        let withoutPlayer = Self.lines(await driver.run(with: ScreenAdLoader()))
        #expect(withoutPlayer.contains("1 adWillPresentFullScreenContent") && withoutPlayer.contains("4 adDidDismissFullScreenContent"))
        #expect(!withoutPlayer.contains { $0.contains("CONTENT_") }, "\(withoutPlayer)")
        driver.playerScenes = ["side", "main"]
        let withPlayer = Self.lines(await driver.run(with: ScreenAdLoader()))
        #expect(withPlayer.contains("1 CONTENT_PAUSE_REQUESTED") && withPlayer.contains("4 CONTENT_RESUME_REQUESTED"), "\(withPlayer)")
    }

    @Test func aPresentedVideoThatFailsIsDismissedWithItsErrorAndItsLaterEventsNeverFire() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        let run = await ScreenAdRun.load(try ScreenAdDriver(timeline: Loading.ipad([(1, .presentInterstitial("side")), (4, .dismiss("side"))]),
                                                            fullScreenAds: [Self.placement(ads)]), with: ScreenAdLoader())
        let playback = ScreenAdPlayback(run: run)
        playback.advance(through: MediaTime(seconds: 1))
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 2))?.from == MediaTime(seconds: 1))
        playback.videoFailed(in: "side", at: MediaTime(seconds: 2), error: .mediaUnavailable(source: "ad.mp4", detail: "decoding failed"))
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 2)) == nil)
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 5)) == nil)
        let events = playback.takeEvents().filter { $0.time >= MediaTime(seconds: 2) }
        #expect(Self.lines(events) == ["2 adWillDismissFullScreenContent mediaUnavailable", "2 adDidDismissFullScreenContent mediaUnavailable",
                                       "2 CONTENT_RESUME_REQUESTED"])
        #expect(events.first?.columns.message == "ad.mp4: decoding failed")
    }

    /// Asking what covers a scene is a pure query (issue 37): only `advance(through:)`, which the director calls
    /// before each frame is decided, walks the script. Before, the question walked it and started fetches.
    @Test func askingWhatCoversASceneWalksNothing() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        let run = await ScreenAdRun.load(try ScreenAdDriver(timeline: Loading.ipad([(1, .presentInterstitial("side"))]),
                                                            fullScreenAds: [Self.placement(ads)]), with: ScreenAdLoader())
        let playback = ScreenAdPlayback(run: run)
        _ = playback.takeEvents()
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 2)) == nil)
        #expect(playback.takeEvents().isEmpty, "the question walked the present")
        playback.advance(through: MediaTime(seconds: 1))
        #expect(playback.presentation(of: "side", at: MediaTime(seconds: 2))?.from == MediaTime(seconds: 1))
        #expect(Self.lines(playback.takeEvents()).contains("1 adWillPresentFullScreenContent"))
    }
}
