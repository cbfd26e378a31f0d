@testable import AdPlayback
@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// The banner requests of live screen changes (`pipctl play`): by the driver's rule, fetched in the background,
/// a newer request for a banner replacing one still running.
@Suite struct LiveBannerRequestsTests {
    /// An iPhone 15 with a banner in "main", loaded as the app starts, and live requests for it from `template`.
    static func live(_ template: String, testMode: Bool = false, setsScene: Bool = true) throws -> (LiveBannerRequests, ScreenState) {
        var state = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)])
        _ = state.loadBanners()
        let driver = try ScreenAdDriver(timeline: ScreenTimeline(initial: state, commands: []),
                                        banners: [BannerPlacement(scene: "main", source: .image(AdRequestTemplate(template)), setsScene: setsScene)],
                                        testMode: testMode)
        return (LiveBannerRequests(driver: driver, loader: ScreenAdLoader()), state)
    }

    /// `command` applied to `state` at `seconds`, as the session records a live command.
    static func change(_ state: inout ScreenState, _ command: ScreenCommand, at seconds: Int64) throws -> ScreenTimeline.Change {
        let events = try state.apply(command)
        return ScreenTimeline.Change(time: MediaTime(seconds: seconds), command: command, events: events, state: state)
    }

    /// Waits until `live` has nothing running, then takes what arrived. The 60 s only keeps a broken run from
    /// hanging: on any machine the loads end long before.
    static func arrivals(_ live: LiveBannerRequests) async throws -> [LiveBannerRequests.Arrival] {
        let deadline = ContinuousClock.now + .seconds(60)
        while live.isLoading && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!live.isLoading, "the live requests ended")
        return live.takeArrivals()
    }

    @Test func aNewerRequestReplacesOneStillRunningAndAHeightOnlyChangeRequestsNothing() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("banner", PointSize(width: 393, height: 90))
        var slow = LoopbackHTTPServer.Response.file(URL(fileURLWithPath: try SizedCreativeServer.image(
            in: ads.directory, "landscape.png", PointSize(width: 734, height: 58))), contentType: "image/png")
        // The landscape answer is held until the test ends: that request is still running, however slow the
        // machine, when the portrait one replaces it.
        let gate = LoopbackHTTPServer.Gate()
        defer { gate.open() }
        slow.gate = gate
        ads.server.route("/banner/734x58.png", slow)
        var (live, state) = try Self.live(ads.url("/banner/[WIDTH]x[HEIGHT].png"))

        live.screenChanged(try Self.change(&state, .rotate(.landscape), at: 1))
        #expect(live.isLoading, "fetched in the background: the call returned before the answer")
        live.screenChanged(try Self.change(&state, .rotate(.portrait), at: 2))
        let arrived = try await Self.arrivals(live)
        #expect(arrived.map { $0.request?.size } == [PointSize(width: 393, height: 90)], "only the newer request's answer")
        #expect(arrived.map { $0.request?.index } == [2], "numbered after the run's request (0) and the replaced one (1)")
        let events = live.events(of: try #require(arrived.first), at: MediaTime(seconds: 2))
        #expect(events.map(\.type) == [.bannerViewDidReceiveAd, .bannerViewDidRecordImpression])

        // A tap changes nothing of the layout: no request.
        live.screenChanged(try Self.change(&state, .tap(x: 7, y: 7), at: 3))
        #expect(!live.isLoading && live.takeArrivals().isEmpty)
    }

    @Test func aRequestWithoutItsSceneFailsAtOnceInTestModeOnAMultiSceneDevice() async throws {
        var state = ScreenState(device: .iPad11, scenes: [.init(id: "main", hasBanner: true)])
        _ = state.loadBanners()
        let driver = try ScreenAdDriver(timeline: ScreenTimeline(initial: state, commands: []),
                                        banners: [BannerPlacement(scene: "main", source: .image(AdRequestTemplate("http://127.0.0.1:9/b.png")), setsScene: false)],
                                        testMode: true)
        let live = LiveBannerRequests(driver: driver, loader: ScreenAdLoader())
        live.screenChanged(try Self.change(&state, .rotate(.landscape), at: 1))
        let arrived = live.takeArrivals()
        #expect(arrived.count == 1 && arrived.first?.request == nil)
        let events = live.events(of: try #require(arrived.first), at: MediaTime(seconds: 1))
        #expect(events.map(\.type) == [.bannerViewDidFailToReceiveAd])
        #expect(events.first?.columns.reason == .sceneNotSet)
    }
}
