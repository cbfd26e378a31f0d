@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// A tap is in the device's points and lands on the layer at their nearest pixel, whatever the point scale and the
/// canvas: on a canvas that holds both orientations (a script that rotates, or any `play`) the state's layers are
/// drawn in its middle (`ScreenCanvas.frame(of:)`), and the tap lands on the layer drawn at the same place of the
/// device. So a tap typed in `play` (whose canvas always holds both) and the same tap in a render agree.
@Suite struct ScreenTapCanvasTests {
    static let state = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)])

    /// iPhone 15 portrait at 3/2 is 590x1278 (393x852 points), in a 1278x1278 canvas: the display at x 344. A tap
    /// at point 197,773 of the device (pixel 296,1160) lands on the banner, drawn at x 344…934; point 426 (pixel
    /// 639, where the canvas draws the banner) is off the device.
    @Test func aTapLandsOnTheBannerAtItsPlaceOnTheDevice() throws {
        let script = try SessionScript(parsing: "tap 197,773@0.3; tap 426,773@0.5; rotate landscape@1")
        let timeline = ScreenTimeline(initial: Self.state, script: script)
        #expect(timeline.canvas.size == PixelSize(width: 1278, height: 1278))
        let banner = try #require(timeline.canvas.frame(of: timeline.initial).layers.first { $0.kind == .banner })
        #expect(banner.rect.x == 344 && banner.rect.contains(PixelRect(x: 639, y: 1160, width: 1, height: 1)))
        #expect(timeline.refusals.map(\.error.description) == [#"screen command "tap 426,773": (426, 773) is outside the device's 393x852 points"#])
        let taps = timeline.changes.flatMap(\.events).compactMap { event -> ScreenLayer? in
            if case .tapped(_, _, let layer) = event { return layer }
            return nil
        }
        // Named as drawn, on the output canvas.
        #expect(taps == [banner])
    }

    /// The same tap lands on the same layer at any point scale (a `play` and a render of its command log may use
    /// different ones): point 197,773 is on the iPhone 15's banner (y 728…818 pt) at 1, 3/2 and 2 px per point,
    /// at pixels 197,773, 296,1160 and 394,1546; read as pixels at 2 px per point it would be on the player.
    @Test func theSameTapLandsOnTheSameLayerAtAnyPointScale() throws {
        for scale in [Rational(1), Rational(3, 2), Rational(2)] {
            var state = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)], pointScale: PointScale(scale))
            _ = state.loadBanners()
            let events = try state.apply(.tap(x: 197, y: 773))
            guard case .tapped(197, 773, let layer?) = events.first else { Issue.record("at \(scale) px/pt: \(events)"); continue }
            #expect(layer.kind == .banner && layer.rect.contains(PixelRect(x: state.pointScale.pixel(nearest: 197),
                                                                            y: state.pointScale.pixel(nearest: 773), width: 1, height: 1)),
                    "at \(scale) px/pt: \(layer)")
            #expect(throws: ScreenError.self) { try state.apply(.tap(x: 393, y: 0)) }
        }
    }

    /// A point's pixel is the nearest one, halves away from zero, and may be odd (a rectangle's edges are even).
    @Test func aPointsPixelIsTheNearest() {
        let scale = PointScale(Rational(3, 2))
        #expect([0, 1, 133, 197, 467].map(scale.pixel(nearest:)) == [0, 2, 200, 296, 701])
        #expect([0, 1, 133].map(scale.pixels) == [0, 2, 200])
        #expect(PointScale(Rational(1, 2)).pixel(nearest: 3) == 2 && PointScale(Rational(1, 2)).pixels(3) == 2)
        #expect(PointScale(Rational(5, 4)).pixel(nearest: 3) == 4 && PointScale(Rational(5, 4)).pixels(3) == 4)
        #expect(PointScale(Rational(5, 4)).pixel(nearest: 5) == 6 && PointScale(Rational(5, 4)).pixels(5) == 6)
        #expect(PointScale(Rational(5, 4)).pixel(nearest: 7) == 9 && PointScale(Rational(5, 4)).pixels(7) == 8)
    }

    /// After the rotation the device is 1278x590, drawn 344 px down the canvas: its banner at y 472 of the device
    /// (816 of the canvas) takes a tap at point y 343 (pixel 515).
    @Test func aTapAfterARotationLandsOnTheTurnedBanner() throws {
        let script = try SessionScript(parsing: "rotate landscape@1; tap 426,343@1.5")
        let timeline = ScreenTimeline(initial: Self.state, script: script)
        #expect(timeline.refusals.isEmpty)
        let tapped = timeline.changes.last?.events.first
        guard case .tapped(426, 343, let layer?) = tapped else { Issue.record("\(String(describing: tapped))"); return }
        #expect(layer.kind == .banner && layer.rect.y == 816)
    }

    /// A full-screen ad presented over an iPad in landscape (1194x834 at 1 px per point) on a canvas that also
    /// holds portrait (1194x1194): drawn from y 180 of the canvas, it covers the whole device, so a tap at y 100 of
    /// the device lands on it, and one at y 1000 is off the device.
    @Test func aTapLandsOnAFullScreenAdAtItsPlaceOnTheDevice() throws {
        let state = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "main")])
        let script = try SessionScript(parsing: "present interstitial main@0; tap 600,100@0.5; tap 600,1000@0.6; rotate portrait@1")
        let timeline = ScreenTimeline(initial: state, script: script)
        #expect(timeline.refusals.map(\.error.description) == [#"screen command "tap 600,1000": (600, 1000) is outside the device's 1194x834 points"#])
        let shown = try #require(timeline.canvas.frame(of: timeline.state(at: MediaTime(seconds: Rational(1, 2)))).layers.last)
        #expect(shown.kind == .fullscreen && shown.rect == PixelRect(x: 0, y: 180, width: 1194, height: 834))
        let taps = timeline.changes.flatMap(\.events).compactMap { event -> String? in
            if case .tapped(let x, let y, let layer) = event { return "\(x),\(y) \(layer.map(\.kind.rawValue) ?? "nothing")" }
            return nil
        }
        #expect(taps == ["600,100 fullscreen"])
    }
}
