import AdPlayback
import AdScreen
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification

/// The layout rules `verify` checks on every device render's timeline (`LayoutInvariants`), each shown catching a
/// deliberately wrong layout: a timeline made from the screen model and the native run's own layers (which obeys
/// every rule), then edited one way at a time. The safe areas are the device model's, not the timeline's.
@Suite struct LayoutInvariantsTests {
    static let scale = PointScale(Rational(3, 2))

    /// A feed on an iPhone 15 in portrait on a canvas that also holds landscape (a rotating render, 1278x1278):
    /// the player, a banner, a loaded slider of four cards, and a picture-in-picture window at the bottom right
    /// of the display's safe area; the timeline's layers as the stitcher writes them.
    static func timeline() async throws -> Timeline {
        let script = try SessionScript(parsing: "load slider@0; rotate landscape@5")
        let state = ScreenState(device: .iPhone15, scenes: [.init(id: "feed", hasBanner: true, playerHeight: 221)], pointScale: scale)
        let canvas = ScreenCanvas(initial: state, script: script, live: false)
        let screen = canvas.frame(of: state)
        let response = #"{"ver":"1.2","assets":[],"ads":["#
            + (0..<4).map { #"{"adid":"c\#($0)","assets":[{"id":1,"title":{"text":"Card \#($0)"}}],"link":{"url":"https://x.example/"}}"# }
                .joined(separator: ",") + "]}"
        let run = try NativeScreenRun(screen: ScreenTimeline(initial: state, script: script),
                                      placements: [NativePlacement(id: "s", scene: "feed", source: "s.json", top: 233)],
                                      script: script, frameRate: FrameRate(30), end: MediaTime(seconds: 1), measurer: MonospaceTextMeasurer())
        let outcome = await run.run { _ throws(NativeError) in try NativeResponseParser().parse(Data(response.utf8), source: "s.json") }
        var layers = screen.layers.map { layer -> Timeline.Layer in
            let area = Timeline.Layer.Area(scene: layer.scene, rect: layer.rect)
            return layer.kind == .banner ? .banner(area, source: nil) : .player(.init(.content, area, source: nil))
        }
        try #require(screen.layers.map(\.kind) == [.content, .banner])
        for native in outcome.layers(at: MediaTime(seconds: Rational(1, 2))) {
            let area = Timeline.Layer.Area(scene: "feed", rect: native.rect)
            switch native.kind {
            case .slider:
                layers.append(.slider(area, .init(placement: native.placement, placeholder: false)))
            case .card(let index, let ad):
                layers.append(.card(area, .init(index: index, adID: ad, placement: native.placement, clip: .init(native.clip), radius: 0)))
            default: break
            }
        }
        // The window 180x100 pixels, 16 pixels inside the safe area's bottom right corner.
        let safe = screen.display.intersection(screen.scenes[0].safeArea)
        layers.append(.player(.init(.pip, .init(scene: "feed", rect: PixelRect(x: safe.maxX - 196, y: safe.maxY - 116, width: 180, height: 100)),
                                    source: "content.mp4")))
        var segment = Timeline.Segment(kind: .content, source: "content.mp4", sourceFps: "30/1", breakIndex: nil, adIndex: nil,
                                       outStartFrame: 15, outEndFrame: 30, srcStartTick: 15, srcEndTick: 30, srcStart: 0.5, srcEnd: 1,
                                       paused: false, pip: nil, picture: .init(screen.layers[0].rect), audioStart: 0,
                                       sourceAudioStart: 0, audioPadded: 0, audioDrift: 0)
        segment.screen.display = .init(screen.display)
        segment.screen.scenes = screen.scenes.map { Timeline.Scene(id: $0.id, rect: .init($0.rect), safeArea: .init($0.safeArea), state: $0.state, banner: $0.banner) }
        segment.screen.layers = layers
        let output = Timeline.Output(path: "out.mp4", fps: "30/1", width: canvas.size.width, height: canvas.size.height, frames: 30,
                                     duration: 1, sampleRate: 48000, channels: 2, audioSamples: 48000, profile: "x264", pointScale: "3/2")
        return Timeline(output: output, content: Timeline.Source(path: "content.mp4", fps: "30/1", frames: 30, duration: 1), segments: [segment])
    }

    static func edit(_ t: inout Timeline, _ kind: ScreenLayer.Kind, index: Int? = nil, _ change: (inout Timeline.Layer) -> Void) {
        for i in t.segments[0].screen.layers!.indices where t.segments[0].screen.layers![i].kind == kind && (index == nil || cardIndex(t.segments[0].screen.layers![i]) == index) {
            change(&t.segments[0].screen.layers![i])
        }
    }

    static func cardIndex(_ layer: Timeline.Layer) -> Int? {
        if case .card(_, let card) = layer { card.index } else { nil }
    }

    /// Changes a card layer's fields.
    static func changeCard(_ layer: inout Timeline.Layer, _ change: (inout Timeline.Layer.Card) -> Void) {
        guard case .card(let area, var card) = layer else { return }
        change(&card)
        layer = .card(area, card)
    }

    static func moved(_ r: Timeline.Rect, x dx: Int = 0, y dy: Int = 0) -> Timeline.Rect {
        .init(PixelRect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height))
    }

    @Test func theModelsOwnLayoutBreaksNoRule() async throws {
        let timeline = try await Self.timeline()
        let kinds = Set(timeline.segments[0].screen.layers!.map(\.kind))
        try #require(kinds.isSuperset(of: [.content, .banner, .slider, .card, .pip]), "\(kinds)")
        #expect(timeline.segments[0].screen.display!.x > 0)
        #expect(LayoutInvariants.violations(in: timeline).map(\.description) == [])
    }

    /// One wrong layout and the start of the violation that names it.
    struct Mistake: Sendable, CustomStringConvertible {
        var description: String
        var expected: String
        var apply: @Sendable (inout Timeline) -> Void
    }

    static let mistakes: [Mistake] = [
        Mistake(description: "the display past the canvas's right edge", expected: "frame 15: the display at x=700,") { t in
            t.segments[0].screen.display = .init(PixelRect(x: 700, y: 0, width: 590, height: 1278))
        },
        Mistake(description: "the scene moved off the display", expected: "frame 15: scene \"feed\" at x=300,") { t in
            t.segments[0].screen.scenes![0].rect = moved(t.segments[0].screen.scenes![0].rect, x: -44)
        },
        Mistake(description: "the player at the canvas's left edge", expected: "frame 15: content of scene \"feed\" at x=0,") { t in
            edit(&t, .content) { $0.rect = moved($0.rect, x: -344) }
        },
        // The placement before the fix: the slider and its cards at x = 0 of the canvas, over the bezel.
        Mistake(description: "the slider at x=0 of the canvas (the old placement)", expected: "frame 15: slider \"s\" of scene \"feed\" at x=0,") { t in
            edit(&t, .slider) { $0.rect = moved($0.rect, x: -344) }
            edit(&t, .card) { layer in
                layer.rect = moved(layer.rect, x: -344)
                changeCard(&layer) { $0.clip = $0.clip.map { moved($0, x: -344) } }
            }
        },
        Mistake(description: "a card's viewport wider than its slider", expected: "frame 15: the viewport of card 1 (\"c1\") of slider \"s\" at x=") { t in
            edit(&t, .card, index: 1) { layer in
                changeCard(&layer) { $0.clip = $0.clip.map { .init(PixelRect(x: $0.x, y: $0.y, width: $0.width + 40, height: $0.height)) } }
            }
        },
        Mistake(description: "a card cut down by its viewport", expected: "frame 15: card 0 (\"c0\") of slider \"s\" at x=") { t in
            edit(&t, .card, index: 0) { $0.rect = .init(PixelRect(x: $0.rect.x, y: $0.rect.y - 30, width: $0.rect.width, height: $0.rect.height)) }
        },
        Mistake(description: "the PiP window under the status bar", expected: "frame 15: pip of scene \"feed\" at x=") { t in
            edit(&t, .pip) { $0.rect = .init(PixelRect(x: $0.rect.x, y: 0, width: $0.rect.width, height: $0.rect.height)) }
        },
        // The render's own record of the safe area moved with it: only the device model's catches it.
        Mistake(description: "the banner on the display's bottom, over the home indicator", expected: "frame 15: banner of scene \"feed\" at x=") { t in
            let shift = 50 // the home indicator's 34 pt, to the display's bottom edge at 3/2
            edit(&t, .banner) { $0.rect = moved($0.rect, y: shift) }
            let safe = t.segments[0].screen.scenes![0].safeArea
            t.segments[0].screen.scenes![0].safeArea = .init(PixelRect(x: safe.x, y: safe.y, width: safe.width, height: safe.height + shift))
        },
        // A banner laid out below the content ends it: a player that keeps the whole window runs under the banner.
        Mistake(description: "the player under a banner laid out below the content", expected: "frame 15: content of scene \"feed\" at x=") { t in
            playerToTheWindowsBottom(&t, banner: .below)
        },
    ]

    /// The scene's banner laid out as `layout`, and its player's window as tall as the scene's window (as `overlay`
    /// keeps it), under the banner.
    static func playerToTheWindowsBottom(_ t: inout Timeline, banner layout: BannerLayout) {
        t.segments[0].screen.scenes![0].banner = layout
        let window = t.segments[0].screen.scenes![0].rect
        edit(&t, .content) { $0.rect = .init(PixelRect(x: $0.rect.x, y: $0.rect.y, width: $0.rect.width, height: window.y + window.height - $0.rect.y)) }
    }

    @Test func aPlayerUnderABannerLaidOutOverItBreaksNoRule() async throws {
        var timeline = try await Self.timeline()
        Self.playerToTheWindowsBottom(&timeline, banner: .overlay)
        #expect(LayoutInvariants.violations(in: timeline).map(\.description) == [])
        Self.playerToTheWindowsBottom(&timeline, banner: .below)
        let found = LayoutInvariants.violations(in: timeline).map(\.description)
        #expect(found.count == 1 && found[0].contains("is not above its scene's banner, which is laid out below the content, at"), "\(found)")
    }

    /// A Split View divider lies in the gap before its scene, outside the scene's window: it must lie in the display
    /// and touch its window, not lie inside it.
    static func withDivider(_ t: inout Timeline, x dx: Int) {
        let window = t.segments[0].screen.scenes![0].rect
        t.segments[0].screen.layers!.append(.divider(.init(scene: "feed", rect: PixelRect(x: window.x + dx, y: window.y, width: 10, height: window.height))))
    }

    @Test func aDividerBesideItsSceneBreaksNoRule() async throws {
        var timeline = try await Self.timeline()
        Self.withDivider(&timeline, x: 0)
        #expect(LayoutInvariants.violations(in: timeline).map(\.description) == [])
    }

    /// The divider as renders record it since issue 36: a screen-level layer (no scene), between two windows.
    @Test func aScreenLevelDividerMustLieBetweenTwoScenesWindows() async throws {
        var timeline = try await Self.timeline()
        let window = timeline.segments[0].screen.scenes![0].rect.pixelRect
        timeline.segments[0].screen.layers!.append(.divider(.init(scene: .screen, rect: PixelRect(x: window.x + 20, y: window.y, width: 10,
                                                                                                  height: window.height))))
        let found = LayoutInvariants.violations(in: timeline).map(\.description)
        #expect(found.contains { $0.hasPrefix("frame 15: Split View divider at x=") && $0.contains("is not outside every scene's window") },
                "\(found)")
        #expect(found.contains { $0.contains("is not between two scenes' windows") }, "\(found)")
    }

    @Test func aDividerOffTheDisplayIsAViolation() async throws {
        var timeline = try await Self.timeline()
        Self.withDivider(&timeline, x: -200)
        let found = LayoutInvariants.violations(in: timeline).map(\.description)
        #expect(found.contains { $0.hasPrefix("frame 15: divider of scene \"feed\" at x=") && $0.contains("is not inside the display") },
                "\(found)")
    }

    /// A Slide Over window's shadow, cast by a rectangle `dx` pixels right of the scene's window, drawn over the
    /// window's rectangle widened by `spill` on its left, cut to the display.
    static func withShadow(_ t: inout Timeline, casterX dx: Int, spill: Int = 0) {
        let window = t.segments[0].screen.scenes![0].rect.pixelRect, display = t.segments[0].screen.display!.pixelRect
        let caster = PixelRect(x: window.x + dx, y: window.y, width: window.width, height: window.height)
        let shadow = ScreenLayer.Shadow(caster: caster, radius: 4, reach: 24)
        let drawn = PixelRect(x: window.x - spill, y: window.y, width: window.width + spill, height: window.height).intersection(display)
        t.segments[0].screen.layers!.append(Timeline.Layer(shadow: ScreenLayer(scene: "feed", kind: .shadow, rect: drawn, shadow: shadow)))
    }

    @Test func aShadowAroundItsScenesWindowBreaksNoRule() async throws {
        var timeline = try await Self.timeline()
        Self.withShadow(&timeline, casterX: 0)
        #expect(LayoutInvariants.violations(in: timeline).map(\.description) == [])
    }

    @Test func aShadowCastBySomethingElseOrReachingTooFarIsAViolation() async throws {
        var moved = try await Self.timeline()
        Self.withShadow(&moved, casterX: 40)
        let found = LayoutInvariants.violations(in: moved).map(\.description)
        #expect(found.contains { $0.hasPrefix("frame 15: the caster of shadow of scene \"feed\" at x=") && $0.contains("is not around its scene's window") },
                "\(found)")
        var far = try await Self.timeline()
        let window = far.segments[0].screen.scenes![0].rect.pixelRect
        far.segments[0].screen.scenes![0].rect = .init(PixelRect(x: window.x + 60, y: window.y, width: window.width - 60, height: window.height))
        Self.withShadow(&far, casterX: 0, spill: 30)
        let beyond = LayoutInvariants.violations(in: far).map(\.description)
        #expect(beyond.contains { $0.hasPrefix("frame 15: shadow of scene \"feed\" at x=") && $0.contains("is not within 24 px of its caster") },
                "\(beyond)")
    }

    @Test(arguments: mistakes)
    func aWrongLayoutIsAViolationNamingTheLayerTheFrameAndBothRectangles(_ mistake: Mistake) async throws {
        var timeline = try await Self.timeline()
        mistake.apply(&timeline)
        let found = LayoutInvariants.violations(in: timeline).map(\.description)
        #expect(found.contains { $0.hasPrefix(mistake.expected) && $0.contains(" is not ") && $0.components(separatedBy: "x=").count == 3 },
                "\(found)")
    }

    @Test func theSafeAreaComesFromTheDeviceModelInEachOrientation() {
        // iPhone 15 at 3/2: portrait insets 59 and 34 pt (88 and 51 px), landscape 59 pt at the sides, 21 below.
        let portrait = LayoutInvariants.safeArea(ofDisplay: PixelRect(x: 344, y: 0, width: 590, height: 1278), scale: Self.scale)
        #expect(portrait == PixelRect(x: 344, y: 88, width: 590, height: 1140))
        let landscape = LayoutInvariants.safeArea(ofDisplay: PixelRect(x: 0, y: 344, width: 1278, height: 590), scale: Self.scale)
        #expect(landscape == PixelRect(x: 88, y: 344, width: 1278 - 2 * 88, height: 590 - 32))
        // A display no profile has (a custom device) has no insets.
        let custom = PixelRect(x: 0, y: 0, width: 600, height: 400)
        #expect(LayoutInvariants.safeArea(ofDisplay: custom, scale: Self.scale) == custom)
    }
}
