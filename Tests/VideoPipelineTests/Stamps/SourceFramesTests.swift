import MediaCore
import Testing
@testable import VideoPipeline

/// `SourceFrames` predicts exactly the frame `VideoTrack` shows on each output tick, from hand-made frame times.
@Suite struct SourceFramesTests {
    /// `VideoTrack.frame(atTick:)`'s loop written out plainly: the first frame is taken at once; the next one
    /// takes over while it is at least as near to the tick as the current one; the last one holds.
    private func simulate(_ starts: [MediaTime], ticks: ClosedRange<Int64>, rate: FrameRate) -> [Int] {
        var current: Int?
        var next = 0
        return ticks.map { tick in
            let target = rate.time(ofFrame: tick)
            while next < starts.count, current.map({ starts[next] - target <= target - starts[$0] }) ?? true {
                current = next
                next += 1
            }
            return current ?? 0
        }
    }

    private func predicted(_ starts: [MediaTime], ticks: ClosedRange<Int64>, rate: FrameRate) -> [Int] {
        let frames = SourceFrames(starts: starts)
        return ticks.map { frames.frame(atTick: $0, outputRate: rate) }
    }

    private func times(_ milliseconds: [Int64]) -> [MediaTime] {
        milliseconds.map { MediaTime(seconds: Rational($0, 1000)) }
    }

    /// Checks every tick of `0...last`, and every run starting part-way (a segment resuming at `srcStartTick`).
    private func expectSameAsRenderer(_ starts: [MediaTime], last: Int64, rate: FrameRate) {
        #expect(predicted(starts, ticks: 0...last, rate: rate) == simulate(starts, ticks: 0...last, rate: rate))
        for first in stride(from: Int64(1), through: last, by: 7) {
            #expect(predicted(starts, ticks: first...last, rate: rate) == simulate(starts, ticks: first...last, rate: rate),
                    "from tick \(first)")
        }
    }

    @Test func constantRateSourcesShowTheNearestFrameTheLaterOnATie() {
        for (source, output) in [(FrameRate(25), FrameRate(30)), (FrameRate(30), FrameRate(25)), (FrameRate(24), FrameRate(48)),
                                 (FrameRate(30000, 1001), FrameRate(30)), (FrameRate(60), FrameRate(24))] {
            let starts = (0..<50).map { source.time(ofFrame: $0) }
            expectSameAsRenderer(starts, last: 80, rate: output)
            // Independent of the loop: for a constant rate the rule is ⌊j × Fs / F + ½⌋, held at the last frame.
            let formula = (0...Int64(80)).map { j in
                min(49, Int((Rational(j) * source.perSecond / output.perSecond + Rational(1, 2)).floor))
            }
            #expect(predicted(starts, ticks: 0...80, rate: output) == formula, "\(source) at \(output)")
        }
    }

    @Test func variableRateSourcesFollowEachFramesRealTime() {
        // Frames of 40, 20, 60, 33, 100 and 7 ms: a camera's irregular timing, ties with the 25 fps ticks included.
        let starts = times([0, 40, 60, 120, 153, 253, 260, 300, 340, 380, 500])
        expectSameAsRenderer(starts, last: 20, rate: FrameRate(25))
        expectSameAsRenderer(starts, last: 40, rate: FrameRate(60))
        expectSameAsRenderer(starts, last: 20, rate: FrameRate(24000, 1001))
    }

    @Test func aLateStartShowsTheFirstFrameUntilItIsNearest() {
        // The video starts 200 ms after the file (its audio) does; Opus pre-roll makes a negative start.
        expectSameAsRenderer(times([200, 240, 280, 320, 360]), last: 15, rate: FrameRate(25))
        expectSameAsRenderer(times([-7, 33, 73, 113]), last: 10, rate: FrameRate(30))
        let late = SourceFrames(starts: times([200, 240, 280]))
        #expect(late.frame(atTick: 0, outputRate: FrameRate(25)) == 0)
    }

    @Test func timestampsThatGoBackwardsAreFollowedAsTheRendererFollowsThem() {
        // Frame 3 starts before frame 2 (a broken muxer); frame 6 jumps far ahead and 7 comes back.
        let starts = times([0, 40, 120, 80, 160, 200, 600, 240, 280, 320])
        expectSameAsRenderer(starts, last: 20, rate: FrameRate(25))
        expectSameAsRenderer(starts, last: 30, rate: FrameRate(50))
    }

    @Test func oneFrameAndTwoFrameSourcesHoldTheirLastFrame() {
        expectSameAsRenderer(times([0]), last: 5, rate: FrameRate(25))
        expectSameAsRenderer(times([0, 40]), last: 5, rate: FrameRate(25))
        expectSameAsRenderer(times([10, 10, 10]), last: 5, rate: FrameRate(25))
    }
}
