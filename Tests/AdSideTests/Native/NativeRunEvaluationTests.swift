@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// `NativeScreenRun.Evaluation` driven as `play` drives it (commands added at the frame they apply, screen changes
/// recorded as they happen, answers given when they arrive) follows the rules of the batch run exactly.
@Suite struct NativeRunEvaluationTests {
    typealias Fixture = NativeSliderRunTests
    static let rate = Fixture.rate
    static func block() throws -> NativeBlock { try NativeResponseParser().parse(Data(Fixture.five.utf8), source: "feed.json") }

    /// Drives an evaluation with no script frame by frame for `frames` frames: `script`'s commands added at the
    /// frame they apply (a screen command applied to the screen first), each load answered `delay` frames after
    /// it began. Returns the events and each frame's layers.
    static func live(_ script: SessionScript, placement: NativePlacement, delay: Int64,
                     frames: Int64) throws -> (events: [NativeAdEvent], layers: [[NativeLayer]]) {
        // On the canvas of the render of the same commands, so that the layers compare (`play`'s own holds both
        // orientations from the start).
        let canvas = ScreenCanvas(initial: Fixture.screen().initial, script: script, live: false)
        let run = try NativeScreenRun(screen: Fixture.screen(), placements: [placement], script: SessionScript(),
                                      frameRate: rate, end: .zero, measurer: MonospaceTextMeasurer(), canvas: canvas)
        var evaluation = NativeScreenRun.Evaluation(run: run, keepsHistory: false)
        var state = run.screen.initial
        var queue = script.commands[...]
        var waiting: [(due: Int64, request: NativeLoadRequest)] = []
        var events: [NativeAdEvent] = [], layers: [[NativeLayer]] = []
        let block = try block()
        for frame in 0..<frames {
            let t = rate.time(ofFrame: frame)
            for answer in waiting where answer.due == frame { evaluation.answer(answer.request, .success(block)) }
            while let next = queue.first, rate.firstFrame(atOrAfter: next.time) <= frame {
                queue.removeFirst()
                if case .screen(let command) = next.command, let changes = try? state.apply(command) {
                    evaluation.screenChanged(ScreenTimeline.Change(time: t, command: command, events: changes, state: state))
                }
                evaluation.add(next.command, at: t)
            }
            waiting += evaluation.begin(frame: frame).map { (frame + delay, $0) }
            evaluation.finish(frame: frame)
            events += evaluation.takeEvents()
            layers.append(evaluation.outcome.layers(at: t))
        }
        return (events, layers)
    }

    /// The batch run of `script` (the screen following its screen commands) over `frames` frames.
    static func batch(_ script: SessionScript, placement: NativePlacement, frames: Int64) async throws -> NativeScreenRun.Outcome {
        let screen = ScreenTimeline(initial: Fixture.screen().initial, script: script)
        let run = try NativeScreenRun(screen: screen, placements: [placement], script: script, frameRate: rate,
                                      end: rate.time(ofFrame: frames), measurer: MonospaceTextMeasurer())
        let block = try block()
        return await run.run { _ throws(NativeError) in block }
    }

    @Test func commandsAddedAsTheyApplyAndAnswersWithinTheLatencyGiveTheBatchEventsAndLayers() async throws {
        let placement = NativePlacement(id: "feed", scene: "main", source: "feed.json", latency: MediaDuration(value: 6, timeBase: Rational(1, 30)))
        // Where card 1 is drawn at 1.5 s, for the tap (on the same canvas: the script turns the device later).
        let probe = try await Self.batch(try SessionScript(parsing: "load slider@0.2; swipe left@1; load slider@1.1; rotate landscape@2.5"),
                                         placement: placement, frames: 60)
        let card = try #require(probe.layers(at: MediaTime(seconds: Rational(3, 2))).first { $0.card?.index == 1 }).rect
        // A tap is in the device's points: the card as drawn, less where the canvas puts the device, at the
        // device's point scale (a point's nearest pixel is within a pixel of the one it was read from).
        let screen = probe.run.screen.state(at: MediaTime(seconds: Rational(3, 2)))
        let (dx, dy) = probe.run.canvas.offset(of: screen)
        let points = { (pixels: Int) in Int((Rational(Int64(pixels)) / screen.pointScale.pixelsPerPoint).rounded) }
        let script = try SessionScript(parsing: "load slider@0.2; swipe left@1; load slider@1.1; tap \(points(card.x - dx + 10)),\(points(card.y - dy + 10))@1.5; "
                                       + "rotate landscape@2.5; scroll 3@3; swipe right@3.4; load images@4")
        let frames: Int64 = 180
        let batch = try await Self.batch(script, placement: placement, frames: frames)
        let live = try Self.live(script, placement: placement, delay: 3, frames: frames)
        #expect(live.events == batch.events)
        #expect(batch.events.contains { $0.type == .onAdClick && $0.card == 1 })
        for frame in stride(from: Int64(0), to: frames, by: 5) {
            #expect(live.layers[Int(frame)] == batch.layers(at: Self.rate.time(ofFrame: frame)), "frame \(frame)")
        }
    }

    /// `play` knows the heights only as loads land, so it cannot refuse overlapping placements up front as a render
    /// does (`NativeSliderRunTests.twoPlacementsOfASceneDrawnOverEachOtherAreFoundWithTheirSpans`): the newer load
    /// drawn over another placement of its scene is not shown, with a `LOG` `refused` naming both; the older stays.
    @Test func aLiveLoadDrawnOverAnotherPlacementIsRefusedAndNotShownWhileOneClearOfItIsShown() async throws {
        let a = NativePlacement(id: "a", scene: "main", source: "a.json")
        let b = NativePlacement(id: "b", scene: "main", source: "b.json", top: 100)
        let other = NativeFixtures.slider((0..<5).map { NativeFixtures.card("b\($0)") })
        let blocks = ["a.json": try Self.block(), "b.json": try NativeResponseParser().parse(Data(other.utf8), source: "b.json")]
        // Driven as `play` drives it: each load answered at once.
        func live(_ placements: [NativePlacement]) throws -> (events: [NativeAdEvent], layers: [NativeLayer]) {
            let run = try NativeScreenRun(screen: Fixture.screen(), placements: placements, script: SessionScript(),
                                          frameRate: Self.rate, end: .zero, measurer: MonospaceTextMeasurer())
            var evaluation = NativeScreenRun.Evaluation(run: run, keepsHistory: false)
            var queue = try SessionScript(parsing: "load slider a@0; load slider b@1").commands[...]
            var events: [NativeAdEvent] = []
            for frame in Int64(0)..<60 {
                while let next = queue.first, Self.rate.firstFrame(atOrAfter: next.time) <= frame {
                    queue.removeFirst()
                    evaluation.add(next.command, at: Self.rate.time(ofFrame: frame))
                }
                for request in evaluation.begin(frame: frame) {
                    evaluation.answer(request, Result<NativeBlock, NativeError>.success(blocks[request.placement.source]!))
                }
                evaluation.finish(frame: frame)
                events += evaluation.takeEvents()
            }
            return (events, evaluation.outcome.layers(at: Self.rate.time(ofFrame: 59)))
        }
        let over = try live([a, b])
        let refused = over.events.filter { $0.columns.reason == .refused }
        #expect(refused.map(\.placement) == ["b"])
        #expect(refused.map { Self.rate.frame(at: $0.time) } == [30])
        let message = try #require(refused.first?.columns.message)
        #expect(message.hasPrefix("native placement \"b\" is not shown: it would be drawn over \"a\" in scene \"main\" (100 to "), "\(message)")
        #expect(over.events.last { $0.placement == "b" && $0.type == .onAdLoadPhase }?.columns.native.phase == .idle)
        #expect(!over.events.contains { $0.placement == "b" && $0.type == .onAdImpression })
        #expect(over.layers.contains { $0.placement == "a" } && !over.layers.contains { $0.placement == "b" })

        // Where a render finds the first one ends, the second is clear of it: both are shown.
        let span = try #require(try await Fixture.run("load slider a@0; load slider b@1", placements: [a, b],
                                                      blocks: ["a.json": Fixture.five, "b.json": other]).firstOverlap()).otherSpan
        let clear = try live([a, NativePlacement(id: "b", scene: "main", source: "b.json", top: span.upperBound)])
        #expect(!clear.events.contains { $0.columns.reason == .refused })
        #expect(clear.layers.contains { $0.placement == "a" } && clear.layers.contains { $0.placement == "b" })
    }

    @Test func anAnswerLaterThanTheLatencyLandsAtTheFirstFrameAfterItArrivesWithThePlaceholderUntilThen() throws {
        let placement = NativePlacement(id: "feed", scene: "main", source: "feed.json")
        let live = try Self.live(try SessionScript(parsing: "load slider@0.2; load slider@0.3"), placement: placement, delay: 10, frames: 30)
        let phases = live.events.filter { $0.type == .onAdLoadPhase || $0.columns.reason == .refused }.map { "\($0.columns.native.phase?.rawValue ?? $0.columns.message!)@\(Self.rate.frame(at: $0.time))" }
        // Begun at frame 6, answered before frame 16 begins; the second load finds the first under way.
        #expect(phases == ["idle@0", "loading@6", "load slider: a load is already under way@9", "loaded@16"])
        #expect(live.layers[15].map(\.kind) == [.placeholder])
        #expect(live.layers[16].contains { $0.card?.index == 0 })
    }
}
