import AdPlayback
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification

/// The golden comparisons that need no media: windows, layers or events that one side has and the other lacks,
/// each named in words. (Edited copies of real renders are in `EndToEnd.GoldenVerifyTests`.)
@Suite struct GoldenComparisonTests {
    static func segment(_ start: Int64, _ end: Int64, pip: PixelRect? = nil, layers: [Timeline.Layer]? = nil) -> Timeline.Segment {
        var s = Timeline.Segment(kind: .content, source: "content.mp4", sourceFps: "30/1", breakIndex: nil, adIndex: nil,
                                 outStartFrame: start, outEndFrame: end, srcStartTick: start, srcEndTick: end, srcStart: 0,
                                 srcEnd: 0, paused: false, pip: pip.map(Timeline.Rect.init),
                                 picture: Timeline.Rect(PixelRect(x: 0, y: 0, width: 320, height: 180)), audioStart: 0,
                                 sourceAudioStart: 0, audioPadded: 0, audioDrift: 0)
        s.screen.layers = layers
        return s
    }

    static func timeline(_ segments: [Timeline.Segment]) -> Timeline {
        Timeline(output: .init(path: "out.mp4", fps: "30/1", width: 320, height: 180, frames: segments.last?.outEndFrame ?? 0,
                               duration: 0, sampleRate: 48000, channels: 2, audioSamples: 0, profile: "delivery"),
                 content: .init(path: "content.mp4", fps: "30/1", frames: 180, duration: 6), segments: segments)
    }

    static let corner = PixelRect(x: 200, y: 110, width: 100, height: 56)

    @Test func consecutiveSegmentsInOneWindowAreOneWindowAndAMissingWindowIsNamed() {
        let two = Self.timeline([Self.segment(0, 30), Self.segment(30, 45, pip: Self.corner), Self.segment(45, 60, pip: Self.corner),
                                 Self.segment(60, 90), Self.segment(90, 120, pip: Self.corner)])
        let one = Self.timeline([Self.segment(0, 30), Self.segment(30, 60, pip: Self.corner), Self.segment(60, 120)])
        #expect(GoldenComparison.pictureInPictureWindows(two).map { [$0.start, $0.end] } == [[30, 60], [90, 120]])
        #expect(GoldenComparison.firstPictureInPictureDifference(two, golden: one)
                == "picture in picture window 2 at (200,110 100x56), output frames 90–119, is not in the golden (it has 1)")
        #expect(GoldenComparison.firstPictureInPictureDifference(one, golden: two)
                == "the golden has picture in picture window 2 at (200,110 100x56), output frames 90–119; the output has 1")
        #expect(GoldenComparison.firstPictureInPictureDifference(two, golden: two) == nil)
    }

    @Test func aLayerTheGoldenLacksOrAChangedSourceIsNamed() {
        let content = Timeline.Layer.player(.init(.content, .init(scene: "main", rect: PixelRect(x: 0, y: 0, width: 320, height: 180)),
                                                  source: "content.mp4"))
        let bannerArea = Timeline.Layer.Area(scene: "main", rect: PixelRect(x: 0, y: 130, width: 320, height: 50))
        let banner = Timeline.Layer.banner(bannerArea, source: "banner.png")
        let other = Timeline.Layer.banner(bannerArea, source: "other.png")
        let withBanner = Self.timeline([Self.segment(0, 30, layers: [content]), Self.segment(30, 60, layers: [content, banner])])
        let without = Self.timeline([Self.segment(0, 30, layers: [content]), Self.segment(30, 60, layers: [content])])
        let otherBanner = Self.timeline([Self.segment(0, 30, layers: [content]), Self.segment(30, 60, layers: [content, other])])
        #expect(GoldenComparison.layerRuns(without).map { [$0.start, $0.end] } == [[0, 60]])
        #expect(GoldenComparison.firstLayerDifference(withBanner, golden: without)
                == "the screen layers change at output frame 30, the golden says 60")
        let shorter = Self.timeline([Self.segment(0, 30, layers: [content])])
        #expect(GoldenComparison.firstLayerDifference(withBanner, golden: shorter)
                == "the screen layers change 1 times, the golden 0 (first difference at output frame 30)")
        #expect(GoldenComparison.firstLayerDifference(withBanner, golden: otherBanner)
                == "screen layer 2 from output frame 30, the banner of scene \"main\", shows banner.png, the golden other.png")
        let bannerFromStart = Self.timeline([Self.segment(0, 60, layers: [content, banner])])
        #expect(GoldenComparison.firstLayerDifference(without, golden: bannerFromStart)
                == "from output frame 0 the screen has 1 layers, the golden 2: missing: banner of scene \"main\"")
    }

    /// A Slide Over window's shadow is a screen layer like the others: drawn elsewhere, or cast from elsewhere, it is
    /// named.
    @Test func aMovedOrDifferentlyCastShadowIsNamed() {
        let caster = PixelRect(x: 200, y: 0, width: 120, height: 180)
        func shadow(_ rect: PixelRect, _ caster: PixelRect, reach: Int = 24) -> Timeline.Layer {
            Timeline.Layer(shadow: ScreenLayer(scene: "side", kind: .shadow, rect: rect,
                                               shadow: .init(caster: caster, radius: 4, reach: reach)))
        }
        let drawn = PixelRect(x: 176, y: 0, width: 144, height: 180)
        let output = Self.timeline([Self.segment(0, 30, layers: [shadow(drawn, caster)])])
        let moved = Self.timeline([Self.segment(0, 30, layers: [shadow(PixelRect(x: 160, y: 0, width: 160, height: 180), caster)])])
        let wider = Self.timeline([Self.segment(0, 30, layers: [shadow(drawn, caster, reach: 30)])])
        #expect(GoldenComparison.firstLayerDifference(output, golden: output) == nil)
        #expect(GoldenComparison.firstLayerDifference(output, golden: moved)
                == "screen layer 1 from output frame 0, the shadow of scene \"side\", is at (176,0 144x180), the golden has it at (160,0 160x180)")
        #expect(GoldenComparison.firstLayerDifference(output, golden: wider)
                == "screen layer 1 from output frame 0, the shadow of scene \"side\", is cast by (200,0 120x180), 24 px out, the golden's by (200,0 120x180), 30 px out")
    }

    @Test func anExtraOrMissingEventIsNamedAndLogLinesAreNotCompared() {
        let started = SessionEvent(.ad(.started, AdReference(0, 0)), time: 0, frame: 0, contentTime: 0)
        let complete = SessionEvent(.ad(.complete, AdReference(0, 0)), time: 1, frame: 30, contentTime: 0)
        let log = SessionEvent(.log(.session, reason: nil, message: "a warning"), time: 0.5, frame: 15, contentTime: 0)
        let command = SessionEvent(.command("pip off"), time: 1, frame: 30, contentTime: 1)
        #expect(GoldenComparison.firstEventDifference([started, log, complete], golden: [started, complete]) == nil)
        #expect(GoldenComparison.firstEventDifference([started, complete], golden: [started])
                == "event 2: COMPLETE of break 0 ad 0 at output frame 30 is not in the golden (it has 1 events)")
        #expect(GoldenComparison.firstEventDifference([started], golden: [started, command])
                == "event 2: the golden has COMMAND \"pip off\" at output frame 30; the output's log ends after 1 events")
    }

    @Test func aGoldensEventLogIsTheOneBesideIt() {
        #expect(GoldenComparison.eventLogPath(ofTimeline: "/g/out.mp4.timeline.json") == "/g/out.mp4.events.jsonl")
        #expect(GoldenComparison.eventLogPath(ofTimeline: "/g/hls/timeline.json") == "/g/hls/events.jsonl")
        #expect(GoldenComparison.eventLogPath(ofTimeline: "/g/golden.json") == nil)
    }
}
