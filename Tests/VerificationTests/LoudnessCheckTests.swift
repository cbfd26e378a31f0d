@testable import Rendering
import Testing
@testable import Verification

/// What verify says of an ad's loudness, without media.
@Suite struct LoudnessCheckTests {
    static func segment(measured: Double? = -23, target: Double? = -23, reached: Double? = nil,
                        truePeak: Double? = -3) -> LoudnessCheck.Segment {
        LoudnessCheck.Segment(ad: .linear(breakIndex: 0, adIndex: 0), outStartFrame: 90, outEndFrame: 210, measure: "integrated",
                              measured: measured, target: target, reached: reached, truePeak: truePeak, ok: true)
    }

    /// −0.97 dBTP is over −1: the message says −0.97, not "-1.0 is over -1.0".
    @Test func aValueJustOverItsLimitIsShownWithTheDecimalsThatTellThemApart() {
        #expect(Self.segment(truePeak: -0.97).problems.map(\.code) == [.loudnessTruePeak])
        #expect(Self.segment(measured: -24.04).problems.map(\.code) == [.loudnessLevel])
        #expect(Self.segment(truePeak: -0.97).problems.map(\.description) == ["loudness: break 0 ad 0 (frames 90–210): true peak -0.97 dBTP is over -1.0 dBTP"])
        #expect(Self.segment(measured: -24.04).problems.map(\.description)
                == ["loudness: break 0 ad 0 (frames 90–210): integrated -24.0 LUFS, target -23.0 LUFS: 1.04 LU off (±1 LU allowed)"])
        #expect(Self.segment(truePeak: -0.4).problems.map(\.description) == ["loudness: break 0 ad 0 (frames 90–210): true peak -0.4 dBTP is over -1.0 dBTP"])
        #expect(LoudnessCheck.text(-0.9999, over: -1) == "-0.9999")
    }

    /// Where the limiter took loudness away, the loudness it reached is the promise, and the message names both.
    @Test func theLoudnessTheLimiterReachedIsThePromise() {
        #expect(Self.segment(measured: -28.4, target: -12.6, reached: -28.1).problems.isEmpty)
        #expect(Self.segment(measured: -12.6, target: -12.6, reached: -28.1).problems.map(\.description)
                == ["loudness: break 0 ad 0 (frames 90–210): integrated -12.6 LUFS, target -12.6 LUFS, limited to -28.1 LUFS: 15.5 LU off (±1 LU allowed)"])
    }
}
