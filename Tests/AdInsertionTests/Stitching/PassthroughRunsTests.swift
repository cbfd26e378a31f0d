import Testing
@testable import AdInsertion

/// The passthrough rule on its own: which frames are held back and copied, and which held-back ticks are encoded
/// when a run is cut, for content with IDRs every 60 ticks and 200 ticks in all.
@Suite struct PassthroughRunsTests {
    typealias Step = PassthroughRuns.Step

    /// Feeds `ticks` (`nil`: a frame that does not show the content whole) from output frame 0; returns each step.
    static func steps(_ ticks: [Int64?]) -> (steps: [Step], runs: PassthroughRuns) {
        var runs = PassthroughRuns(keyframes: [0, 60, 120, 180], contentFrames: 200)
        let steps = ticks.enumerated().map { runs.step(frame: Int64($0.offset), tick: $0.element) }
        return (steps, runs)
    }

    @Test func aWholeGOPIsHeldThenCopiedAndACutOneIsEncoded() {
        // Content 0–99, a 10-frame ad, content 100–199: GOP 0–59 copied; 60–99 held, then encoded when the ad
        // comes; 100–119 drawn (the resumed GOP's start); 120–179 and 180–199 (the content's end) copied.
        let ticks: [Int64?] = Array(0..<100).map { $0 } + Array(repeating: nil, count: 10) + Array(100..<200).map { $0 }
        let (steps, runs) = Self.steps(ticks)
        #expect(steps[59] == .hold(copy: 0..<60) && steps[0..<59].allSatisfy { $0 == .hold(copy: nil) })
        #expect(steps[60..<100].allSatisfy { $0 == .hold(copy: nil) })
        #expect(steps[100] == .draw(encode: 60..<100) && steps[101..<110].allSatisfy { $0 == .draw(encode: nil) })
        #expect(steps[110..<130].allSatisfy { $0 == .draw(encode: nil) })
        #expect(steps[189] == .hold(copy: 120..<180) && steps[209] == .hold(copy: 180..<200))
        #expect(runs.copied == [0..<60, 130..<190, 190..<210])
    }

    /// A seek breaks the run as a break does; a run still held at the end is given back to be encoded.
    @Test func aSeekEndsTheRunAndTheEndGivesBackWhatIsHeld() {
        var (steps, runs) = Self.steps([0, 1, 2, 150, 151])
        #expect(steps[3] == .draw(encode: 0..<3) && steps[4] == .draw(encode: nil))
        (steps, runs) = Self.steps([120, 121, 122])
        #expect(steps.allSatisfy { $0 == .hold(copy: nil) })
        #expect(runs.finish() == 120..<123 && runs.finish() == nil && runs.copied.isEmpty)
    }
}
