@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// Anchored adaptive banners loaded from a loopback ad server over a screen's timeline (`ScreenAdDriver`).
@Suite struct BannerLoadingTests {
    static func phone(_ commands: [(Int64, ScreenCommand)]) -> ScreenTimeline {
        ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)]),
                       commands: commands.map { (MediaTime(seconds: $0.0), $0.1) })
    }

    static func types(_ events: [ScreenAdEvent], at seconds: Int64) -> [SessionEventType] {
        events.filter { $0.time == MediaTime(seconds: seconds) }.map(\.type)
    }

    @Test func aRotationRequestsAgainOnlyWhenTheWidthChangesWithTheSizeInTheURL() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("banner", PointSize(width: 393, height: 90))
        try ads.serveImage("banner", PointSize(width: 734, height: 58))
        let template = AdRequestTemplate(ads.url("/banner/[WIDTH]x[HEIGHT].png?scene=[SCENE]&scale=[SCALE]"))
        let driver = try ScreenAdDriver(timeline: Self.phone([(1, .rotate(.landscape)), (2, .rotate(.portrait))]),
                                        banners: [BannerPlacement(scene: "main", source: .image(template))])
        let events = await driver.run(with: ScreenAdLoader())

        #expect(ads.requestedSizes("banner") == ["393x90", "734x58", "393x90"])
        #expect(ads.server.requests.map { $0.target.split(separator: "?").last.map(String.init) }
                    == Array(repeating: "scene=main&scale=1.5", count: 3))
        for second in Int64(0)...2 {
            #expect(Self.types(events, at: second) == [.bannerViewDidReceiveAd, .bannerViewDidRecordImpression])
        }
        // The creative the server answered is the size the request asked for, read from its bytes.
        let received = events.filter { $0.type == .bannerViewDidReceiveAd }.compactMap(\.columns.message)
        #expect(received.map { $0.hasPrefix("734x58 pt: image 734x58 png") } == [false, true, false])
        #expect(received[0].hasPrefix("393x90 pt: image 393x90 png"))
        #expect(events.allSatisfy { $0.scene == "main" })
    }

    @Test func aHeightOnlyChangeReanchorsWithoutARequest() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("banner", PointSize(width: 834, height: 90))
        let timeline = ScreenTimeline(initial: ScreenState(device: .iPad11, scenes: [.init(id: "main", hasBanner: true)]),
                                      commands: [(MediaTime(seconds: 1), .resize("main", PointSize(width: 834, height: 1000)))])
        // The model re-anchors the banner (same width, new place)…
        #expect(timeline.changes[0].events.contains { if case .bannerReanchored = $0 { true } else { false } })
        let driver = try ScreenAdDriver(timeline: timeline, banners: [
            BannerPlacement(scene: "main", source: .image(AdRequestTemplate(ads.url("/banner/[WIDTH]x[HEIGHT].png"))))])
        let events = await driver.run(with: ScreenAdLoader())
        // …and nothing is requested again.
        #expect(driver.requests.count == 1)
        #expect(ads.requestedSizes("banner") == ["834x90"])
        #expect(Self.types(events, at: 1).isEmpty)
    }

    /// A VAST response whose NonLinear StaticResource is the banner image, with impression and click URLs.
    static func nonLinearVAST(image: String, base: String) -> String {
        """
        <VAST version="4.2"><Ad id="b1"><InLine><AdSystem>t</AdSystem><AdTitle>banner</AdTitle>
        <Impression><![CDATA[\(base)/imp?ts=[TIMESTAMP]]]></Impression>
        <Creatives><Creative><NonLinearAds><NonLinear width="393" height="90">
        <StaticResource creativeType="image/png"><![CDATA[\(image)]]></StaticResource>
        <NonLinearClickThrough><![CDATA[https://advertiser.example/landing]]></NonLinearClickThrough>
        <NonLinearClickTracking><![CDATA[\(base)/click?cb=[CACHEBUSTING]]]></NonLinearClickTracking>
        </NonLinear></NonLinearAds></Creative></Creatives></InLine></Ad></VAST>
        """
    }

    @Test func aVASTNonLinearImageBannerRecordsItsImpressionAndATapRecordsTheClick() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("creative", PointSize(width: 393, height: 90), color: "blue")
        ads.server.route("/vast", .xml(Self.nonLinearVAST(image: "creative/393x90.png", base: ads.url(""))))
        // iPhone 15 portrait at 3/2: the banner is 393x90 pt at y 728 pt → 1092…1227 px; a tap is in points.
        let driver = try ScreenAdDriver(timeline: Self.phone([(1, .tap(x: 197, y: 767)), (2, .dismiss("main")), (3, .tap(x: 197, y: 67))]),
                                        banners: [BannerPlacement(scene: "main", source: .vast(AdRequestTemplate(ads.url("/vast?w=[WIDTH]"))))])
        let events = await driver.run(with: ScreenAdLoader())

        #expect(ads.server.requests.map(\.target) == ["/vast?w=393", "/creative/393x90.png"])
        #expect(Self.types(events, at: 0) == [.bannerViewDidReceiveAd, .bannerViewDidRecordImpression, .beacon])
        let impression = try #require(events.first { $0.type == .beacon })
        #expect(impression.columns.event == .impression)
        #expect(impression.columns.url == ads.url("/imp?ts=2000-01-01T00%3A00%3A00.000Z"))
        #expect(Self.types(events, at: 1) == [.bannerViewDidRecordClick, .beacon, .bannerViewWillPresentScreen])
        let click = events.filter { $0.time == MediaTime(seconds: 1) }
        #expect(click[0].columns.url == "https://advertiser.example/landing")
        #expect(click[1].columns.event == .clickTracking)
        #expect(click[1].columns.url?.hasPrefix(ads.url("/click?cb=")) == true && click[1].columns.url?.count == ads.url("/click?cb=").count + 8)
        #expect(Self.types(events, at: 2) == [.bannerViewWillDismissScreen, .bannerViewDidDismissScreen])
        // A tap on the content is no click.
        #expect(Self.types(events, at: 3).isEmpty)
    }

    @Test func aBannerRequestWithoutItsSceneFailsInTestModeOnAMultiSceneApp() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("banner", PointSize(width: 834, height: 90))
        let timeline = ScreenTimeline(initial: ScreenState(device: .iPad11, scenes: [.init(id: "main", hasBanner: true), .init(id: "side")]),
                                      commands: [])
        let placement = BannerPlacement(scene: "main", source: .image(AdRequestTemplate(ads.url("/banner/[WIDTH]x[HEIGHT].png"))),
                                        setsScene: false)
        let testing = try await ScreenAdDriver(timeline: timeline, banners: [placement], testMode: true).run(with: ScreenAdLoader())
        #expect(testing.map(\.type) == [.bannerViewDidFailToReceiveAd])
        #expect(testing.first?.columns.reason == .sceneNotSet)
        #expect(testing.first?.columns.message == "banner in scene \"main\" request: invalid request, the window scene must be set in an app that supports multiple scenes")
        #expect(ads.server.requests.isEmpty)

        // In production it is filled for the whole screen's width, not its Split View half.
        let production = try await ScreenAdDriver(timeline: timeline, banners: [placement]).run(with: ScreenAdLoader())
        #expect(production.map(\.type) == [.bannerViewDidReceiveAd, .bannerViewDidRecordImpression])
        #expect(ads.requestedSizes("banner") == ["834x90"])
    }

    @Test func aPlacementMustNameADeclaredBannerScene() throws {
        let timeline = Self.phone([])
        let source = CreativeSource.image(AdRequestTemplate("banner.png"))
        #expect(throws: ScreenAdError.placement("banner in scene \"side\"", "the screen has no such scene")) {
            try ScreenAdDriver(timeline: timeline, banners: [BannerPlacement(scene: "side", source: source)])
        }
        let bare = ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main")]), commands: [])
        #expect(throws: ScreenAdError.placement("banner in scene \"main\"", "the scene was not declared with a banner")) {
            try ScreenAdDriver(timeline: bare, banners: [BannerPlacement(scene: "main", source: source)])
        }
    }

    @Test func aTapOnABannerThatFailedToLoadRecordsNothing() async throws {
        let ads = try SizedCreativeServer()
        let driver = try ScreenAdDriver(timeline: Self.phone([(1, .tap(x: 197, y: 767)), (2, .dismiss("main"))]),
                                        banners: [BannerPlacement(scene: "main", source: .image(AdRequestTemplate(ads.url("/missing.png"))))])
        let events = await driver.run(with: ScreenAdLoader())
        #expect(events.map(\.type) == [.bannerViewDidFailToReceiveAd])
        #expect(events.first?.columns.message?.contains("404") == true)
    }
}
