@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// Full-screen ads loaded for their scene, checked before they present and reloaded when they no longer fit.
@Suite struct FullScreenLoadingTests {
    /// An iPad in portrait, "side" leading a Split View 1/2 (412 | 412 pt) beside "main".
    static func ipad(_ commands: [(Int64, ScreenCommand)]) -> ScreenTimeline {
        ScreenTimeline(initial: ScreenState(device: .iPad11, scenes: [.init(id: "side"), .init(id: "main")]),
                       commands: commands.map { (MediaTime(seconds: $0.0), $0.1) })
    }

    static func at(_ events: [ScreenAdEvent], _ seconds: Int64) -> [SessionEventType] {
        events.filter { $0.time == MediaTime(seconds: seconds) }.map(\.type)
    }

    @Test func anInterstitialTooLargeAfterASplitToOneThirdIsReloadedThenPresented() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        try ads.serveImage("interstitial", PointSize(width: 320, height: 1194), color: "green")
        let placement = FullScreenPlacement(scene: "side", source: .image(AdRequestTemplate(ads.url("/interstitial/[WIDTH]x[HEIGHT].png"))))
        let timeline = Self.ipad([(2, .split(.oneThird)), (3, .presentInterstitial("side")), (5, .dismiss("side"))])
        let driver = try ScreenAdDriver(timeline: timeline, fullScreenAds: [placement], testMode: true)
        let events = await driver.run(with: ScreenAdLoader())

        #expect(ads.requestedSizes("interstitial") == ["412x1194", "320x1194"])
        #expect(driver.requests.map(\.reason) == [nil, .adTooLargeForWindow])
        #expect(Self.at(events, 0) == [.adDidLoad])
        #expect(Self.at(events, 2) == [.log, .adDidLoad])
        let tooLarge = events.first { $0.type == .log }
        #expect(tooLarge?.columns.reason == .adTooLargeForWindow)
        #expect(tooLarge?.columns.message == "interstitial for scene \"side\": scene \"side\": the ad's content (412x1194 pt) is larger than the window (320x1194 pt); reloading")
        #expect(Self.at(events, 3) == [.adWillPresentFullScreenContent, .contentPauseRequested, .adDidRecordImpression])
        #expect(Self.at(events, 5) == [.adWillDismissFullScreenContent, .adDidDismissFullScreenContent, .contentResumeRequested])
        #expect(events.allSatisfy { $0.scene == "side" })
    }

    @Test func withoutASceneTestModeFailsTheRequestAndProductionFailsToPresentInASmallerWindow() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 834, height: 1194))
        let placement = FullScreenPlacement(scene: "side", source: .image(AdRequestTemplate(ads.url("/interstitial/[WIDTH]x[HEIGHT].png?scene=[SCENE]"))),
                                            setsScene: false)
        let timeline = Self.ipad([(1, .presentInterstitial("side"))])

        let testing = try await ScreenAdDriver(timeline: timeline, fullScreenAds: [placement], testMode: true).run(with: ScreenAdLoader())
        #expect(testing.map(\.type) == [.adDidFailToLoad, .adDidFailToPresentFullScreenContent])
        #expect(testing.map(\.columns.reason) == [.sceneNotSet, .adNotLoaded])
        #expect(testing[0].columns.message == "interstitial for scene \"side\" request: invalid request, the window scene must be set in an app that supports multiple scenes")
        #expect(ads.server.requests.isEmpty)

        let production = try await ScreenAdDriver(timeline: timeline, fullScreenAds: [placement]).run(with: ScreenAdLoader())
        #expect(ads.server.requests.map(\.target) == ["/interstitial/834x1194.png?scene=-1"])
        #expect(production.map(\.type) == [.adDidLoad, .adDidFailToPresentFullScreenContent])
        #expect(production[1].columns.reason == .adTooLargeForWindow)
        #expect(production[1].columns.message == "interstitial for scene \"side\": scene \"side\": the ad's content (834x1194 pt) is larger than the window (412x1194 pt)")
    }

    @Test func aVideoInterstitialFromVASTRecordsItsImpressionAndATapOnItRecordsAClick() async throws {
        let ads = try SizedCreativeServer()
        ads.server.route("/vast", .xml("""
            <VAST version="4.2"><Ad><InLine><AdSystem>t</AdSystem><AdTitle>i</AdTitle>
            <Impression><![CDATA[\(ads.url("/imp"))]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[file:///etc/passwd]]></MediaFile>
            <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[ad.mp4]]></MediaFile>
            </MediaFiles><VideoClicks><ClickThrough><![CDATA[https://advertiser.example/]]></ClickThrough>
            <ClickTracking><![CDATA[\(ads.url("/click"))]]></ClickTracking></VideoClicks></Linear></Creative></Creatives>
            </InLine></Ad></VAST>
            """))
        let placement = FullScreenPlacement(scene: "main", source: .vast(AdRequestTemplate(ads.url("/vast?size=[WIDTH]x[HEIGHT]"))))
        // "main" trails the 1/2 split: 412 pt from x 422 → output pixels 422…834 at scale 1.
        let timeline = Self.ipad([(1, .presentInterstitial("main")), (2, .tap(x: 600, y: 600)), (3, .dismiss("main"))])
        let events = try await ScreenAdDriver(timeline: timeline, fullScreenAds: [placement]).run(with: ScreenAdLoader())

        #expect(ads.server.requests.map(\.target) == ["/vast?size=412x1194"])
        let loadedAd = try #require(events.first)
        #expect(loadedAd.type == .adDidLoad)
        // The local file a remote document names is refused; the relative MediaFile resolves against the document.
        #expect(loadedAd.columns.message == "interstitial 412x1194 pt: video \(ads.url("/ad.mp4"))")
        #expect(Self.at(events, 1) == [.adWillPresentFullScreenContent, .contentPauseRequested, .adDidRecordImpression, .beacon])
        #expect(Self.at(events, 2) == [.adDidRecordClick, .beacon])
        #expect(events.filter { $0.type == .beacon }.map(\.columns.url) == [ads.url("/imp"), ads.url("/click")])
        #expect(Self.at(events, 3) == [.adWillDismissFullScreenContent, .adDidDismissFullScreenContent, .contentResumeRequested])
    }

    @Test func aFoldAndARotationCheckTheLoadedAdAgainAndReloadOnlyWhenItNoLongerFits() async throws {
        let ads = try SizedCreativeServer()
        for size in [(700, 841), (411, 796), (852, 393)] { try ads.serveImage("i", PointSize(width: size.0, height: size.1)) }
        let template = AdRequestTemplate(ads.url("/i/[WIDTH]x[HEIGHT].png"))
        let foldable = ScreenTimeline(initial: ScreenState(device: .foldable, scenes: [.init(id: "main")]),
                                      commands: [(MediaTime(seconds: 1), .fold), (MediaTime(seconds: 2), .unfold),
                                                 (MediaTime(seconds: 3), .presentInterstitial("main"))])
        let events = try await ScreenAdDriver(timeline: foldable, fullScreenAds: [FullScreenPlacement(scene: "main", source: .image(template))])
            .run(with: ScreenAdLoader())
        // Folded, the 700x841 ad is larger than the outer display's 411x796 window: reloaded. Unfolded again, the
        // smaller ad still fits: no request, and it presents.
        #expect(ads.requestedSizes("i") == ["700x841", "411x796"])
        #expect(Self.at(events, 1) == [.log, .adDidLoad])
        #expect(Self.at(events, 2).isEmpty)
        #expect(Self.at(events, 3) == [.adWillPresentFullScreenContent, .contentPauseRequested, .adDidRecordImpression])

        let phone = ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main")]),
                                   commands: [(MediaTime(seconds: 1), .rotate(.landscape))])
        let rotated = try await ScreenAdDriver(timeline: phone, fullScreenAds: [FullScreenPlacement(scene: "main", kind: .appOpen, source: .image(template))])
            .run(with: ScreenAdLoader())
        #expect(Self.at(rotated, 1) == [.log, .adDidLoad])
        #expect(rotated[1].columns.message == "appOpen for scene \"main\": scene \"main\": the ad's content (393x852 pt) is larger than the window (852x393 pt); reloading")
        #expect(rotated[2].columns.message?.hasPrefix("appOpen 852x393 pt: image 852x393 png") == true)
    }

    @Test func theEventsAreWrittenWithTheirGoogleMobileAdsNamesAndReadBack() throws {
        let event = ScreenAdEvent(time: MediaTime(seconds: Rational(5, 2)), scene: "side", .adDidFailToPresentFullScreenContent,
                                  reason: .adTooLargeForWindow, message: "too large")
        let line = event.sessionEvent(frame: 75, contentTime: 1.5).jsonLine
        #expect(line == #"{"type":"ad:didFailToPresentFullScreenContentWithError","time":2.5,"frame":75,"contentTime":1.5,"reason":"adTooLargeForWindow","message":"too large","scene":"side"}"#)
        let back = try EventLogReader.decode(Data((line + "\n").utf8), path: "events.jsonl")
        #expect(back == [event.sessionEvent(frame: 75, contentTime: 1.5)])
        #expect(SessionEventType.bannerViewDidFailToReceiveAd.rawValue == "bannerView:didFailToReceiveAdWithError")
    }

    @Test func theScriptsScreenCommandsDriveTheAdsAndItsOtherCommandsAreIgnored() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("i", PointSize(width: 412, height: 1194))
        try ads.serveImage("i", PointSize(width: 504, height: 1194))
        // 2/3 gives "side" 504 pt: larger, so the 412 pt ad still fits and is not reloaded.
        let script = try SessionScript(parsing: "pip on@1; split 2/3@2; present interstitial side@2.5; pause@3; dismiss side@4")
        let timeline = ScreenTimeline(initial: ScreenState(device: .iPad11, scenes: [.init(id: "side"), .init(id: "main")]), script: script)
        let driver = try ScreenAdDriver(timeline: timeline, fullScreenAds: [
            FullScreenPlacement(scene: "side", source: .image(AdRequestTemplate(ads.url("/i/[WIDTH]x[HEIGHT].png"))))])
        let events = await driver.run(with: ScreenAdLoader())
        #expect(ads.requestedSizes("i") == ["412x1194"])
        #expect(events.map(\.type) == [.adDidLoad, .adWillPresentFullScreenContent, .contentPauseRequested, .adDidRecordImpression,
                                        .adWillDismissFullScreenContent, .adDidDismissFullScreenContent, .contentResumeRequested])
        #expect(events[1].time == MediaTime(seconds: Rational(5, 2)))
        #expect(events[1].columns.message == "interstitial 412x1194 pt in 504x1194 pt")
    }
}
