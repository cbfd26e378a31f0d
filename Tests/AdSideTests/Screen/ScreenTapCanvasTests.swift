@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// A tap is in the device's own pixels (its points at its point scale) and lands on the layer there, whatever the
/// canvas: on a canvas that holds both orientations (a script that rotates, or any `play`) the state's layers are
/// drawn in its middle (`ScreenCanvas.frame(of:)`), and the tap lands on the layer drawn at the same place of the
/// device. So a tap typed in `play` (whose canvas always holds both) and the same tap in a render agree.
@Suite struct ScreenTapCanvasTests {
    static let state = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)])

    /// iPhone 15 portrait at 3/2 is 590x1278, in a 1278x1278 canvas: the display at x 344. A tap at x 295 of the
    /// device lands on the banner, drawn at x 344…934; x 639, where the canvas draws it, is off the device.
    @Test func aTapLandsOnTheBannerAtItsPlaceOnTheDevice() throws {
        let script = try SessionScript(parsing: "tap 295,1160@0.3; tap 639,1160@0.5; rotate landscape@1")
        let timeline = ScreenTimeline(initial: Self.state, script: script)
        #expect(timeline.canvas.size == PixelSize(width: 1278, height: 1278))
        let banner = try #require(timeline.canvas.frame(of: timeline.initial).layers.first { $0.kind == .banner })
        #expect(banner.rect.x == 344 && banner.rect.contains(PixelRect(x: 639, y: 1160, width: 1, height: 1)))
        #expect(timeline.refusals.map(\.error.description) == [#"screen command "tap 639,1160": (639, 1160) is outside the 590x1278 canvas"#])
        let taps = timeline.changes.flatMap(\.events).compactMap { event -> ScreenLayer? in
            if case .tapped(_, _, let layer) = event { return layer }
            return nil
        }
        // Named as drawn, on the output canvas.
        #expect(taps == [banner])
    }

    /// After the rotation the device is 1278x590, drawn 344 px down the canvas: its banner at y 472 of the device
    /// (816 of the canvas) takes a tap at y 515.
    @Test func aTapAfterARotationLandsOnTheTurnedBanner() throws {
        let script = try SessionScript(parsing: "rotate landscape@1; tap 639,515@1.5")
        let timeline = ScreenTimeline(initial: Self.state, script: script)
        #expect(timeline.refusals.isEmpty)
        let tapped = timeline.changes.last?.events.first
        guard case .tapped(639, 515, let layer?) = tapped else { Issue.record("\(String(describing: tapped))"); return }
        #expect(layer.kind == .banner && layer.rect.y == 816)
    }

    /// A full-screen ad presented over an iPad in landscape (1194x834 at 1 px per point) on a canvas that also
    /// holds portrait (1194x1194): drawn from y 180 of the canvas, it covers the whole device, so a tap at y 100 of
    /// the device lands on it, and one at y 1000 is off the device.
    @Test func aTapLandsOnAFullScreenAdAtItsPlaceOnTheDevice() throws {
        let state = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "main")])
        let script = try SessionScript(parsing: "present interstitial main@0; tap 600,100@0.5; tap 600,1000@0.6; rotate portrait@1")
        let timeline = ScreenTimeline(initial: state, script: script)
        #expect(timeline.refusals.map(\.error.description) == [#"screen command "tap 600,1000": (600, 1000) is outside the 1194x834 canvas"#])
        let shown = try #require(timeline.canvas.frame(of: timeline.state(at: MediaTime(seconds: Rational(1, 2)))).layers.last)
        #expect(shown.kind == .fullscreen && shown.rect == PixelRect(x: 0, y: 180, width: 1194, height: 834))
        let taps = timeline.changes.flatMap(\.events).compactMap { event -> String? in
            if case .tapped(let x, let y, let layer) = event { return "\(x),\(y) \(layer.map(\.kind.rawValue) ?? "nothing")" }
            return nil
        }
        #expect(taps == ["600,100 fullscreen"])
    }
}
