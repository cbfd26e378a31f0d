@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

@Suite struct FullScreenAdTests {
    /// An iPad in landscape with the interstitial's scene leading a Split View 1/2: 592x834 pt (HIG).
    static func ipad() -> ScreenState {
        ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "side"), .init(id: "main")])
    }

    @Test func anInterstitialLoadedAtOneHalfNoLongerFitsAtOneThirdUntilItIsReloaded() throws {
        var screen = Self.ipad()
        let request = FullScreenAd.Request(kind: .interstitial, scene: "side")
        let loaded = try FullScreenAd.fill(request, on: screen, testMode: true)
        #expect(loaded == FullScreenAd.Fill(scene: "side", contentSize: PointSize(width: 592, height: 834)))

        _ = try screen.apply(.split(.oneThird))
        let window = try #require(screen.layout(of: "side"))
        #expect(window.frame.size == PointSize(width: 375, height: 834))
        let failure = FullScreenAd.Failure.adTooLargeForWindow(scene: "side", ad: PointSize(width: 592, height: 834),
                                                               window: PointSize(width: 375, height: 834))
        #expect(throws: failure) { try FullScreenAd.canPresent(adSize: loaded.contentSize, in: window) }
        #expect(failure.reason == .adTooLargeForWindow)
        #expect(failure.description == "scene \"side\": the ad's content (592x834 pt) is larger than the window (375x834 pt)")

        let reloaded = try FullScreenAd.fill(request, on: screen, testMode: true)
        #expect(reloaded.contentSize == PointSize(width: 375, height: 834))
        try FullScreenAd.canPresent(adSize: reloaded.contentSize, in: window)
        #expect(try screen.apply(.presentInterstitial("side")) == [.presented(scene: "side", .interstitial)])
        // It covers its scene's window: 0…375 pt → 0…376 px at scale 1.
        #expect(screen.layers().contains(ScreenLayer(scene: "side", kind: .fullscreen, rect: PixelRect(x: 0, y: 0, width: 376, height: 834))))
        #expect(try screen.apply(.dismiss("side")) == [.dismissed(scene: "side", .interstitial)])
        #expect(!screen.layers().contains { $0.kind == .fullscreen })
    }

    @Test func aRequestWithoutItsSceneFailsInTestModeOnAMultiSceneDevice() throws {
        let request = FullScreenAd.Request(kind: .interstitial, scene: nil)
        #expect(throws: FullScreenAd.Failure.sceneNotSet(.interstitial)) {
            try FullScreenAd.fill(request, on: Self.ipad(), testMode: true)
        }
        #expect(FullScreenAd.Failure.sceneNotSet(.interstitial).reason == .sceneNotSet)
        #expect(FullScreenAd.Failure.sceneNotSet(.rewarded).description
            == "rewarded request: invalid request, the window scene must be set in an app that supports multiple scenes")
        // One scene at a time: nothing to choose between, so the request fills for the screen.
        let phone = ScreenState(device: .iPhone15, scenes: [.init(id: "main")])
        #expect(try FullScreenAd.fill(request, on: phone, testMode: true).contentSize == PointSize(width: 393, height: 852))
    }

    @Test func inProductionItFillsForTheFullScreenAndThenCannotPresentInAHalf() throws {
        let screen = Self.ipad()
        let fill = try FullScreenAd.fill(FullScreenAd.Request(kind: .appOpen, scene: nil), on: screen, testMode: false)
        #expect(fill == FullScreenAd.Fill(scene: nil, contentSize: PointSize(width: 1194, height: 834)))
        let window = try #require(screen.layout(of: "side"))
        #expect(throws: FullScreenAd.Failure.adTooLargeForWindow(scene: "side", ad: PointSize(width: 1194, height: 834),
                                                                window: PointSize(width: 592, height: 834))) {
            try FullScreenAd.canPresent(adSize: fill.contentSize, in: window)
        }
    }

    @Test func aSceneOffScreenCannotBeFilledOrPresentedIn() throws {
        var screen = ScreenState(device: .iPad11, scenes: [.init(id: "main"), .init(id: "side")], arrangement: .fullScreen("main"))
        #expect(throws: FullScreenAd.Failure.sceneNotOnScreen("side")) {
            try FullScreenAd.fill(FullScreenAd.Request(kind: .interstitial, scene: "side"), on: screen, testMode: true)
        }
        #expect(throws: ScreenError.refused(command: "present interstitial side", detail: "scene \"side\" is not on screen")) {
            try screen.apply(.presentInterstitial("side"))
        }
    }
}
