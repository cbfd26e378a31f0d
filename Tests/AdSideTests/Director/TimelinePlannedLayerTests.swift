import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// One layer vocabulary (issue 37): what the timeline records of a frame plan turns back into the planner's layers
/// (`Timeline.Segment.planned`), which verify draws through the renderer's own draw. Planner layer → timeline record →
/// planner layer, on every frame of sessions that between them show every kind of layer a planner makes.
@Suite struct TimelinePlannedLayerTests {
    static let rate = FrameRate(30)
    static let media = FramePlanTests.media

    /// `layer` with its picture named as the timeline names it: the file `catalog` says the reference was read from,
    /// at the frame or tick the renderer reads.
    static func named(_ layer: PlannedLayer, frame: Int64, catalog: FetchedCreatives, background: String?) throws -> PlannedLayer {
        guard case .picture(let reference, let fit, let placeholder) = layer.content else { return layer }
        let recorded: MediaReference
        switch reference {
        case .banner(let scene, let f):
            recorded = .recorded(source: try #require(catalog.bannerSource(of: scene, at: rate.time(ofFrame: frame))), .looping(f))
        case .fullScreenImage(let request, let f):
            guard case .image(let source)? = catalog.fullScreenCreative(request: request) else { throw Failure("request \(request) is no image") }
            recorded = .recorded(source: source, .untimed(f))
        case .fullScreenVideo(let request, let tick):
            guard case .video(let source)? = catalog.fullScreenCreative(request: request) else { throw Failure("request \(request) is no video") }
            recorded = .recorded(source: source, .tick(tick))
        case .nativeImage(let url):
            recorded = .recorded(source: try #require(catalog.nativeImage(url)?.source), .tick(0))
        case .pictureInPictureBackground(let f):
            recorded = .recorded(source: try #require(background), .looping(f))
        case .player, .nativeVideo, .recorded:
            return layer
        }
        var named = layer
        named.content = .picture(recorded, fit, placeholder: placeholder)
        return named
    }

    struct Failure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    /// The segment a timeline would write for `plan`'s frame alone: the primary player's tick and ad, and the plan's
    /// timeline layers.
    static func segment(_ plan: FramePlan, _ decision: FrameDecision) -> Timeline.Segment {
        var ad: AdReference?
        if case .ad(let reference, _) = decision.source { ad = reference }
        var segment = Timeline.Segment(kind: ad == nil ? .content : .ad, source: "content.mp4", sourceFps: "30/1", breakIndex: ad?.breakIndex,
                                       adIndex: ad?.adIndex, outStartFrame: plan.frame, outEndFrame: plan.frame + 1,
                                       srcStartTick: decision.source.tick, srcEndTick: decision.source.tick + 1, srcStart: 0, srcEnd: 0,
                                       paused: decision.isPaused, pip: nil, picture: .init(PixelRect(x: 0, y: 0, width: 2, height: 2)),
                                       audioStart: 0, sourceAudioStart: 0, audioPadded: 0, audioDrift: 0)
        segment.screen = .init(display: (decision.screen?.display).map { Timeline.Rect($0) }, layers: plan.timeline)
        return segment
    }

    /// Whether `part` is `whole` with some of its elements left out, in order.
    static func isOrderedSubset(_ part: [PlannedLayer], of whole: [PlannedLayer]) -> Bool {
        var rest = whole[...]
        for layer in part {
            guard let k = rest.firstIndex(of: layer) else { return false }
            rest = rest[(k + 1)...]
        }
        return true
    }

    /// Runs the session file at `path` through the director and planner, checks the round trip on every frame, and
    /// gives the kinds of timeline layer it saw.
    static func roundTrip(_ path: String) async throws -> Set<ScreenLayer.Kind> {
        let (director, native, catalog) = try await FramePlanTests.session(path, contentFrames: 600)
        let canvas = director.planner.canvas
        var kinds: Set<ScreenLayer.Kind> = []
        while let decision = director.nextFrame()?.decision {
            let plan = director.plan(decision, source: "content.mp4")
            let segment = segment(plan, decision)
            kinds.formUnion((segment.screen.layers ?? []).map(\.kind))
            let recorded = segment.plannedLayers(atFrame: plan.frame, canvas: canvas)
            let planned = try plan.layers.map { try named($0, frame: plan.frame, catalog: catalog, background: nil) }
            if native == nil {
                #expect(recorded == planned, "frame \(plan.frame)")
            } else {
                // A card's text, call to action, icon beside its image and feedback button are not in a timeline.
                #expect(isOrderedSubset(recorded, of: planned), "frame \(plan.frame): \(recorded) not among \(planned)")
            }
            if native == nil ? recorded != planned : !isOrderedSubset(recorded, of: planned) { break }
        }
        return kinds
    }

    @Test func aBannerSliderAndCardsOfARotatingScreenComeBackAsPlanned() async throws {
        let kinds = try await Self.roundTrip(Self.media.appendingPathComponent("rotating-slider.session.json").path)
        #expect(kinds.isSuperset(of: [.content, .banner, .slider, .card]), "\(kinds)")
    }

    @Test func splitViewsDividerAndAFullScreenImageComeBackAsPlanned() async throws {
        let kinds = try await Self.roundTrip(Self.media.appendingPathComponent("multiwindow.session.json").path)
        #expect(kinds.isSuperset(of: [.content, .banner, .divider, .fullscreen]), "\(kinds)")
    }

    @Test func thePictureInPictureWindowAndItsBackdropComeBackAsPlanned() async throws {
        let kinds = try await Self.roundTrip(Self.media.appendingPathComponent("pip.session.json").path)
        #expect(kinds.isSuperset(of: [.content, .pip]), "\(kinds)")
    }

    @Test func slideOversEdgeAndShadowComeBackAsPlanned() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("planned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = dir.appendingPathComponent("slide.session.json")
        try Data("""
        {"device": "ipad-11", "orientation": "landscape", "layout": "slide-over",
         "scenes": [{"id": "main", "state": "foregroundActive", "player": {"content": "\(Self.media.path)/content.mp4"}},
                    {"id": "side", "interstitial": {"source": "\(Self.media.path)/interstitial.png"}}],
         "script": ["present interstitial side@0.5", "quit@1"]}
        """.utf8).write(to: session)
        let kinds = try await Self.roundTrip(session.path)
        #expect(kinds.isSuperset(of: [.content, .edge, .shadow, .fullscreen]), "\(kinds)")
    }

    /// The kinds no bundled session shows a planner making here: each turns into what the planner makes of it.
    @Test func anOverlayAnAdsWindowASingleNativeAdAndAFullScreenVideoOrPlaceholderTurnIntoThePlannersLayers() throws {
        let rect = PixelRect(x: 10, y: 20, width: 300, height: 200), area = Timeline.Layer.Area(scene: "s", rect: rect)
        var segment = Timeline.Segment(kind: .ad, source: "ad.mp4", sourceFps: "30/1", breakIndex: 1, adIndex: 0, outStartFrame: 30,
                                       outEndFrame: 60, srcStartTick: 0, srcEndTick: 30, srcStart: 0, srcEnd: 1, paused: false, pip: nil,
                                       picture: .init(rect), audioStart: 0, sourceAudioStart: 0, audioPadded: 0, audioDrift: 0)
        segment.screen = .init(layers: [])
        func planned(_ layer: Timeline.Layer) -> [PlannedLayer] { segment.planned(layer, atFrame: 40) }
        #expect(planned(.overlay(area)) == [PlannedLayer(.color(.overlay), in: rect, scene: "s")])
        #expect(planned(.player(.init(.ad, area, source: "ad.mp4")))
                == [PlannedLayer(.picture(.player("s", .ad(AdReference(1, 0), tick: 10)), .letterbox), in: rect, scene: "s")])
        #expect(planned(.fullScreen(area, .placeholder)) == [PlannedLayer(.color(.fullScreenPlaceholder), in: rect, scene: "s")])
        #expect(planned(.fullScreen(area, .video(source: "/v.mp4", srcStartTick: 3)))
                == [PlannedLayer(.color(.black), in: rect, scene: "s"),
                    PlannedLayer(.picture(.recorded(source: "/v.mp4", .tick(13)), .letterbox), in: rect, scene: "s")])
        let image = PixelRect(x: 20, y: 30, width: 100, height: 50), clip = PixelRect(x: 0, y: 0, width: 200, height: 400)
        let card = Timeline.Layer.Card(index: 0, adID: "a", placement: "p", clip: .init(clip), radius: 12,
                                       image: .init(rect: .init(image), radius: 6, source: "/i.png"))
        #expect(planned(.native(area, card))
                == [PlannedLayer(.roundedRect(.card, radius: 12), in: rect, clip: clip, scene: "s"),
                    PlannedLayer(.picture(.recorded(source: "/i.png", .tick(0)), .crop), in: image, clip: clip, scene: "s"),
                    PlannedLayer(.corners(.card, radius: 6), in: image, clip: clip, scene: "s")])
        // Another scene's player, held: its own tick, not the segment's.
        let held = Timeline.Layer.player(.init(.content, area, source: "/c.mp4", playing: .init(srcStartTick: 7, paused: true, ad: nil)))
        #expect(planned(held) == [PlannedLayer(.picture(.player("s", .content(tick: 7)), .letterbox), in: rect, scene: "s")])
    }
}
