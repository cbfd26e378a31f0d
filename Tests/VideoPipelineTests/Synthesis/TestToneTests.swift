import Foundation
import Testing
@testable import VideoPipeline

@Suite struct TestToneTests {
    @Test(arguments: [44_100, 48_000])
    func clicksStartExactlyAtEveryWholeSecondOfTheSourceClock(rate: Int) throws {
        let tone = try TestTone(frequency: 660, sampleRate: rate, channels: 1)
        let analyzer = ToneAnalyzer(sampleRate: rate)
        // From 0, and from a start that is not a whole second (a clip generated in pieces).
        for start in [Int64(0), Int64(rate / 3 + 17)] {
            let samples = tone.planar(startSample: start, count: 4 * rate)[0]
            let expected = (0...4).map { Int64($0 * rate) }.filter { $0 >= start && $0 < start + Int64(4 * rate) }
                .map { Int($0 - start) }
            #expect(analyzer.clickOnsets(in: samples[...]) == expected)
        }
    }

    @Test func clickIsATwoMillisecondDoubletOnTopOfTheTone() throws {
        let tone = try TestTone(frequency: 440, sampleRate: 48_000, channels: 1)
        #expect(tone.clickHalfLength == 48)
        let withClick = tone.planar(startSample: 48_000, count: 200)[0]
        for i in 0..<200 {
            let toneOnly = TestTone.toneAmplitude * Float(sin(2 * Double.pi * 440 * Double(i) / 48_000))
            let click: Float = i < 48 ? 0.5 : (i < 96 ? -0.5 : 0)
            #expect(abs(withClick[i] - (toneOnly + click)) < 1e-5)
        }
    }

    @Test func piecesMatchTheWholeAndEveryChannelIsAlike() throws {
        let tone = try TestTone(frequency: 880, sampleRate: 44_100, channels: 2)
        let whole = tone.planar(startSample: 0, count: 100_000)
        let channelsAlike = whole.count == 2 && whole[0] == whole[1]
        #expect(channelsAlike)
        var pieces: [Float] = []
        var start: Int64 = 0
        for count in [1024, 1023, 44_100, 53_853] {
            pieces += tone.planar(startSample: start, count: count)[1]
            start += Int64(count)
        }
        let identical = pieces == whole[0]
        #expect(identical)
    }

    @Test func staysBelowFullScaleAndTheToneAtItsLevel() throws {
        let tone = try TestTone(frequency: 1000, sampleRate: 48_000, channels: 1)
        let samples = tone.planar(startSample: 0, count: 96_000)[0]
        #expect(samples.map(abs).max()! <= TestTone.toneAmplitude + TestTone.clickAmplitude)
        let outsideClicks = samples.enumerated().filter { $0.offset % 48_000 >= 96 }.map { abs($0.element) }
        #expect(abs(outsideClicks.max()! - TestTone.toneAmplitude) < 1e-4)
    }

    @Test func isTheSourcesToneAsMeasured() throws {
        for (hz, rate) in [(440, 48_000), (660, 44_100), (3_999, 48_000), (100, 44_100)] {
            let tone = try TestTone(frequency: hz, sampleRate: rate, channels: 1)
            let samples = tone.planar(startSample: 0, count: rate)[0]
            let measured = try #require(ToneAnalyzer(sampleRate: rate).estimateTone(in: samples[...]))
            #expect(abs(measured - Double(hz)) < 0.5, "\(hz) Hz measured as \(measured)")
        }
    }

    @Test func refusesToneAndFormatsItCannotMake() {
        #expect(throws: TestSourceError.invalidToneFrequency(hertz: 99, sampleRate: 48_000)) {
            try TestTone(frequency: 99, sampleRate: 48_000)
        }
        #expect(throws: TestSourceError.invalidToneFrequency(hertz: 4_000, sampleRate: 8_000)) {
            try TestTone(frequency: 4_000, sampleRate: 8_000)
        }
        #expect(throws: TestSourceError.invalidAudioFormat(sampleRate: 0, channels: 2)) {
            try TestTone(frequency: 440, sampleRate: 0)
        }
        #expect(throws: TestSourceError.invalidAudioFormat(sampleRate: 48_000, channels: 9)) {
            try TestTone(frequency: 440, sampleRate: 48_000, channels: 9)
        }
        #expect(TestSourceError.invalidToneFrequency(hertz: 99, sampleRate: 48_000).description
                == "tone 99 Hz is invalid at 48000 Hz: use 100...4000 Hz, below half the sample rate")
    }

    // MARK: Default tones

    @Test func theDefaultToneOfAnIdIsItsFNV1aHashModuloSixteenTones() {
        #expect(TestTone.defaultFrequencies == [450, 600, 750, 900, 1050, 1200, 1350, 1500, 1650, 1800, 1950, 2100,
                                                2250, 2400, 2550, 2700])
        // docs/RENDERING.md's examples: FNV-1a of "content" is 0x90bec3c2 (≡ 2 mod 16), of "main" 0xea90e208 (≡ 8).
        #expect(TestTone.defaultFrequency(forSourceID: "content") == 750)
        #expect(TestTone.defaultFrequency(forSourceID: "main") == 1650)
        #expect(TestTone.defaultFrequency(forSourceID: "main") == TestTone.defaultFrequency(forSourceID: "main"))
    }

    @Test func everyDefaultToneIsToldFromEveryOtherIn20Milliseconds() throws {
        let analyzer = ToneAnalyzer(sampleRate: 48_000)
        for frequency in TestTone.defaultFrequencies {
            let tone = try TestTone(frequency: frequency, sampleRate: 48_000, channels: 1)
            // Away from the click at each whole second.
            let samples = tone.planar(startSample: 4_800, count: 960)[0]
            #expect(analyzer.dominantTone(in: samples[...], candidates: TestTone.defaultFrequencies.map(Double.init))
                    == Double(frequency), "\(frequency) Hz")
        }
    }

    @Test func aChangeBetweenNeighbouringDefaultTonesIsPlacedWithinAMillisecondInOneVideoFrame() throws {
        // One 30 fps frame (1600 samples) of each: a one-frame ad between two others.
        let analyzer = ToneAnalyzer(sampleRate: 48_000)
        let tones = TestTone.defaultFrequencies
        for (a, b) in zip(tones, tones.dropFirst()) + [(tones[0], tones[15]), (tones[15], tones[0])] {
            let first = try TestTone(frequency: a, sampleRate: 48_000, channels: 1).planar(startSample: 4_800, count: 1_600)[0]
            let second = try TestTone(frequency: b, sampleRate: 48_000, channels: 1).planar(startSample: 6_400, count: 1_600)[0]
            let change = analyzer.changePoint(in: (first + second)[...], from: Double(a), to: Double(b))
            #expect(change.map { abs($0 - 1_600) <= 48 } == true, "\(a) → \(b) Hz: \(String(describing: change))")
        }
    }
}
