import AdPlayback
@testable import Rendering
import Testing

/// The passthrough rule on its own: which frames are held back and copied, and which held-back ticks are encoded
/// when a run is cut, for content with IDRs every 60 ticks and 200 ticks in all, and ads of 45 ticks with IDRs at
/// 0 and 30.
@Suite struct PassthroughRunsTests {
    typealias Step = PassthroughRuns.Step
    typealias Ticks = PassthroughRuns.Ticks
    static let ad = SourceKey.ad(AdReference(0, 0))

    static func content(_ range: Range<Int64>) -> Ticks { Ticks(source: .content, range: range) }
    static func ad(_ range: Range<Int64>) -> Ticks { Ticks(source: ad, range: range) }

    /// Feeds `shown` (`nil`: a frame that does not show a copyable file whole) from output frame 0; returns each
    /// step. With `copyableAd`, the ad's pictures may be copied too.
    static func steps(_ shown: [(SourceKey, Int64)?], copyableAd: Bool = false) -> (steps: [Step], runs: PassthroughRuns) {
        var runs = PassthroughRuns(keyframes: [0, 60, 120, 180], contentFrames: 200)
        if copyableAd { runs.allow(ad, keyframes: [0, 30], frames: 45) }
        let steps = shown.enumerated().map { runs.step(frame: Int64($0.offset), shown: $0.element.map { (source: $0.0, tick: $0.1) }) }
        return (steps, runs)
    }

    static func content(ticks: Range<Int64>) -> [(SourceKey, Int64)?] { ticks.map { (.content, $0) } }
    static func ad(ticks: Range<Int64>) -> [(SourceKey, Int64)?] { ticks.map { (ad, $0) } }

    @Test func aWholeGOPIsHeldThenCopiedAndACutOneIsEncoded() {
        // Content 0–99, a 10-frame ad that cannot be copied, content 100–199: GOP 0–59 copied; 60–99 held, then
        // encoded when the ad comes; 100–119 drawn (the resumed GOP's start); 120–179 and 180–199 (the end) copied.
        let shown = Self.content(ticks: 0..<100) + Array(repeating: nil, count: 10) + Self.content(ticks: 100..<200)
        let (steps, runs) = Self.steps(shown)
        #expect(steps[59] == .hold(copy: Self.content(0..<60)) && steps[0..<59].allSatisfy { $0 == .hold() })
        #expect(steps[60..<100].allSatisfy { $0 == .hold() })
        #expect(steps[100] == .draw(encode: Self.content(60..<100)) && steps[101..<110].allSatisfy { $0 == .draw(encode: nil) })
        #expect(steps[110..<130].allSatisfy { $0 == .draw(encode: nil) })
        #expect(steps[189] == .hold(copy: Self.content(120..<180)) && steps[209] == .hold(copy: Self.content(180..<200)))
        #expect(runs.copied == [0..<60, 130..<190, 190..<210])
    }

    /// A seek breaks the run as a break does; a run still held at the end is given back to be encoded.
    @Test func aSeekEndsTheRunAndTheEndGivesBackWhatIsHeld() {
        var (steps, runs) = Self.steps([(.content, 0), (.content, 1), (.content, 2), (.content, 150), (.content, 151)])
        #expect(steps[3] == .draw(encode: Self.content(0..<3)) && steps[4] == .draw(encode: nil))
        (steps, runs) = Self.steps(Self.content(ticks: 120..<123))
        #expect(steps.allSatisfy { $0 == .hold() })
        #expect(runs.finish() == Self.content(120..<123) && runs.finish() == nil && runs.copied.isEmpty)
    }

    /// A seek onto an IDR encodes what was held and starts holding again at once: that GOP is copied.
    @Test func aSeekOntoAnIDRStartsANewRunAtOnce() {
        let (steps, runs) = Self.steps(Self.content(ticks: 0..<3) + Self.content(ticks: 120..<180))
        #expect(steps[3] == .hold(encode: Self.content(0..<3)))
        #expect(steps[62] == .hold(copy: Self.content(120..<180)))
        #expect(runs.copied == [3..<63])
    }

    /// An ad coded like the content, shown whole between two content GOPs that end at IDRs: content, ad and content
    /// are all copied, each run from its own file.
    @Test func aCopyableAdIsCopiedRunByRunFromItsOwnFile() {
        let shown = Self.content(ticks: 0..<60) + Self.ad(ticks: 0..<45) + Self.content(ticks: 60..<120)
        let (steps, runs) = Self.steps(shown, copyableAd: true)
        #expect(steps[59] == .hold(copy: Self.content(0..<60)))
        #expect(steps[89] == .hold(copy: Self.ad(0..<30)) && steps[104] == .hold(copy: Self.ad(30..<45)))
        #expect(steps[164] == .hold(copy: Self.content(60..<120)))
        #expect(runs.copied == [0..<60, 60..<90, 90..<105, 105..<165])
    }

    /// A break in the middle of a GOP: the content held since its IDR is encoded at the ad's first frame, which is
    /// held all the same; an ad cut short (skipped at its tick 40) has its held ticks encoded.
    @Test func aBreakMidGOPEncodesTheContentAndStillHoldsTheAdAndASkippedAdIsEncodedFromItsIDR() {
        let shown = Self.content(ticks: 0..<70) + Self.ad(ticks: 0..<40) + Self.content(ticks: 70..<80)
        let (steps, runs) = Self.steps(shown, copyableAd: true)
        #expect(steps[70] == .hold(encode: Self.content(60..<70)))
        #expect(steps[99] == .hold(copy: Self.ad(0..<30)))
        #expect(steps[110] == .draw(encode: Self.ad(30..<40)))
        #expect(runs.copied == [0..<60, 70..<100])
    }

    /// A file forgotten (its ad's media closed) is not copied again: shown again, it is drawn.
    @Test func aForgottenAdIsDrawnWhenShownAgain() {
        var (_, runs) = Self.steps(Self.ad(ticks: 0..<45) + Self.content(ticks: 0..<1), copyableAd: true)
        runs.forget(Self.ad)
        #expect(!runs.allows(Self.ad))
        // The content held since its IDR is given back to be encoded; the ad's frame is drawn.
        #expect(runs.step(frame: 46, shown: (Self.ad, 0)) == .draw(encode: Self.content(0..<1)))
    }

    /// `cut` alone ends a held run without taking the frame: what a failing ad needs before its media is closed.
    @Test func cutEndsTheHeldRunAndLeavesNothingHeld() {
        var (_, runs) = Self.steps(Self.ad(ticks: 0..<10), copyableAd: true)
        #expect(runs.cut(before: nil) == Self.ad(0..<10))
        #expect(runs.pending == nil && runs.finish() == nil)
    }
}
