import MediaCore
import Serving
import Testing

/// `SoundBalance`: each ad's ending, chosen so that the sum of the splices' overlaps (what a reader that plays the
/// segments' sound one after the other is off by) stays near zero, and no splice goes past one AAC frame.
@Suite struct SoundBalanceTests {
    typealias Ad = SoundBalance.Ad

    /// The sum of the overlaps after every ad, with the endings `choice` takes.
    static func sums(_ ads: [Ad], _ choice: [Bool]) -> [Rational] {
        var sum = Rational.zero
        return zip(ads, choice).map { ad, alternate in
            sum += ad.spliceIn + (alternate ? ad.alternateOverrun! : ad.overrun) + ad.nextLead
            return sum
        }
    }

    /// ServeSoundSpliceTests' pod: the content before the break ends 192 samples past its last picture and resumes
    /// 192 after its first (the cut's one packet boundary); each 3 s ad ends 384 past its pictures, or 640 before
    /// them with its alternate ending. Each ad's own ending leaves the stream 768 late; the first ad's alternate
    /// brings it back to -256.
    @Test func aPodTakesTheEndingsThatBringTheSumBackNearZero() {
        let ads = [Ad(spliceIn: Rational(192), overrun: Rational(384), alternateOverrun: Rational(-640), nextLead: Rational(0)),
                   Ad(spliceIn: Rational(0), overrun: Rational(384), alternateOverrun: Rational(-640), nextLead: Rational(-192))]
        #expect(Self.sums(ads, [false, false]).last == Rational(768))
        let choice = SoundBalance.choose(ads)
        #expect(choice == [true, false])
        #expect(Self.sums(ads, choice) == [Rational(-448), Rational(-256)])
    }

    /// A post-roll after content whose sound ends 512 samples before its last picture: the ad's sound ending 640
    /// past its pictures makes up for it, where its own (384 before) would leave the stream 896 early.
    @Test func aPostRollMakesUpForTheContentsEnd() {
        let ads = [Ad(spliceIn: Rational(-512), overrun: Rational(-384), alternateOverrun: Rational(640), nextLead: Rational(0))]
        #expect(SoundBalance.choose(ads) == [true])
        #expect(Self.sums(ads, [true]) == [Rational(128)])
    }

    /// An ending that would bring the sum nearer zero but open a splice wider than one AAC frame (1,024 samples) is
    /// not taken: a player that places the sound by presentation time would hear that gap.
    @Test func noEndingOpensASpliceWiderThanOneFrame() {
        let ads = [Ad(spliceIn: Rational(1000), overrun: Rational(400), alternateOverrun: Rational(-624), nextLead: Rational(-500))]
        #expect(SoundBalance.choose(ads) == [false])
    }

    /// Without an alternate, an ad keeps its own ending.
    @Test func anAdWithoutAnAlternateKeepsItsOwnEnding() {
        #expect(SoundBalance.choose([Ad(spliceIn: Rational(0), overrun: Rational(500), alternateOverrun: nil, nextLead: Rational(0))]) == [false])
    }

    /// Twenty ads that each end 384 samples late, in breaks whose content splices cancel: with their own endings the
    /// sum grows to 7,680 samples (160 ms at 48 kHz); chosen, it never leaves half a frame.
    @Test func theSumOfARunOfAdsStaysWithinHalfAFrame() {
        let ads = (0..<20).map { _ in Ad(spliceIn: Rational(0), overrun: Rational(384), alternateOverrun: Rational(-640), nextLead: Rational(0)) }
        #expect(Self.sums(ads, Array(repeating: false, count: 20)).last == Rational(7680))
        let sums = Self.sums(ads, SoundBalance.choose(ads))
        #expect(sums.allSatisfy { SoundBalance.magnitude($0) <= SoundBalance.frame / Rational(2) }, "\(sums)")
    }
}
