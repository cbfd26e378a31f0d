@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// A tap is in output pixels and lands on the layer drawn there: on a canvas that holds both orientations (a
/// script that rotates) the state's layers are placed in its middle (`ScreenCanvas.frame(of:)`), and so are taps.
@Suite struct ScreenTapCanvasTests {
    static let state = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)])

    /// iPhone 15 portrait at 3/2 is 590x1278, in a 1278x1278 canvas: the display at x 344. The banner drawn at
    /// x 344…934 takes the tap at x 639; x 295, where the banner would be in the state's own pixels, is bezel.
    @Test func aTapLandsOnTheBannerWhereTheCanvasDrawsIt() throws {
        let script = try SessionScript(parsing: "tap 639,1160@0.3; tap 295,1160@0.5; rotate landscape@1")
        let timeline = ScreenTimeline(initial: Self.state, script: script)
        #expect(timeline.canvas.size == PixelSize(width: 1278, height: 1278))
        let banner = try #require(timeline.canvas.frame(of: timeline.initial).layers.first { $0.kind == .banner })
        #expect(banner.rect.x == 344 && banner.rect.contains(PixelRect(x: 639, y: 1160, width: 1, height: 1)))
        #expect(timeline.refusals.isEmpty)
        let taps = timeline.changes.flatMap(\.events).compactMap { event -> ScreenLayer? in
            if case .tapped(_, _, let layer) = event { return layer ?? ScreenLayer(scene: "none", kind: .content, rect: .init(x: 0, y: 0, width: 0, height: 0)) }
            return nil
        }
        #expect(taps.map(\.kind) == [.banner, .content] && taps.map(\.scene) == ["main", "none"])
        #expect(taps.first?.rect == banner.rect)
    }

    /// After the rotation, the landscape banner is drawn 344 px down the canvas; a tap there lands on it.
    @Test func aTapAfterARotationLandsOnTheTurnedBanner() throws {
        let script = try SessionScript(parsing: "rotate landscape@1; tap 639,859@1.5")
        let timeline = ScreenTimeline(initial: Self.state, script: script)
        #expect(timeline.refusals.isEmpty)
        let tapped = timeline.changes.last?.events.first
        guard case .tapped(639, 859, let layer?) = tapped else { Issue.record("\(String(describing: tapped))"); return }
        #expect(layer.kind == .banner && layer.rect.y == 816)
    }

    /// A full-screen ad presented over an iPad in landscape (1194x834 at 1 px per point) on a canvas that also
    /// holds portrait (1194x1194): it is drawn from y 180, so a tap at y 1000 lands on it, and one at y 100 (over
    /// it in the state's own pixels) on the bezel.
    @Test func aTapLandsOnAFullScreenAdWhereTheCanvasDrawsIt() throws {
        let state = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "main")])
        let script = try SessionScript(parsing: "present interstitial main@0; tap 600,1000@0.5; tap 600,100@0.6; rotate portrait@1")
        let timeline = ScreenTimeline(initial: state, script: script)
        #expect(timeline.refusals.isEmpty)
        let shown = try #require(timeline.canvas.frame(of: timeline.state(at: MediaTime(seconds: Rational(1, 2)))).layers.last)
        #expect(shown.kind == .fullscreen && shown.rect == PixelRect(x: 0, y: 180, width: 1194, height: 834))
        let taps = timeline.changes.flatMap(\.events).compactMap { event -> String? in
            if case .tapped(let x, let y, let layer) = event { return "\(x),\(y) \(layer.map(\.kind.rawValue) ?? "nothing")" }
            return nil
        }
        #expect(taps == ["600,1000 fullscreen", "600,100 nothing"])
    }
}
