@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// A slider over a render: impressions at 50% for one second across swipes, binding failures, duplicates across
/// placements, taps and relayout, from a script and a given response (no network).
@Suite struct NativeSliderRunTests {
    static let rate = FrameRate(30)

    static func screen(_ commands: [(Int64, ScreenCommand)] = []) -> ScreenTimeline {
        ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main")]),
                       commands: commands.map { (MediaTime(seconds: $0.0), $0.1) })
    }

    static func run(_ script: String, placements: [NativePlacement] = [NativePlacement(id: "feed", scene: "main", source: "feed.json")],
                    blocks: [String: String], seconds: Int64 = 6, pointScale: PointScale? = nil) async throws -> NativeScreenRun.Outcome {
        // The screen follows the script's screen commands, as a render's does.
        let script = try SessionScript(parsing: script)
        let screen = ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main")], pointScale: pointScale), script: script)
        let run = try NativeScreenRun(screen: screen, placements: placements, script: script,
                                      frameRate: rate, end: MediaTime(seconds: seconds), measurer: MonospaceTextMeasurer())
        return await run.run { placement throws(NativeError) in
            try NativeResponseParser().parse(Data(blocks[placement.source]!.utf8), source: placement.source)
        }
    }

    static let five = NativeFixtures.slider((0..<5).map { NativeFixtures.card("a\($0)") })

    static func impressions(_ outcome: NativeScreenRun.Outcome) -> [(card: Int?, frame: Int64)] {
        outcome.events.filter { $0.type == .onAdImpression }.map { ($0.card, rate.frame(at: $0.time)) }
    }

    @Test func twoPlacementsOfASceneDrawnOverEachOtherAreFoundWithTheirSpans() async throws {
        let other = NativeFixtures.slider((0..<5).map { NativeFixtures.card("b\($0)") })
        let a = NativePlacement(id: "a", scene: "main", source: "a.json")
        let b = NativePlacement(id: "b", scene: "main", source: "b.json", top: 100)
        let outcome = try await Self.run("load slider a@0; load slider b@1", placements: [a, b],
                                         blocks: ["a.json": Self.five, "b.json": other])
        let overlap = try #require(outcome.firstOverlap())
        #expect(overlap.placement.id == "b" && overlap.other.id == "a")
        #expect(Self.rate.frame(at: overlap.time) == 30)
        #expect(overlap.span.lowerBound == 100 && overlap.otherSpan.lowerBound == 0 && overlap.otherSpan.upperBound > 100)
        // Where the first one ends, the second is clear of it; and before the second loads nothing overlaps.
        let below = NativePlacement(id: "b", scene: "main", source: "b.json", top: overlap.otherSpan.upperBound)
        #expect(try await Self.run("load slider a@0; load slider b@1", placements: [a, below],
                                   blocks: ["a.json": Self.five, "b.json": other]).firstOverlap() == nil)
        #expect(try await Self.run("load slider a@0", placements: [a, b], blocks: ["a.json": Self.five, "b.json": other])
            .firstOverlap() == nil)
    }

    @Test func aCardCountsOnceAfterOneSecondAtHalfVisibleAcrossSwipes() async throws {
        // Card 0 is on screen from frame 0 but a swipe at 0.5 s takes it below half by 0.657 s: no impression.
        // Card 1 passes half at 0.598 s (first frame 18), so it counts at frame 48. A swipe back at 3 s brings
        // card 0 past half at 3.143 s (frame 95): it counts at frame 125. Cards 2 to 4 are never reached.
        let outcome = try await Self.run("load slider@0; swipe left@0.5; swipe right@3", blocks: ["feed.json": Self.five])
        let found = Self.impressions(outcome)
        #expect(found.map(\.card) == [nil, 1, 0])
        #expect(found.map(\.frame) == [0, 48, 125])
        // Each impression fires the card's imptrackers and image-pixel event tracker, at the same time.
        let beacons = outcome.events.filter { $0.type == .beacon && $0.card == 1 }
        #expect(beacons.map { $0.columns.url } == ["https://t.example/imp/a1", "https://t.example/ev/a1"])
        #expect(beacons.allSatisfy { $0.columns.event == .impression && Self.rate.frame(at: $0.time) == 48 })
    }

    @Test func aCardCoveredByAFullScreenAdOrCutByItsWindowDoesNotCount() async throws {
        // Covered from 0.5 s to 2 s: the second starts again when the interstitial is dismissed.
        let covered = try await Self.run("load slider@0; present interstitial main@0.5; dismiss main@2",
                                         blocks: ["feed.json": Self.five])
        #expect(Self.impressions(covered).map(\.card) == [nil, 0])
        #expect(Self.impressions(covered).last?.frame == 90)
        // On its side the scene is 393 pt high; a slider 250 pt down shows its cards' top 107 of 304 pt only.
        let low = NativePlacement(id: "feed", scene: "main", source: "feed.json", top: 250)
        let cut = try await Self.run("rotate landscape@0; load slider@0", placements: [low], blocks: ["feed.json": Self.five])
        #expect(Self.impressions(cut).map(\.card) == [nil])
        let upright = try await Self.run("load slider@0", placements: [low], blocks: ["feed.json": Self.five])
        #expect(Self.impressions(upright).map(\.card) == [nil, 0])
    }

    @Test func theSwipeAnimatesLinearlyOverThreeTenthsOfASecond() async throws {
        let outcome = try await Self.run("load slider@0; swipe left@1", blocks: ["feed.json": Self.five])
        func cardX(_ index: Int, at seconds: Rational) -> Int? {
            outcome.layers(at: MediaTime(seconds: seconds)).first { $0.kind == .card(index: index, ad: "a\(index)") }?.rect.x
        }
        // iPhone 15 at 3/2 px/pt: card 1 starts at 12 + 320 + 8 = 340 pt (510 px) and ends at 12 pt (18 px);
        // halfway (1.15 s) it is at 176 pt (264 px).
        #expect(cardX(1, at: Rational(1)) == 510)
        #expect(cardX(1, at: Rational(23, 20)) == 264)
        #expect(cardX(1, at: Rational(13, 10)) == 18)
        #expect(cardX(1, at: Rational(2)) == 18)
    }

    @Test func scrollJumpsToACardAsFarAsTheRowAllowsAndSwipesStopAtTheEnds() async throws {
        let outcome = try await Self.run("load slider@0; swipe right@0.5; scroll 3@1; scroll 4@2; swipe left@3; scroll 9@4",
                                         blocks: ["feed.json": Self.five])
        func cardX(_ index: Int, at seconds: Int64) -> Int? {
            outcome.layers(at: MediaTime(seconds: seconds)).first { $0.kind == .card(index: index, ad: "a\(index)") }?.rect.x
        }
        // Card 3 at the leading inset (12 pt, 18 px) at once; the row is 12 + 5 × 320 + 4 × 8 + 12 = 1656 pt, so
        // the last position stops at 1656 − 393 = 1263 pt and card 4 sits at 12 + 4 × 328 − 1263 = 61 pt.
        #expect(cardX(3, at: 1) == 18)
        #expect(cardX(4, at: 2) == 2 * Int((Rational(61 * 3, 4)).rounded))
        #expect(outcome.events.filter { $0.columns.reason == .refused }.map { $0.columns.message }
                    == ["swipe right: no card further left", "swipe left: no card further right", "scroll 9: the slider shows 5 cards"])
    }

    @Test func aZeroSizeCardNeverCountsButTheBlockDoes() async throws {
        var template = NativeCardTemplate.default
        template.width = 0
        let cards = (0..<2).map { NativeFixtures.card("z\($0)", sponsoredRequired: false) }
            .map { $0.replacingOccurrences(of: #""required":1,"title""#, with: #""title""#) }
        let outcome = try await Self.run("load slider@0", placements: [NativePlacement(id: "feed", scene: "main", source: "z.json", template: template)],
                                         blocks: ["z.json": NativeFixtures.slider(cards)])
        #expect(!outcome.events.contains { $0.type == .onAdBindingFailure })
        #expect(Self.impressions(outcome).map(\.card) == [nil])
        #expect(outcome.layers(at: MediaTime(seconds: 2)).contains { $0.kind == .card(index: 0, ad: "z0") && $0.rect.width == 0 })
    }

    @Test func aCardMissingARequiredAssetFailsAloneAndTheNextTakesItsPlace() async throws {
        let cards = [NativeFixtures.card("a0"), NativeFixtures.card("a1", sponsored: ""), NativeFixtures.card("a2")]
        let outcome = try await Self.run("load slider@0; swipe left@2", blocks: ["feed.json": NativeFixtures.slider(cards)])
        let failures = outcome.events.filter { $0.type == .onAdBindingFailure }
        #expect(failures.map(\.card) == [1])
        #expect(failures[0].columns.message == "required asset id 4 (data sponsored) is laid out with zero size (0x0 pt)")
        let shown = outcome.layers(at: MediaTime(seconds: 3)).compactMap { if case .card(let i, _) = $0.kind { i } else { nil } }
        #expect(shown == [0, 2])
        #expect(Self.impressions(outcome).map(\.card) == [nil, 0, 2])
    }

    @Test func aBlockMissingItsRequiredAssetFailsBindingWithNoImpressionAtAll() async throws {
        let outcome = try await Self.run("load slider@0", blocks: ["feed.json": NativeFixtures.slider([NativeFixtures.card("a0")], blockSponsored: "")])
        #expect(outcome.events.filter { $0.type == .onAdBindingFailure }.map(\.card) == [nil])
        #expect(Self.impressions(outcome).isEmpty)
        #expect(outcome.layers(at: MediaTime(seconds: 1)).isEmpty)
    }

    @Test func anAdShownByOnePlacementIsLeftOutOfTheNextNamingIt() async throws {
        let placements = [NativePlacement(id: "top", scene: "main", source: "top.json"),
                          NativePlacement(id: "bottom", scene: "main", source: "bottom.json", top: 380)]
        let top = NativeFixtures.slider([NativeFixtures.card("shared"), NativeFixtures.card("t1", crid: "creative-x")])
        let bottom = NativeFixtures.slider([NativeFixtures.card("shared"), NativeFixtures.card("b1", crid: "creative-x"), NativeFixtures.card("b2")])
        let outcome = try await Self.run("load slider top@0; load slider bottom@1", placements: placements,
                                         blocks: ["top.json": top, "bottom.json": bottom])
        let duplicates = outcome.events.filter { $0.type == .onAdDuplicate }
        // The same ad id, then the same creative under another ad id.
        #expect(duplicates.map(\.ad) == ["shared", "b1"])
        #expect(duplicates.allSatisfy { $0.placement == "bottom" && $0.columns.native.otherPlacement == "top" })
        let bottomCards = outcome.layers(at: MediaTime(seconds: 2)).filter { $0.placement == "bottom" }
            .compactMap { if case .card(let i, let ad) = $0.kind { "\(i):\(ad)" } else { nil } }
        #expect(bottomCards == ["2:b2"])
        // The first card of the bottom slider is b2, at the row's leading edge.
        #expect(outcome.layers(at: MediaTime(seconds: 2)).first { $0.kind == .card(index: 2, ad: "b2") }?.rect.x == 18)
    }

    @Test func aSingleNativeAdShowsTheFirstCardAloneAndSharesTheRegistryWithASlider() async throws {
        let placements = [NativePlacement(id: "slider", scene: "main", source: "slider.json"),
                          NativePlacement(id: "single", scene: "main", source: "single.json", style: .single, top: 400)]
        let single = NativeFixtures.slider([NativeFixtures.card("a0"), NativeFixtures.card("s1"), NativeFixtures.card("s2")])
        let outcome = try await Self.run("load slider slider@0; load slider single@0; swipe left single@1; tap 67,533@2",
                                         placements: placements, blocks: ["slider.json": Self.five, "single.json": single])
        // a0 is the slider's, so the single ad shows s1 alone: no slider layer, no block assets, no s2.
        let layers = outcome.layers(at: MediaTime(seconds: 1)).filter { $0.placement == "single" }
        #expect(layers.first?.kind == .native(index: 1, ad: "s1"))
        #expect(layers.filter { $0.card != nil }.count == 1)
        #expect(layers.allSatisfy { if case .asset(_, let card, _, _) = $0.kind { card == 1 } else { $0.card != nil } })
        #expect(outcome.events.filter { $0.placement == "single" && $0.type == .onAdDuplicate }.map { $0.columns.native.otherPlacement } == ["slider"])
        // Its own impression after one second, no block impression; it does not swipe; a tap clicks it.
        let mine = outcome.events.filter { $0.placement == "single" }
        #expect(mine.filter { $0.type == .onAdImpression }.map { "\($0.card.map(String.init) ?? "block")@\($0.time.seconds)" } == ["1@1"])
        #expect(mine.filter { $0.columns.reason == .refused }.map { $0.columns.message } == ["swipe left single: a single native ad does not scroll"])
        #expect(mine.filter { $0.type == .onAdClick }.map { $0.columns.url } == ["https://shop.example/s1"])
    }

    @Test func aTapOnACardFiresItsClickAndClickTrackersAndTheBlockHasNoClick() async throws {
        // Card 0 covers x 12…332 pt, y 95…399 pt (the safe area starts at 59 pt, the row 36 pt below); the
        // block's header line is above it; at 4 s an interstitial covers the scene and takes the tap. Taps are in
        // the device's points.
        let outcome = try await Self.run("load slider@0; tap 67,200@1; tap 20,67@2; present interstitial main@3; tap 67,200@4",
                                         blocks: ["feed.json": Self.five])
        let clicks = outcome.events.filter { $0.type == .onAdClick }
        #expect(clicks.map(\.card) == [0])
        #expect(clicks.map { $0.columns.url } == ["https://shop.example/a0"])
        #expect(outcome.events.filter { $0.type == .beacon && $0.columns.event == .clickTracking }.map { $0.columns.url } == ["https://t.example/click/a0"])
    }

    /// A tap is in the device's points, so the same `tap X,Y` clicks the same card whatever the point scale (a
    /// `play` and a render of its command log may use different ones). Point 300,150 is on card 0 (x 12…332 pt,
    /// y 95…399 pt); read as pixels at 2 px per point it would be point 150,75, on the block's header above it.
    @Test func aTapInTheDevicesPointsClicksTheSameCardAtAnyPointScale() async throws {
        for scale in [Rational(1), Rational(3, 2), Rational(2)] {
            let outcome = try await Self.run("load slider@0; tap 300,150@1", blocks: ["feed.json": Self.five], seconds: 2,
                                             pointScale: PointScale(scale))
            let card = try #require(outcome.layers(at: MediaTime(seconds: 1)).first { $0.card?.index == 0 }).rect
            #expect(card.width == PointScale(scale).pixels(320), "card 0 at \(scale) px/pt: \(card)")
            #expect(outcome.events.filter { $0.type == .onAdClick }.map(\.card) == [0], "at \(scale) px/pt")
        }
    }

    @Test func aRotationLaysTheSliderOutAgainWithoutARequest() async throws {
        let screen = Self.screen([(2, .rotate(.landscape))])
        var loads = 0
        let run = try NativeScreenRun(screen: screen, placements: [NativePlacement(id: "feed", scene: "main", source: "f")],
                                      script: try SessionScript(parsing: "load slider@0"), frameRate: Self.rate,
                                      end: MediaTime(seconds: 3), measurer: MonospaceTextMeasurer())
        let outcome = await run.run { _ throws(NativeError) in
            loads += 1
            return try NativeFixtures.blockTyped(Self.five)
        }
        #expect(loads == 1)
        let portrait = try #require(outcome.layers(at: MediaTime(seconds: 1)).first { $0.kind == .slider })
        let landscape = try #require(outcome.layers(at: MediaTime(seconds: 2)).first { $0.kind == .slider })
        // The safe area's width: 393 pt upright, 852 − 2 × 59 = 734 pt on its side, at 3/2 px/pt.
        #expect(portrait.rect.width == 590)
        #expect(landscape.rect.width == 1102)
        #expect(outcome.events.filter { $0.type == .onAdLoad }.count == 1)
    }

    @Test func aPlaceholderShowsWhileLoadingAndImagesWaitForLoadImages() async throws {
        let placement = NativePlacement(id: "feed", scene: "main", source: "feed.json", loadImages: false,
                                              latency: MediaDuration(seconds: 1))
        let outcome = try await Self.run("load slider@0; load images@2", placements: [placement], blocks: ["feed.json": Self.five])
        #expect(outcome.layers(at: MediaTime(seconds: Rational(1, 2))).map(\.kind) == [.placeholder])
        #expect(outcome.events.filter { $0.type == .onAdLoadPhase }.map { "\($0.columns.native.phase!)@\($0.time.seconds)" } == ["idle@0", "loading@0", "loaded@1"])
        func imagePlaceholders(_ seconds: Int64) -> Int {
            outcome.layers(at: MediaTime(seconds: seconds)).filter {
                if case .asset(_, _, _, let placeholder) = $0.kind { placeholder } else { false }
            }.count
        }
        // Two cards in the viewport (the others are not drawn), each with its icon and main image.
        #expect(imagePlaceholders(1) == 4)
        #expect(imagePlaceholders(2) == 0)
        // The block's impression does not wait for images.
        #expect(Self.impressions(outcome).first.map { $0.card == nil && $0.frame == 30 } == true)
    }

    @Test func nativeCommandsParseAndNameTheirPlacement() throws {
        let script = try SessionScript(parsing: "load slider@0; load slider Feed@1; swipe LEFT@2; scroll 3 feed@3; load images@4")
        #expect(script.commands.map(\.command) == [.native(.loadSlider(placement: nil)), .native(.loadSlider(placement: "Feed")),
                                                    .native(.swipe(.left, placement: nil)), .native(.scroll(to: 3, placement: "feed")),
                                                    .native(.loadImages(placement: nil))])
        #expect(script.formatted() == "load slider@0; load slider Feed@1; swipe left@2; scroll 3 feed@3; load images@4")
        #expect(throws: ScriptError.badArgument(command: "swipe up@1", detail: "swipe takes left or right, as in \"swipe left\"")) {
            try SessionScript(parsing: "swipe up@1")
        }
        #expect(throws: NativeError.unknownPlacement(command: "load slider side@0", reason: #"no native placement is called "side" (there are "feed")"#)) {
            try NativeScreenRun(screen: Self.screen(), placements: [NativePlacement(id: "feed", scene: "main", source: "f")],
                                script: try SessionScript(parsing: "load slider side@0"), frameRate: Self.rate,
                                end: MediaTime(seconds: 1), measurer: MonospaceTextMeasurer())
        }
        let two = ["top", "bottom"].map { NativePlacement(id: $0, scene: "main", source: $0) }
        #expect(throws: NativeError.unknownPlacement(command: "swipe left@1", reason: #"name the placement, one of "top", "bottom""#)) {
            try NativeScreenRun(screen: Self.screen(), placements: two, script: try SessionScript(parsing: "swipe left@1"),
                                frameRate: Self.rate, end: MediaTime(seconds: 1), measurer: MonospaceTextMeasurer())
        }
    }
}
