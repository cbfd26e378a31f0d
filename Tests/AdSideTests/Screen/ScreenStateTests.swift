@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

@Suite struct ScreenStateTests {
    @Test func foldingShowsTheOuterDisplayInsideTheInnerCanvasAndUnfoldingComesBack() throws {
        var screen = ScreenState(device: .foldable, scenes: [.init(id: "main", hasBanner: true)])
        _ = screen.loadBanners()
        // Scale 3/2. Inner 700x841 dp → 1050 x 1261.5 → 1262 px; outer 411x796 → 616.5 → 616 (nearest even) x 1194.
        #expect(screen.canvasSize == PixelSize(width: 1050, height: 1262))
        #expect(screen.displayRect == PixelRect(x: 0, y: 0, width: 1050, height: 1262))

        let folded = try screen.apply(.fold)
        #expect(folded == [
            .willTransition(scene: "main", to: PointSize(width: 411, height: 796)),
            .didUpdateCoordinateSpace(SceneLayout(id: "main", frame: PointRect(x: 0, y: 0, width: 411, height: 796),
                                                  safeArea: EdgeInsets(top: 24, bottom: 24))),
            .bannerNeedsReload(scene: "main", size: PointSize(width: 411, height: 90)),
        ])
        #expect(screen.canvasSize == PixelSize(width: 1050, height: 1262))
        // Centred on even pixels: (1050 − 616) / 2 = 217 → 216; (1262 − 1194) / 2 = 34.
        #expect(screen.displayRect == PixelRect(x: 216, y: 34, width: 616, height: 1194))
        // Banner at y 796 − 24 − 90 = 682 pt: 1023 → 1024 px; bottom 772 pt = 1158 px.
        #expect(screen.layers() == [
            ScreenLayer(scene: "main", kind: .content, rect: PixelRect(x: 216, y: 34, width: 616, height: 1194)),
            ScreenLayer(scene: "main", kind: .banner, rect: PixelRect(x: 216, y: 34 + 1024, width: 616, height: 1158 - 1024)),
        ])
        #expect(throws: ScreenError.refused(command: "fold", detail: "the device is already folded")) { try screen.apply(.fold) }

        let unfolded = try screen.apply(.unfold)
        #expect(unfolded.first == .willTransition(scene: "main", to: PointSize(width: 700, height: 841)))
        #expect(unfolded.last == .bannerNeedsReload(scene: "main", size: PointSize(width: 700, height: 90)))
        #expect(screen.displayRect == PixelRect(x: 0, y: 0, width: 1050, height: 1262))
    }

    @Test func aPhoneDoesNotFoldOrSplit() {
        var screen = ScreenState(device: .iPhone15, scenes: [.init(id: "main")])
        #expect(throws: ScreenError.refused(command: "fold", detail: "iphone-15 does not fold")) { try screen.apply(.fold) }
        #expect(throws: ScreenError.refused(command: "split 1/2", detail: "iphone-15 shows one scene at a time")) {
            try screen.apply(.split(.half))
        }
        #expect(throws: ScreenError.refused(command: "rotate portrait", detail: "the device is already portrait")) {
            try screen.apply(.rotate(.portrait))
        }
    }

    /// iPad landscape at scale 1, Split View 1/2: "main" 0…592 px with a banner at 724…814 px (834 − 20 − 90),
    /// divider 592…602, "side" 602…1194.
    @Test func aTapHitsTheTopLayerThere() throws {
        var screen = ScreenState(device: .iPad11, orientation: .landscape,
                                 scenes: [.init(id: "main", hasBanner: true), .init(id: "side")])
        _ = screen.loadBanners()
        let banner = ScreenLayer(scene: "main", kind: .banner, rect: PixelRect(x: 0, y: 724, width: 592, height: 90))
        #expect(screen.layers() == [
            ScreenLayer(scene: "main", kind: .content, rect: PixelRect(x: 0, y: 0, width: 592, height: 834)),
            banner,
            ScreenLayer(scene: "side", kind: .content, rect: PixelRect(x: 602, y: 0, width: 592, height: 834)),
            ScreenLayer(scene: "side", kind: .divider, rect: PixelRect(x: 592, y: 0, width: 10, height: 834)),
        ])

        #expect(try screen.apply(.tap(x: 100, y: 750)) == [.tapped(x: 100, y: 750, layer: banner),
                                                             .presented(scene: "main", .bannerLanding)])
        let landing = ScreenLayer(scene: "main", kind: .overlay, rect: PixelRect(x: 0, y: 0, width: 592, height: 834))
        #expect(try screen.apply(.tap(x: 100, y: 750)) == [.tapped(x: 100, y: 750, layer: landing)])
        #expect(try screen.apply(.tap(x: 596, y: 400)) == [.tapped(x: 596, y: 400, layer: nil)])

        let side = ScreenLayer(scene: "side", kind: .content, rect: PixelRect(x: 602, y: 0, width: 592, height: 834))
        #expect(try screen.apply(.tap(x: 602, y: 0)) == [
            .tapped(x: 602, y: 0, layer: side),
            .activationChanged(scene: "main", to: .foregroundInactive),
            .activationChanged(scene: "side", to: .foregroundActive),
        ])
        #expect(throws: ScreenError.refused(command: "tap 1194,0", detail: "(1194, 0) is outside the device's 1194x834 points")) {
            try screen.apply(.tap(x: 1194, y: 0))
        }
        #expect(try screen.apply(.dismiss("main")) == [.dismissed(scene: "main", .bannerLanding)])
        #expect(throws: ScreenError.refused(command: "dismiss main", detail: "scene \"main\" presents nothing")) {
            try screen.apply(.dismiss("main"))
        }
    }

    @Test func activatingASceneOffScreenBringsItFullScreenAndSendsTheOtherToTheBackground() throws {
        var screen = ScreenState(device: .iPad11, scenes: [.init(id: "main"), .init(id: "side")], arrangement: .fullScreen("main"))
        #expect(screen.activationState(of: "side") == .background)
        let events = try screen.apply(.activate("side"))
        #expect(events == [
            .didUpdateCoordinateSpace(SceneLayout(id: "side", frame: PointRect(x: 0, y: 0, width: 834, height: 1194),
                                                  safeArea: EdgeInsets(top: 24, bottom: 20))),
            .activationChanged(scene: "main", to: .background),
            .activationChanged(scene: "side", to: .foregroundActive),
        ])
        #expect(throws: ScreenError.unknownScene(command: "activate other", scene: "other")) { try screen.apply(.activate("other")) }
    }

    @Test func aBannerIsRequestedWhenItsSceneComesOnScreen() throws {
        var screen = ScreenState(device: .iPad11, scenes: [.init(id: "main"), .init(id: "side", hasBanner: true)],
                                 arrangement: .fullScreen("main"))
        #expect(screen.loadBanners().isEmpty)
        // Split View 1/3 in portrait: "side" trails at 330 pt, 504 wide.
        let events = try screen.apply(.split(.oneThird))
        #expect(events.last == .bannerNeedsReload(scene: "side", size: PointSize(width: 504, height: 90)))
    }

    @Test func whenTheActiveSceneLeavesTheScreenTheTopSceneOnScreenBecomesActive() throws {
        let frame = PointRect(x: 0, y: 0, width: 300, height: 300)
        var screen = ScreenState(device: .iPad11, scenes: [.init(id: "a"), .init(id: "b"), .init(id: "c")],
                                 arrangement: .free([.init(scene: "a", frame: frame), .init(scene: "b", frame: frame),
                                                     .init(scene: "c", frame: frame)]))
        _ = try screen.apply(.activate("c"))
        let events = try screen.apply(.split(.half))
        #expect(screen.activeScene == "b")
        #expect(events.suffix(2) == [.activationChanged(scene: "b", to: .foregroundActive),
                                     .activationChanged(scene: "c", to: .background)])
    }

    @Test func splitThenResizeGivesFreeFramesThatStayOnTheDisplay() throws {
        var screen = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "main"), .init(id: "side")],
                                 arrangement: .fullScreen("main"))
        let split = try screen.apply(.split(.twoThirds))
        #expect(split.contains(.willTransition(scene: "main", to: PointSize(width: 809, height: 834))))
        #expect(split.contains(.activationChanged(scene: "side", to: .foregroundInactive)))
        // "side" at 819 pt grows to 500 wide: it moves left to 1194 − 500 = 694 to stay on the display.
        let resized = try screen.apply(.resize("side", PointSize(width: 500, height: 600)))
        #expect(resized == [
            .willTransition(scene: "side", to: PointSize(width: 500, height: 600)),
            .didUpdateCoordinateSpace(SceneLayout(id: "side", frame: PointRect(x: 694, y: 0, width: 500, height: 600),
                                                  safeArea: EdgeInsets(top: 24))),
        ])
        #expect(throws: ScreenError.refused(command: "resize side 1200x600", detail: "1200x600 is larger than the screen, 1194x834")) {
            try screen.apply(.resize("side", PointSize(width: 1200, height: 600)))
        }
    }

    @Test func theTimelineGivesTheStateAtEachTimeAndReportsRefusals() throws {
        let script = try SessionScript(parsing: "split 1/3@2; rotate portrait@4; pip on@5; fold@6")
        let initial = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "side"), .init(id: "main")])
        let timeline = ScreenTimeline(initial: initial, script: script)
        func sideWidth(_ t: Int64) -> Int? { timeline.state(at: MediaTime(seconds: Rational(t))).layout(of: "side")?.frame.width }
        #expect([sideWidth(0), sideWidth(2), sideWidth(3), sideWidth(4)] == [592, 375, 375, 320])
        #expect(timeline.layers(at: MediaTime(seconds: Rational(4))).map(\.rect.width) == [320, 504, 10], "the two scenes and the divider")
        #expect(timeline.changes.map(\.command) == [.split(.oneThird), .rotate(.portrait)])
        #expect(timeline.refusals.map(\.error) == [.refused(command: "fold", detail: "ipad-11 does not fold")])
    }
}
