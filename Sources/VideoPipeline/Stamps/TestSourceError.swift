/// Why a synthetic test source (its stamp, picture or tone) cannot be made as asked.
public enum TestSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source id is empty, longer than 8 characters, or has a character outside `a-z 0-9 _ -`.
    case invalidSourceID(String)
    /// The frame index is negative or does not fit in a stamp (`FrameStamp.frameIndexLimit`).
    case frameIndexOutOfRange(Int)
    /// The picture size is not positive and even in both directions (yuv420p needs even sides), or too small to
    /// carry a stamp (`TestPattern.minimumSize`).
    case invalidPictureSize(width: Int, height: Int)
    /// The tone is outside `TestTone.frequencyRange`, or not below half the sample rate.
    case invalidToneFrequency(hertz: Int, sampleRate: Int)
    /// The sample rate is not positive, or the channel count is not 1...8.
    case invalidAudioFormat(sampleRate: Int, channels: Int)

    public var description: String {
        switch self {
        case .invalidSourceID(let id):
            "source id \"\(id)\" is invalid: use 1 to 8 characters from a-z, 0-9, '_' and '-'"
        case .frameIndexOutOfRange(let index):
            "frame index \(index) is outside 0..<\(FrameStamp.frameIndexLimit), the range a frame stamp can carry"
        case .invalidPictureSize(let width, let height):
            "picture size \(width)x\(height) is invalid: both sides must be even and at least "
                + "\(TestPattern.minimumSize.width)x\(TestPattern.minimumSize.height)"
        case .invalidToneFrequency(let hertz, let sampleRate):
            "tone \(hertz) Hz is invalid at \(sampleRate) Hz: use \(TestTone.frequencyRange.lowerBound)..."
                + "\(TestTone.frequencyRange.upperBound) Hz, below half the sample rate"
        case .invalidAudioFormat(let sampleRate, let channels):
            "audio format \(sampleRate) Hz, \(channels) channels is invalid: "
                + "the rate must be positive and channels 1...8"
        }
    }
}
