@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// The slider is placed on the render's canvas as every other screen layer is (`ScreenCanvas.place`): in a
/// rotating render the canvas is wider than the portrait display, and the slider's cards lie inside the display
/// (and inside its scene's window), not at the canvas's left edge over the bezel. Media-free: the layout's layers
/// on every output frame of a planned run.
@Suite struct NativeSliderPlacementTests {
    static let rate = FrameRate(30)

    /// A feed on an iPhone 15 (the bundled slider session's: player 221 pt tall, slider 233 pt into the safe
    /// area) that loads at once, turns to landscape at 1 s, swipes, and turns back at 2.5 s.
    static func outcome(script text: String = "load slider@0; rotate landscape@1; swipe left@1.5; rotate portrait@2.5",
                        banner: BannerLayout? = nil) async throws -> NativeScreenRun.Outcome {
        let script = try SessionScript(parsing: text)
        let initial = ScreenState(device: .iPhone15, scenes: [.init(id: "feed", banner: banner, playerHeight: 221)],
                                  pointScale: PointScale(Rational(3, 2)))
        let screen = ScreenTimeline(initial: initial, script: script)
        let placement = NativePlacement(id: "feed-slider", scene: "feed", source: "slider.json", top: 233)
        let run = try NativeScreenRun(screen: screen, placements: [placement], script: script, frameRate: rate,
                                      end: MediaTime(seconds: 3), measurer: MonospaceTextMeasurer())
        let block = NativeFixtures.slider((0..<4).map { NativeFixtures.card("c\($0)") })
        return await run.run { _ throws(NativeError) in try NativeFixtures.blockTyped(block) }
    }

    @Test func everyCardOfARotatingSliderLiesInsideTheDisplayAndItsWindowOnEveryFrame() async throws {
        let outcome = try await Self.outcome()
        let canvas = outcome.run.canvas
        // The render's canvas holds both orientations, so the portrait display does not start at x = 0.
        let portrait = canvas.frame(of: outcome.run.screen.state(at: .zero))
        try #require(portrait.display.x > 0, "\(portrait.display) in \(canvas.size)")
        var cards = 0, orientations: Set<Orientation> = []
        for frame in Int64(0)..<90 {
            let time = Self.rate.time(ofFrame: frame)
            let state = outcome.run.screen.state(at: time)
            let screen = canvas.frame(of: state)
            let window = try #require(screen.scenes.first { $0.id == "feed" }?.rect)
            for layer in outcome.layers(at: time) {
                let drawn = layer.rect.intersection(layer.clip)
                guard drawn.width > 0, drawn.height > 0 else { continue }
                #expect(screen.display.contains(drawn), "frame \(frame): \(layer.kind) at \(drawn) outside the display \(screen.display)")
                #expect(window.contains(drawn), "frame \(frame): \(layer.kind) at \(drawn) outside its window \(window)")
                if layer.card != nil {
                    cards += 1
                    orientations.insert(state.orientation)
                }
            }
        }
        #expect(cards > 90 && orientations == [.portrait, .landscape], "\(cards) cards in \(orientations)")
    }

    @Test func aTapHitsTheCardAtItsPlaceOnTheDeviceInTheRotatingCanvas() async throws {
        // Card 0 as drawn in portrait at 0.5 s on the canvas that holds both orientations (the script turns the
        // device later); a tap is in the device's points, so its centre less the canvas offset, at 3/2 px per
        // point, clicks it.
        let drawn = try await Self.outcome()
        let card = try #require(drawn.layers(at: MediaTime(seconds: Rational(1, 2))).first { $0.card?.index == 0 })
        let x = card.rect.x + card.rect.width / 2, y = card.rect.y + card.rect.height / 2
        let points = { (pixels: Int) in Int((Rational(Int64(pixels)) * Rational(2, 3)).rounded) }
        let onDevice = (x: points(x - drawn.run.canvas.offset(of: drawn.run.screen.initial).x), y: points(y))
        let outcome = try await Self.outcome(script: "load slider@0; tap \(onDevice.x),\(onDevice.y)@0.5; rotate landscape@1")
        #expect(outcome.events.filter { $0.type == .onAdClick }.map(\.card) == [0])
        // Where the canvas draws the card is not the device's place: there, the tap misses card 0.
        let missed = try await Self.outcome(script: "load slider@0; tap \(points(x)),\(points(y))@0.5; rotate landscape@1")
        #expect(!missed.events.contains { $0.type == .onAdClick && $0.card == 0 })
    }

    @Test func theSceneWindowCutsASliderThatRunsPastItsBottomInLandscape() async throws {
        // In landscape the 393 pt tall window ends before the slider at 233 pt does: nothing is drawn below it.
        let outcome = try await Self.outcome()
        let time = MediaTime(seconds: 2)
        let state = outcome.run.screen.state(at: time)
        #expect(state.orientation == .landscape)
        let window = try #require(outcome.run.canvas.frame(of: state).scenes.first?.rect)
        let slider = try #require(outcome.layers(at: time).first { $0.kind == .slider })
        #expect(slider.clip.maxY == window.maxY && slider.rect == slider.clip, "\(slider.clip) in \(window)")
        let card = try #require(outcome.layers(at: time).first { $0.card != nil })
        #expect(card.rect.maxY > window.maxY, "the card itself keeps its whole height: \(card.rect)")
    }

    /// With a banner laid out `below` the content (the bundled rotating session's), the content's frame ends where
    /// the banner begins: the slider scrolls under nothing, it is cut at the banner's top. With `overlay` the banner
    /// is drawn over the slider, which keeps the whole window.
    @Test func aBannerBelowTheContentCutsTheSliderAtItsTop() async throws {
        let time = MediaTime(seconds: 2)
        for layout in BannerLayout.allCases {
            let outcome = try await Self.outcome(banner: layout)
            let state = outcome.run.screen.state(at: time)
            let scene = try #require(state.layout(of: "feed"))
            let banner = outcome.run.canvas.place(state.pixelRect(try #require(state.bannerFrame(of: "feed"))), of: state)
            let window = try #require(outcome.run.canvas.frame(of: state).scenes.first?.rect)
            let slider = try #require(outcome.layers(at: time).first { $0.kind == .slider })
            let under = outcome.layers(at: time).filter { $0.rect.intersection($0.clip).intersection(banner).height > 0 }
            switch layout {
            case .below:
                #expect(slider.clip.maxY == banner.y, "\(slider.clip) above the banner at \(banner)")
                #expect(under.isEmpty, "\(under.map(\.kind)) under the banner at \(banner)")
                #expect(state.contentFrame(of: scene).maxY == state.bannerFrame(of: "feed")?.y)
            case .overlay:
                #expect(slider.clip.maxY == window.maxY, "\(slider.clip) in \(window)")
                #expect(!under.isEmpty)
                #expect(state.contentFrame(of: scene) == scene.frame)
            }
        }
    }
}
