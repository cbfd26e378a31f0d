@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// Banner sizes worked out by hand: width = the scene's safe-area width, height = max(50, min(90, ⌊15% × screen
/// height⌋)), bottom edge on the safe area's bottom.
@Suite struct AnchoredAdaptiveBannerTests {
    @Test(arguments: [
        // iPhone 15 portrait: 15% of 852 = 127.8 → 90; bottom inset 34: y = 852 − 34 − 90 = 728.
        ("iphone-15", Orientation.portrait, FoldState.unfolded, PointRect(x: 0, y: 728, width: 393, height: 90)),
        // landscape: width 852 − 2 × 59 = 734; 15% of 393 = 58.95 → 58; y = 393 − 21 − 58 = 314.
        ("iphone-15", .landscape, .unfolded, PointRect(x: 59, y: 314, width: 734, height: 58)),
        // iPad 11": 15% of 1194 and of 834 are over 90; bottom inset 20.
        ("ipad-11", .portrait, .unfolded, PointRect(x: 0, y: 1194 - 20 - 90, width: 834, height: 90)),
        ("ipad-11", .landscape, .unfolded, PointRect(x: 0, y: 834 - 20 - 90, width: 1194, height: 90)),
        // Pixel Fold inner 700x841 dp: 15% of 841 = 126.15 and of 700 = 105 → 90; bottom inset 24.
        ("foldable", .portrait, .unfolded, PointRect(x: 0, y: 841 - 24 - 90, width: 700, height: 90)),
        ("foldable", .landscape, .unfolded, PointRect(x: 0, y: 700 - 24 - 90, width: 841, height: 90)),
        // outer 411x796 dp: 15% of 796 = 119.4 → 90; 15% of 411 = 61.65 → 61.
        ("foldable", .portrait, .folded, PointRect(x: 0, y: 796 - 24 - 90, width: 411, height: 90)),
        ("foldable", .landscape, .folded, PointRect(x: 0, y: 411 - 24 - 61, width: 796, height: 61)),
    ])
    func sizeAndPlaceOnEveryBuiltInDevice(device: String, orientation: Orientation, fold: FoldState, expected: PointRect) throws {
        let screen = ScreenState(device: try Device(parsing: device), orientation: orientation, fold: fold,
                                 scenes: [.init(id: "main", hasBanner: true)])
        #expect(screen.bannerFrame(of: "main") == expected)
    }

    @Test func heightIsAtLeast50AndAtMost90Points() {
        #expect(AnchoredAdaptiveBanner.size(safeAreaWidth: 320, screenHeight: 320).height == 50)  // 48 → 50
        #expect(AnchoredAdaptiveBanner.size(safeAreaWidth: 320, screenHeight: 400).height == 60)
        #expect(AnchoredAdaptiveBanner.size(safeAreaWidth: 320, screenHeight: 601).height == 90)  // 90.15 → 90
    }

    @Test func reloadsOnlyWhenTheWidthChanges() {
        let loaded = PointSize(width: 393, height: 90)
        #expect(AnchoredAdaptiveBanner.change(from: nil, to: loaded) == .reload)
        #expect(AnchoredAdaptiveBanner.change(from: loaded, to: PointSize(width: 734, height: 58)) == .reload)
        #expect(AnchoredAdaptiveBanner.change(from: loaded, to: PointSize(width: 393, height: 58)) == .reanchor)
        #expect(AnchoredAdaptiveBanner.change(from: loaded, to: loaded) == .unchanged)
    }

    @Test func rotatingAPhoneReloadsTheBannerForItsNewWidth() throws {
        var screen = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)])
        #expect(screen.loadBanners() == [.bannerNeedsReload(scene: "main", size: PointSize(width: 393, height: 90))])
        #expect(screen.loadBanners().isEmpty)
        let events = try screen.apply(.rotate(.landscape))
        #expect(events == [
            .willTransition(scene: "main", to: PointSize(width: 852, height: 393)),
            .didUpdateCoordinateSpace(SceneLayout(id: "main", frame: PointRect(x: 0, y: 0, width: 852, height: 393),
                                                  safeArea: EdgeInsets(top: 0, left: 59, bottom: 21, right: 59))),
            .bannerNeedsReload(scene: "main", size: PointSize(width: 734, height: 58)),
        ])
    }

    @Test func aHeightOnlyChangeReanchorsWithoutARequest() throws {
        // A 300x300 window on a 400x600 custom screen keeps its width when the device turns; the screen height
        // goes from 600 (banner 90) to 400 (banner 60).
        var screen = ScreenState(device: try Device(parsing: "400x600"), scenes: [.init(id: "main", hasBanner: true)],
                                 arrangement: .free([.init(scene: "main", frame: PointRect(x: 0, y: 0, width: 300, height: 300))]))
        _ = screen.loadBanners()
        let events = try screen.apply(.rotate(.landscape))
        #expect(events == [.bannerReanchored(scene: "main", frame: PointRect(x: 0, y: 240, width: 300, height: 60))])
        #expect(!events.contains { if case .bannerNeedsReload = $0 { true } else { false } })
        #expect(screen.scenes[0].bannerLoadedSize == PointSize(width: 300, height: 60))
    }

    @Test func splitScenesOnAnIPadReloadTheirBannersWhenTheyTurn() throws {
        var screen = ScreenState(device: .iPad11, scenes: [.init(id: "main", hasBanner: true), .init(id: "side")])
        #expect(screen.loadBanners() == [.bannerNeedsReload(scene: "main", size: PointSize(width: 412, height: 90))])
        let events = try screen.apply(.rotate(.landscape))
        #expect(events.last == .bannerNeedsReload(scene: "main", size: PointSize(width: 592, height: 90)))
        #expect(events.filter { if case .willTransition = $0 { true } else { false } }.count == 2)
    }
}
