@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// On a device the floating window stays inside its scene's safe area (clear of the island and the home
/// indicator) and off the scene's banner.
@Suite struct PictureInPictureSafeAreaTests {
    static func session(device: Device = .iPhone15, orientation: Orientation, banner: BannerLayout?,
                        corner: PictureInPictureSettings.Corner = .bottomRight, script: String = "pip@1") throws -> PlaybackSession {
        var configuration = try testConfiguration(script: script, pip: PictureInPictureSettings(corner: corner))
        let screen = ScreenState(device: device, orientation: orientation, scenes: [.init(id: "main", banner: banner)])
        configuration.canvas = ScreenCanvas(initial: screen, script: configuration.script, live: false).size
        return try PlaybackSession(plan: AdPlan(breaks: []), configuration: configuration,
                                   media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil,
                                   screen: DeviceScreen(initial: screen, script: configuration.script, live: false))
    }

    @Test(arguments: [Orientation.landscape, .portrait], [BannerLayout.below, .overlay, nil])
    func theWindowStaysInsideTheSafeAreaAndAboveTheBanner(orientation: Orientation, banner: BannerLayout?) throws {
        let run = runToEnd(try Self.session(orientation: orientation, banner: banner))
        let decision = run.decisions[15]
        let pip = try #require(decision.pip), screen = try #require(decision.screen)
        let safe = try #require(screen.scenes.first { $0.id == "main" }).safeArea
        #expect(safe.contains(pip), "\(pip) is outside the safe area \(safe)")
        // 16 px from the safe area's right edge, rounded to even away from it.
        #expect(pip.maxX <= safe.maxX - 16 && pip.x % 2 == 0 && pip.y % 2 == 0)
        if let bannerRect = screen.layers.first(where: { $0.kind == .banner })?.rect {
            #expect(pip.maxY <= bannerRect.y - 16, "\(pip) reaches the banner at \(bannerRect)")
        } else {
            #expect(pip.maxY <= safe.maxY - 16)
        }
    }

    /// iPhone 15 landscape (1278x590 px): the safe area is 59 pt = 88.5 → 88 px in from each side (x 88 to 1190) and
    /// ends 21 pt = 31.5 → 32 px above the bottom (y 558). The banner (58 pt) starts at 314 pt = 471 → 472 px. The window is a
    /// third of the player's 1278 px (426 x 240 for 16:9), 16 px inside the room: x (1190 − 16 − 426) & ~1 = 748,
    /// y (472 − 16 − 240) & ~1 = 216; without a banner y (558 − 16 − 240) & ~1 = 302.
    @Test func theWindowIsWhereTheHandDerivedRectangleSays() throws {
        let withBanner = runToEnd(try Self.session(orientation: .landscape, banner: .below))
        #expect(withBanner.decisions[15].pip == PixelRect(x: 748, y: 216, width: 426, height: 240))
        let plain = runToEnd(try Self.session(orientation: .landscape, banner: nil))
        #expect(plain.decisions[15].pip == PixelRect(x: 748, y: 302, width: 426, height: 240))
        // Top-left: 16 px inside the island's inset: x (88 + 17) & ~1 = 104, y 16.
        let topLeft = runToEnd(try Self.session(orientation: .landscape, banner: nil, corner: .topLeft))
        #expect(topLeft.decisions[15].pip == PixelRect(x: 104, y: 16, width: 426, height: 240))
    }

    /// A rotation moves the safe area: the window is laid out again inside the new one.
    @Test func aRotationLaysTheWindowOutInTheNewSafeArea() throws {
        let run = runToEnd(try Self.session(orientation: .portrait, banner: .below, script: "pip@1; rotate landscape@2"))
        for frame in [15, 25] {
            let decision = run.decisions[frame]
            let pip = try #require(decision.pip), screen = try #require(decision.screen)
            let safe = try #require(screen.scenes.first).safeArea
            let banner = try #require(screen.layers.first { $0.kind == .banner }).rect
            #expect(safe.contains(pip) && pip.maxY <= banner.y - 16)
        }
    }

    @Test func theLayoutKeepsItsWindowInsideItsBounds() {
        let bounds = PixelRect(x: 88, y: 0, width: 1102, height: 471)
        for corner in PictureInPictureSettings.Corner.allCases {
            let layout = PictureInPictureLayout(canvas: PixelSize(width: 1278, height: 590), bounds: bounds,
                                                contentAspect: Rational(16, 9), settings: PictureInPictureSettings(corner: corner))
            let inner = PixelRect(x: bounds.x + 16, y: bounds.y + 16, width: bounds.width - 32, height: bounds.height - 32)
            #expect(inner.contains(layout.window), "\(corner): \(layout.window)")
            #expect(layout.screen == PixelRect(x: 0, y: 0, width: 1278, height: 590))
        }
        // Bounds smaller than a third of the screen: the largest window of the content's shape that fits.
        let tight = PictureInPictureLayout(canvas: PixelSize(width: 1278, height: 590), bounds: PixelRect(x: 0, y: 0, width: 300, height: 200),
                                           contentAspect: Rational(16, 9), settings: PictureInPictureSettings())
        #expect(PixelRect(x: 16, y: 16, width: 268, height: 168).contains(tight.window))
    }
}
