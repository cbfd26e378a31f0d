import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// Audio never accumulates rounding: output frame `n` owns samples `[A(n), A(n+1))` and every segment reads its
/// source from exactly `S(srcStartTick)`, so however many splices a render has, each is corrected by at most one
/// sample and none drifts.
@Suite struct StitchAudioTests {
    /// The content's own 30 fps (1600 samples a frame), and 30000/1001 (1601.6 samples a frame: frames own 1601
    /// or 1602 samples, where rounding would accumulate if anything summed per-frame counts).
    static let outputRates = [FrameRate(30), FrameRate(30000, 1001)]

    @Test(arguments: outputRates)
    func twentySplicesInOneRenderKeepEverySampleInPlace(rate: FrameRate) throws {
        let media = try StampedMedia.shared
        // Ten mid-rolls at cue points between frames (0.95 s, 1.85 s, …, 9.05 s): twenty splices. The 36-frame
        // ad first, so that at 30000/1001 fps the content resumes out of phase with the output's sample clock.
        let ads = [media.mono, media.ad24, media.ad25, media.ad2997, media.ad60]
        let cues = (1...10).map { MediaTime(seconds: Rational(Int64(90 * $0 + 5), 100)) }
        let breaks = cues.enumerated().map { i, cue in "\(cue.seconds.doubleValue)=\(ads[i % ads.count].name)" }
        let plan = try media.plan(breaks)
        #expect(plan.breaks.map(\.position) == cues.map { .midroll($0) })

        let dir = try TemporaryDirectory()
        var request = media.request(plan, output: dir.path + "/out.mp4")
        request.format.frameRate = rate
        let result = try Stitcher.render(request)
        let report = try StampedMedia.expectGoodRender(result, request)
        let timeline = result.timeline
        let clock = rate.sampleClock(48000)

        #expect(timeline.output.fps == rate.perSecond.fraction)
        #expect(timeline.segments.count == 21)
        #expect(timeline.segments.map(\.kind) == (0..<21).map { $0 % 2 == 0 ? .content : .ad })
        // Each break starts at the first content tick at or after its cue (`k / F ≥ T`), after the ads before it.
        var adFramesBefore: Int64 = 0
        for (segment, cue) in zip(StampedMedia.adSegments(timeline), cues) {
            #expect(segment.outStartFrame == adFramesBefore + rate.firstFrame(atOrAfter: cue))
            adFramesBefore += segment.frameCount
        }
        for segment in timeline.segments {
            #expect(segment.sound.start == clock.sample(atFrame: segment.outStartFrame))
            #expect(abs(segment.sound.drift) <= 1, "segment at \(segment.outStartFrame) corrected by \(segment.sound.drift)")
            switch segment.kind {
            case .content: #expect(segment.sound.sourceStart == clock.sample(atFrame: segment.srcStartTick))
            case .ad: #expect(segment.sound.sourceStart == 0)
            }
        }
        #expect(timeline.output.audioSamples == clock.sample(atFrame: timeline.output.frames))
        // Inside the content nothing is silent, not even where a correction steps back (`audioDrift` −1: the sample
        // is read again); only the end may be padded, where the content's sound runs out.
        for segment in timeline.segments.dropLast() where segment.kind == .content {
            #expect(segment.sound.padded == 0, "content at \(segment.outStartFrame)")
        }
        if rate != FrameRate(30) {
            // Out of phase, the splices do need their one-sample corrections: this render exercises them.
            #expect(timeline.segments.contains { $0.sound.drift != 0 })
        }
        // The verifier hears every splice, each within one frame of its video.
        #expect(report.audioBoundaries.count == 20)
        #expect(report.audioBoundaries.map(\.frame) == timeline.segments.dropFirst().map(\.outStartFrame))
        #expect(report.audioBoundaries.allSatisfy { $0.ok && abs($0.offsetFrames ?? 2) <= 1 })
    }
}
