import MediaCore
import Testing

/// The default output rate of variable-frame-rate content: the standard rate nearest by ratio.
@Suite struct StandardFrameRateTests {
    @Test(arguments: [
        // The average of issue 10's phone clip, ≈ 29.984 fps: 1.00047× from 29.97, 1.00053× from 30.
        (Rational(69_120_000, 2_305_213), FrameRate(30000, 1001)),
        (Rational(30), FrameRate(30)),
        (Rational(2997, 100), FrameRate(30000, 1001)),
        (Rational(25), FrameRate(25)),
        (Rational(59), FrameRate(60000, 1001)),
        (Rational(240), FrameRate(60)),
        (Rational(1), FrameRate(24000, 1001)),
        // 10.59 fps: 2.264× below 23.976, 2.267× below 24.
        (Rational(180, 17), FrameRate(24000, 1001)),
        // 36 fps: 1.2 from 30, 1.389 from 50.
        (Rational(36), FrameRate(30)),
        // 40 fps: 1.333× from 30, 1.25× from 50 (by difference it would be a tie); 38 fps is nearer 30.
        (Rational(40), FrameRate(50)),
        (Rational(38), FrameRate(30)),
    ])
    func nearestStandardRateByRatio(average: Rational, expected: FrameRate) {
        #expect(FrameRate.nearestStandard(to: FrameRate(average)) == expected)
    }
}
