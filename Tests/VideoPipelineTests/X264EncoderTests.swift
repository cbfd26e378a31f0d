import MediaCore
import Testing
@testable import VideoPipeline

/// `X264Encoder`, the one place libx264 is set up, opened for real: what it is given shows in the SPS and PPS x264
/// writes.
@Suite struct X264EncoderTests {
    static let format = OutputFormat(size: PixelSize(width: 64, height: 48), frameRate: FrameRate(25))

    /// A passthrough run states the content's profile and level and numbers its parameter sets from `spsID`.
    @Test(arguments: [(UInt8(77), UInt8(30), 1), (UInt8(100), UInt8(40), 5), (UInt8(66), UInt8(21), 31)])
    func runMatchesTheContent(profile: UInt8, level: UInt8, spsID: Int) throws {
        let match = X264Encoder.Match(profile: profile, level: level, spsID: spsID, sampleAspect: Rational(4, 3), colour: .unspecified)
        let encoder = try X264Encoder(format: X264EncoderTests.format, encoding: EncodingSettings(threads: 1), globalHeader: true, match: match)
            .open(path: nil)
        let sets = try AVCParameterSets(annexB: encoder.extradata)
        #expect(sets.profile == profile)
        #expect(sets.level == level)
        #expect(sets.sequenceSetIDs == [spsID])
        #expect(sets.pictureSetIDs == [spsID])
        #expect(encoder.videoTiming.sampleAspect.rational == Rational(4, 3))
    }

    /// The encoded output's x264 chooses its own profile and numbers its sets from 0.
    @Test func outputEncoderUsesDefaults() throws {
        let encoder = try X264Encoder(format: X264EncoderTests.format, encoding: EncodingSettings(threads: 1), globalHeader: true, match: nil)
            .open(path: nil)
        let sets = try AVCParameterSets(annexB: encoder.extradata)
        #expect(sets.sequenceSetIDs == [0])
        #expect(sets.profile == 100)
        #expect(encoder.videoTiming.sampleAspect.rational == Rational(1, 1))
    }
}
