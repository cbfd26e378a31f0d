import AdPlayback
import AdScreen
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import Testing
@testable import Verification

/// A hostile or broken timeline is refused by `verify` in one line naming its JSON path, before any number of it
/// sizes an allocation or a loop: every number is bounded by the output it describes (the good render: 390
/// frames of 320x180 at 30 fps, 48 kHz stereo; segments 0 pre-roll, 1 content, 2–3 the pod, 4 content).
@Suite struct TimelineBoundsTests {
    /// One way to break a copy of the good timeline, and the line verify must say about it.
    enum Hostile: String, CaseIterable, Sendable {
        case hugeSegmentEnd, hugeOutputFrames, zeroSampleRate, otherSampleRate, negativeStart, negativeTick,
             negativePadding, overlapping, outOfOrder, gap, emptySegment, tooManyTicks, pictureOutside,
             absurdFrameRate, zeroFrameRate, otherSourceRate, tickPastTheSource, negativeBreak,
             negativeLayerTick, layerOutside, bannerFarAway, cardImageFarAway, cardRadiusHuge, cardImageRadiusHuge

        func apply(to t: inout Timeline) {
            switch self {
            case .hugeSegmentEnd: t.segments[4].outEndFrame = 1_000_000_000_000_000
            case .hugeOutputFrames: t.output.frames = 1_000_000_000_000_000
            case .zeroSampleRate: t.output.sampleRate = 0
            case .otherSampleRate: t.output.sampleRate = 44100
            case .negativeStart: t.segments[0].outStartFrame = -5
            case .negativeTick: t.segments[1].srcStartTick = -1
            case .negativePadding: t.segments[1].sound.padded = -1
            case .overlapping: t.segments[2].outStartFrame -= 1
            case .outOfOrder: t.segments.swapAt(1, 2)
            case .gap: t.segments[3].outStartFrame += 1
            case .emptySegment: t.segments[1].outEndFrame = t.segments[1].outStartFrame
            case .tooManyTicks: t.segments[1].srcEndTick = t.segments[1].srcStartTick + t.segments[1].frameCount + 1
            case .pictureOutside: t.segments[1].picture.width = 100_000
            case .absurdFrameRate: t.output.fps = "9223372036854775807/1"
            case .zeroFrameRate: t.output.fps = "0/1"
            case .otherSourceRate: t.segments[1].sourceFps = "1000/1"
            case .tickPastTheSource:
                t.segments[4].srcStartTick = 1_000_000_000_000
                t.segments[4].srcEndTick = 1_000_000_000_000 + t.segments[4].frameCount
            case .negativeBreak: t.segments[2].breakIndex = -1
            case .negativeLayerTick, .layerOutside:
                // Another scene's player, as a multi-player render writes it.
                var layer = Timeline.Layer.player(.init(.content, .init(scene: "right", rect: t.segments[1].picture), source: t.segments[1].source,
                                                        playing: .init(srcStartTick: self == .negativeLayerTick ? -1 : 0, paused: false, ad: nil)))
                if self == .layerOutside { layer.rect.x = 300 }
                t.segments[1].screen.layers = [layer]
            case .bannerFarAway:
                // Any other layer may reach past the picture, but not a picture's size beyond it.
                t.segments[1].screen.layers = [.banner(.init(scene: "main", rect: PixelRect(x: -400, y: 0, width: 50, height: 20)), source: nil)]
            case .cardImageFarAway, .cardRadiusHuge, .cardImageRadiusHuge:
                // A card's image and corners size what verify draws, so they are bounded like its rect.
                let image = Timeline.Layer.CardImage(rect: .init(PixelRect(x: 20, y: 20, width: self == .cardImageFarAway ? 100_000 : 80, height: 40)),
                                                     radius: self == .cardImageRadiusHuge ? 1_000_000 : nil, source: nil)
                let card = Timeline.Layer.Card(index: nil, adID: nil, placement: "s", clip: .init(PixelRect(x: 0, y: 0, width: 320, height: 100)),
                                               radius: self == .cardRadiusHuge ? 1_000_000 : 12, image: image)
                t.segments[1].screen.layers = [.card(.init(scene: "main", rect: PixelRect(x: 10, y: 10, width: 100, height: 80)), card)]
            }
        }

        /// What follows `PATH: ` in the one-line failure.
        func reason(_ t: Timeline) -> String {
            let s = t.segments
            return switch self {
            case .hugeSegmentEnd: "segments[4].outEndFrame: 1000000000000000 is more than the output's 390 frames"
            case .hugeOutputFrames: "output.frames: 1000000000000000 is more than the output's 390 frames"
            case .zeroSampleRate: "output.sampleRate: 0 must be between 8000 and 192000 Hz"
            case .otherSampleRate: "output.sampleRate: 44100 is not the output's 48000 Hz"
            case .negativeStart: "segments[0].outStartFrame: -5 is not 0: the first segment starts the output"
            case .negativeTick: "segments[1].srcStartTick: -1 is negative"
            case .negativePadding: "segments[1].audioPadded: -1 is not within the segment's \(SampleClock(sampleRate: 48000, frameRate: FrameRate(30)).samples(fromFrame: s[1].outStartFrame, toFrame: s[1].outEndFrame)) samples"
            case .overlapping: "segments[2].outStartFrame: \(s[2].outStartFrame) is not where segments[1] ends, \(s[1].outEndFrame) (segments overlap, leave a gap or are out of order)"
            case .outOfOrder: "segments[1].outStartFrame: \(s[1].outStartFrame) is not where segments[0] ends, \(s[0].outEndFrame) (segments overlap, leave a gap or are out of order)"
            case .gap: "segments[3].outStartFrame: \(s[3].outStartFrame) is not where segments[2] ends, \(s[2].outEndFrame) (segments overlap, leave a gap or are out of order)"
            case .emptySegment: "segments[1].outEndFrame: \(s[1].outEndFrame) is not after its outStartFrame \(s[1].outStartFrame)"
            case .tooManyTicks: "segments[1].srcEndTick: \(s[1].srcEndTick) is not within its srcStartTick \(s[1].srcStartTick) + its \(s[1].frameCount) frames"
            case .pictureOutside: "segments[1].picture: 100000x\(s[1].picture.height) at (\(s[1].picture.x), \(s[1].picture.y)) is not inside the 320x180 picture"
            case .absurdFrameRate: "output.fps: 9223372036854775807 must be between 1 and 240"
            case .zeroFrameRate: "output.fps: 0/1 is not a frame rate"
            case .negativeLayerTick: "segments[1].layers[0].srcStartTick: -1 is negative or too large"
            case .layerOutside: "segments[1].layers[0].rect: \(s[1].picture.width)x\(s[1].picture.height) at (300, \(s[1].picture.y)) is not inside the 320x180 picture"
            case .bannerFarAway: "segments[1].layers[0].rect: 50x20 at (-400, 0) is not near the 320x180 picture"
            case .cardImageFarAway: "segments[1].layers[0].image: 100000x40 at (20, 20) is not near the 320x180 picture"
            case .cardRadiusHuge: "segments[1].layers[0].radius: 1000000 is not in 0…320"
            case .cardImageRadiusHuge: "segments[1].layers[0].imageRadius: 1000000 is not in 0…320"
            case .otherSourceRate: "segments[1].sourceFps: 1000/1 is not the frame rate of \(s[1].source), 30/1"
            // Followed by the source's resolved path and its length in ticks.
            case .tickPastTheSource: "segments[4].srcStartTick: 1000000000000 is past the end of "
            case .negativeBreak: "segments[2].break: -1 is negative"
            }
        }
    }

    @Test(arguments: Hostile.allCases)
    func aHostileTimelineIsOneLineNamingItsJSONPath(_ hostile: Hostile) throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        var timeline = renders.goodTimeline
        hostile.apply(to: &timeline)
        let path = try dir.write("hostile.timeline.json", try timeline.jsonData())
        let failure = try #require(throws: Verifier.Failure.self) {
            try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: path))
        }
        guard case .timeline(path, _) = failure else {
            Issue.record("gave \(failure)")
            return
        }
        let reason = hostile.reason(timeline)
        if hostile == .tickPastTheSource {
            #expect(failure.description.hasPrefix("\(path): \(reason)"), "\(failure)")
        } else {
            #expect(failure.description == "\(path): \(reason)")
        }
        #expect(!failure.description.contains("\n"))
    }

    /// Sixty thousand segments against a 390-frame output are refused by counting them, at once.
    @Test func sixtyThousandSegmentsAreRefusedInLinearTime() throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        var timeline = renders.goodTimeline
        let template = timeline.segments[1]
        timeline.segments = (0..<60_000).map { i in
            var s = template
            s.outStartFrame = Int64(i)
            s.outEndFrame = Int64(i) + 1
            s.srcStartTick = Int64(i)
            s.srcEndTick = Int64(i) + 1
            return s
        }
        let path = try dir.write("many.timeline.json", try timeline.jsonData())
        let cpuBefore = ProcessCPU.seconds()
        let failure = try #require(throws: Verifier.Failure.self) {
            try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: path))
        }
        let cpu = ProcessCPU.seconds() - cpuBefore
        #expect(failure.description == "\(path): segments: 60000 segments are more than the output's 390 frames")
        // Reading 60 000 segments of JSON takes a few seconds in a debug build; looking at each is what took minutes.
        #expect(cpu < 20, "took \(cpu) s of CPU")
    }

    /// A golden may be longer than the output: what lies past the output's frames is never read, so 60 000
    /// segments of it cost one pass.
    @Test func aGoldenOfSixtyThousandSegmentsIsReadOnlyAsFarAsTheOutput() throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        var golden = renders.goodTimeline
        let template = golden.segments[1]
        golden.segments = (0..<60_000).map { i in
            var s = template
            s.outStartFrame = Int64(i)
            s.outEndFrame = Int64(i) + 1
            s.srcStartTick = 0
            s.srcEndTick = 1
            return s
        }
        golden.output.frames = 60_000
        let path = try dir.write("golden.timeline.json", try golden.jsonData())
        let report = try Verifier.verify(.init(outputPath: renders.good.output.path, goldenPath: path))
        #expect(!report.passed)
        #expect(report.problems.contains("the output has 390 frames, expected 60000"), "\(report.problems)")
    }

    /// Numbers that are not whole (or do not fit in 64 bits) are named by path: Foundation alone says only
    /// "not valid JSON".
    @Test(arguments: [("1.5", "1.5"), ("1e30", "1e+30")])
    func aNumberThatIsNotWholeIsNamedByItsPath(_ literal: String, _ shown: String) throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let text = String(decoding: try renders.goodTimeline.jsonData(), as: UTF8.self)
        let edited = text.replacingOccurrences(of: "\"audioDrift\" : ", with: "\"audioDrift\" : \(literal), \"x\" : ")
        let failure = try #require(throws: TimelineError.self) { try Timeline.decode(Data(edited.utf8)) }
        #expect(failure == .malformed(jsonPath: "segments[0].audioDrift", reason: "\(shown) is not a whole number of 64 bits"))
        #expect(failure.description == "not a pipctl timeline: segments[0].audioDrift: \(shown) is not a whole number of 64 bits")
    }

    @Test func aValueOfTheWrongTypeIsNamedByItsPath() throws {
        let failure = try #require(throws: TimelineError.self) {
            try Timeline.decode(Data(#"{"version": 1, "output": {"path": "o.mp4", "fps": "30/1", "width": "wide"}}"#.utf8))
        }
        #expect(failure.jsonPath == "output.width")
        #expect(failure.description.hasPrefix("not a pipctl timeline: output.width: "))
    }

    /// The literal `1e15` is a whole number JSON allows: it is read, then bounded.
    @Test func theLiteral1e15IsReadAndThenBounded() throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        let text = String(decoding: try renders.goodTimeline.jsonData(), as: UTF8.self)
        let edited = text.replacingOccurrences(of: "\"frames\" : 390", with: "\"frames\" : 1e15")
        #expect(edited != text)
        let path = try dir.write("e15.timeline.json", edited)
        let failure = try #require(throws: Verifier.Failure.self) {
            try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: path))
        }
        #expect(failure.description == "\(path): output.frames: 1000000000000000 is more than the output's 390 frames")
    }
}
