import Testing
@testable import VideoPipeline

@Suite struct ToneAnalyzerTests {
    static let candidates: [Double] = [440, 660, 880, 1320]

    /// `seconds` of the tone of a source, from its sample `start`.
    func tone(_ hz: Int, rate: Int, from start: Int64 = 0, count: Int) -> [Float] {
        try! TestTone(frequency: hz, sampleRate: rate, channels: 1).planar(startSample: start, count: count)[0]
    }

    /// Deterministic white noise at about the tone's level.
    func noise(count: Int, seed: UInt64 = 1) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 1_000_000) / 4_000_000 - 0.125
        }
    }

    @Test(arguments: [44_100, 48_000])
    func findsTheDominantCandidateInShortWindowsClicksIncluded(rate: Int) {
        let analyzer = ToneAnalyzer(sampleRate: rate)
        for hz in [440, 660, 880, 1320] {
            let samples = tone(hz, rate: rate, count: rate + rate / 2)
            // 20 ms and 100 ms windows, some starting on the click at one second.
            for length in [rate / 50, rate / 10] {
                for start in [0, 777, rate - length / 2, rate, rate + 5] {
                    let window = samples[start..<(start + length)]
                    #expect(analyzer.dominantTone(in: window, candidates: Self.candidates) == Double(hz),
                            "\(hz) Hz, \(length) samples from \(start)")
                }
            }
        }
    }

    @Test func answersNilForSilenceNoiseAndAnEvenMix() {
        let analyzer = ToneAnalyzer(sampleRate: 48_000)
        let a = tone(440, rate: 48_000, from: 100, count: 4_800), b = tone(660, rate: 48_000, from: 100, count: 4_800)
        let mix = zip(a, b).map { $0 + $1 }
        for (name, samples) in [("silence", [Float](repeating: 0, count: 4_800)), ("noise", noise(count: 4_800)),
                                ("mix", mix), ("quiet", a.map { $0 / 1000 })] {
            #expect(analyzer.dominantTone(in: samples[...], candidates: Self.candidates) == nil, "\(name)")
        }
        #expect(analyzer.dominantTone(in: a[...], candidates: [440]) == 440)
        #expect(analyzer.dominantTone(in: a[...], candidates: []) == nil)
    }

    @Test(arguments: [44_100, 48_000])
    func estimatesAnUnknownToneFromTheFirstSecond(rate: Int) throws {
        let analyzer = ToneAnalyzer(sampleRate: rate)
        for hz in [100, 123, 440, 997, 2_500, 4_000] {
            let samples = tone(hz, rate: rate, count: rate)
            let estimate = try #require(analyzer.estimateTone(in: samples[...]))
            #expect(abs(estimate - Double(hz)) < 0.5, "\(hz) Hz estimated as \(estimate)")
        }
        let short = tone(1_234, rate: rate, count: rate / 5)
        let estimate = try #require(analyzer.estimateTone(in: short[...]))
        #expect(abs(estimate - 1_234) < 2)
        #expect(analyzer.estimateTone(in: noise(count: rate)[...]) == nil)
        #expect(analyzer.estimateTone(in: [Float](repeating: 0, count: rate)[...]) == nil)
    }

    /// Source A until `boundary`, then source B from its own sample 0 (so with a click at the change) or from the
    /// middle of one of its seconds.
    @Test(arguments: [(44_100, Int64(0)), (48_000, Int64(0)), (44_100, Int64(30_011)), (48_000, Int64(7))])
    func findsWhereOneToneGivesWayToAnotherWithinFiveMilliseconds(rate: Int, bStart: Int64) throws {
        let analyzer = ToneAnalyzer(sampleRate: rate)
        let tolerance = rate / 200
        for (a, b) in [(440, 660), (880, 440), (660, 1320), (440, 880)] {
            let boundary = rate + 12_345
            let samples = tone(a, rate: rate, count: boundary) + tone(b, rate: rate, from: bStart, count: rate)
            // A region of 1.2 s around the boundary, given as a slice of the whole (indices are the whole's).
            let region = samples[(boundary - rate / 2)..<(boundary + rate * 7 / 10)]
            let found = try #require(analyzer.changePoint(in: region, from: Double(a), to: Double(b)))
            #expect(abs(found - boundary) <= tolerance, "\(a)→\(b) Hz: \(found - boundary) samples off")
            #expect(analyzer.dominantTone(in: samples[(boundary - rate / 20)..<(boundary - 10)],
                                          candidates: [Double(a), Double(b)]) == Double(a))
            #expect(analyzer.dominantTone(in: samples[(boundary + 10)..<(boundary + rate / 20)],
                                          candidates: [Double(a), Double(b)]) == Double(b))
        }
    }

    @Test func findsNoChangeWhereThereIsNone() {
        let analyzer = ToneAnalyzer(sampleRate: 48_000)
        let steady = tone(440, rate: 48_000, count: 48_000)
        #expect(analyzer.changePoint(in: steady[...], from: 440, to: 660) == nil)
        let reversed = tone(660, rate: 48_000, count: 24_000) + tone(440, rate: 48_000, count: 24_000)
        #expect(analyzer.changePoint(in: reversed[...], from: 440, to: 660) == nil)
    }
}

@Suite struct ToneAnalyzerEdgeTests {
    /// A click in the last samples of a window (its margin runs past the end) must not trip the clean-up.
    @Test func aClickAtTheVeryEndOfAWindowIsRemovedWithoutTrouble() throws {
        let tone = try TestTone(frequency: 440, sampleRate: 48000, channels: 1)
        var samples = tone.planar(startSample: 0, count: 4800)[0]
        samples[4798] = 0.9
        samples[4799] = 0.9
        let analyzer = ToneAnalyzer(sampleRate: 48000)
        #expect(analyzer.dominantTone(in: samples[...], candidates: [440, 880]) == 440)
        #expect(analyzer.changePoint(in: samples[...], from: 440, to: 880) == nil)
    }
}
