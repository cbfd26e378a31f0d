import Testing
@testable import MediaCore

@Suite struct RationalTests {
    @Test func reducesToLowestTermsWithPositiveDenominator() {
        let r = Rational(6, -4)
        #expect(r.numerator == -3 && r.denominator == 2)
    }

    @Test(arguments: [
        ("30000/1001", Rational(30000, 1001)), ("30", Rational(30)), ("29.97", Rational(2997, 100)),
        ("-1.5", Rational(-3, 2)), (".5", Rational(1, 2)), ("12.", Rational(12)),
    ])
    func parsesExactly(text: String, expected: Rational) {
        #expect(Rational(parsing: text) == expected)
    }

    @Test(arguments: ["", "abc", "1/0", "1.2.3", "1e3", "--1", "."])
    func refusesMalformedText(text: String) {
        #expect(Rational(parsing: text) == nil)
    }

    @Test func roundsEachWay() {
        let r = Rational(-7, 2)
        #expect(r.floor == -4 && r.ceiling == -3 && r.rounded == -4 && r.rounded(.towardZero) == -3)
        #expect(Rational(5, 2).rounded == 3)
    }

    @Test func arithmeticWithLargeDenominatorsStaysExact() {
        let tb = Rational(1, 90000), ntsc = Rational(1001, 30000)
        let sum = (0..<30000).reduce(Rational.zero) { acc, _ in acc + ntsc }
        #expect(sum == Rational(1001))
        #expect((ntsc / tb) == Rational(3003))
    }
}

@Suite struct MediaTimeTests {
    @Test(arguments: [
        ("12.5", Rational(25, 2)), ("01:02", Rational(62)), ("00:00:05.6", Rational(28, 5)),
        ("1:00:00.001", Rational(3_600_001, 1000)), ("0", Rational.zero),
    ])
    func parsesClockTimes(text: String, seconds: Rational) {
        #expect(MediaTime(parsing: text)?.seconds == seconds)
    }

    @Test(arguments: ["", "1:60", "00:61:00", "a:b", "-5", "1::2", "1:2:3:4"])
    func refusesBadClockTimes(text: String) {
        #expect(MediaTime(parsing: text) == nil)
    }

    @Test func rescalesToTimeBases() {
        let t = MediaTime(value: 1001, timeBase: Rational(1, 30000))
        #expect(t.value(in: Rational(1, 90000)) == 3003)
        #expect(t.value(in: Rational(1, 1000), rounding: .down) == 33)
        #expect(t.value(in: Rational(1, 1000), rounding: .up) == 34)
    }

    @Test func formatsForPeople() {
        #expect(MediaTime(seconds: Rational(3_723_456, 1000)).description == "1:02:03.456")
    }
}

@Suite struct FrameRateTests {
    @Test func countsFramesThatStartBeforeTheEnd() {
        let r = FrameRate(30)
        #expect(r.frameCount(in: MediaDuration(seconds: Rational(1001, 100))) == 301)
        #expect(r.frameCount(in: MediaDuration(seconds: 10)) == 300)
    }

    @Test func sampleClockNeverAccumulatesRounding() {
        let clock = SampleClock(sampleRate: 48000, frameRate: FrameRate(30000, 1001))
        var total: Int64 = 0
        for n in Int64(0)..<30000 { total += clock.samples(fromFrame: n, toFrame: n + 1) }
        #expect(total == clock.sample(atFrame: 30000))
        #expect(total == 48_048_000)
    }
}

@Suite struct GeometryTests {
    @Test func letterboxesAWidePictureAndPillarboxesANarrowOne() {
        let screen = PixelRect(x: 0, y: 0, width: 640, height: 360)
        #expect(screen.fitting(aspect: Rational(640, 360)) == screen)
        // 360 × 9/16 = 202.5 pixels: rounded to 203, bars of 218 and 219.
        #expect(screen.fitting(aspect: Rational(9, 16)) == PixelRect(x: 218, y: 0, width: 203, height: 360))
        #expect(screen.fitting(aspect: Rational(4, 1)) == PixelRect(x: 0, y: 100, width: 640, height: 160))
    }

    @Test func centresOddSizesToThePixel() {
        let screen = PixelRect(x: 0, y: 0, width: 640, height: 360)
        // 641x361: 360 × 641/361 = 639.2, so 639 wide with the one spare column on the right, not 638 and a 2-pixel bar.
        #expect(screen.fitting(aspect: Rational(641, 361)) == PixelRect(x: 0, y: 0, width: 639, height: 360))
        // 853x480 at SAR 32/27: 640 / (853·32 / 480·27) = 303.9, so 304 high between bars of 28.
        let anamorphic = PixelSize(width: 853, height: 480).displayAspect(sampleAspect: Rational(32, 27))
        #expect(screen.fitting(aspect: anamorphic) == PixelRect(x: 0, y: 28, width: 640, height: 304))
        // A window at an odd place keeps its offset.
        #expect(PixelRect(x: 7, y: 3, width: 101, height: 51).fitting(aspect: Rational(1)) == PixelRect(x: 32, y: 3, width: 51, height: 51))
    }

    @Test func honoursTheSampleAspectRatio() {
        // 720x576 PAL 16:9 anamorphic: sample aspect 64/45.
        let aspect = PixelSize(width: 720, height: 576).displayAspect(sampleAspect: Rational(64, 45))
        #expect(aspect == Rational(16, 9))
    }

    @Test func parsesSizes() {
        #expect(PixelSize(parsing: "640x360") == PixelSize(width: 640, height: 360))
        #expect(PixelSize(parsing: "640X0") == nil)
        #expect(PixelSize(parsing: "x360") == nil)
    }
}
