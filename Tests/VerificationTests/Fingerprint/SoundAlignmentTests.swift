import Foundation
@testable import Rendering
import Testing
@testable import Verification

/// The cross-correlation `verify --sources` aligns sound with: it finds the lag of a noise exactly, and refuses to
/// guess on a pure tone (every period alike) or on silence.
@Suite struct SoundAlignmentTests {
    /// Deterministic white noise in [-1, 1] (a linear congruential generator, so the test needs no randomness).
    static func noise(_ count: Int, seed: UInt64) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(Int64(bitPattern: state >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
    }

    @Test(arguments: [-320, -37, 0, 5, 400])
    func theLagOfANoiseIsFoundExactly(lag: Int) throws {
        let reach = 800
        let source = Self.noise(1600 + 2 * reach, seed: 7)
        // The output at t sounds like the source at t + lag.
        let output = Array(source[(reach + lag)..<(reach + lag + 1600)])
        let aligned = try #require(SourceVerifier.correlate(output, source, reach: reach))
        #expect(aligned.lag == lag)
        #expect(aligned.correlation > 0.999)
    }

    @Test func aPureToneIsNotAligned() {
        let tone = (0..<3200).map { sin(2 * Double.pi * 1000 * Double($0) / 8000) }
        #expect(SourceVerifier.correlate(Array(tone[800..<2400]), tone, reach: 800) == nil)
    }

    @Test func silenceAndAnotherSoundAreNotAligned() {
        #expect(SourceVerifier.correlate([Double](repeating: 0, count: 1600), Self.noise(3200, seed: 1), reach: 800) == nil)
        #expect(SourceVerifier.correlate(Self.noise(1600, seed: 2), Self.noise(3200, seed: 3), reach: 800) == nil)
    }
}
