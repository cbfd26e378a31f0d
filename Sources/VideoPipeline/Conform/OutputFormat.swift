import MediaCore

/// The shape of what pipctl writes: the canvas ("the screen"), the frame rate of the output clock, and the audio
/// format every source is resampled to.
public struct OutputFormat: Hashable, Sendable {
    /// The output canvas. Both sides must be even (4:2:0 chroma).
    public var size: PixelSize
    public var frameRate: FrameRate
    public var sampleRate: Int
    public var channels: Int

    public init(size: PixelSize, frameRate: FrameRate, sampleRate: Int = OutputFormat.standard.sampleRate,
                channels: Int = OutputFormat.standard.channels) {
        self.size = size
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The audio sample boundaries of output frames.
    public var sampleClock: SampleClock { SampleClock(sampleRate: Int64(sampleRate), frameRate: frameRate) }

    /// Checks what FFmpeg's encoders need: an even size, a sane rate and audio format.
    public func validate() throws(MediaError) {
        guard size.width >= 16, size.height >= 16, size.width <= 8192, size.height <= 8192,
              size.width % 2 == 0, size.height % 2 == 0 else {
            throw .invalidSetting(name: "size", value: size.description, reason: "must be even, from 16x16 to 8192x8192")
        }
        guard frameRate.perSecond >= Rational(1), frameRate.perSecond <= Rational(240),
              frameRate.perSecond.numerator <= Int64(Int32.max), frameRate.perSecond.denominator <= Int64(Int32.max) else {
            throw .invalidSetting(name: "fps", value: frameRate.description, reason: "must be between 1 and 240")
        }
        guard (8000...192_000).contains(sampleRate) else {
            throw .invalidSetting(name: "sample rate", value: String(sampleRate), reason: "must be between 8000 and 192000 Hz")
        }
        guard (1...8).contains(channels) else {
            throw .invalidSetting(name: "channels", value: String(channels), reason: "must be between 1 and 8")
        }
    }
}

extension OutputFormat {
    /// What an output is when neither the user nor the source says: 640x360, 30 fps, 48 kHz stereo.
    public static let standard = OutputFormat(size: PixelSize(width: 640, height: 360), frameRate: FrameRate(30),
                                              sampleRate: 48000, channels: 2)

    /// The one rule for an output's format, used by `render`, `play`, `transcode` and `testsrc`: each of size,
    /// frame rate, sample rate and channels is what the user gave; else the source's (its display size, its frame
    /// rate, or the nearest standard rate for variable-frame-rate video: `StreamInfo.defaultOutputRate`; its main
    /// audio stream's rate and channels); else `standard`'s.
    ///
    /// Why one rule: the defaults used to be repeated in about ten places, and two of them disagreed (the ad
    /// request's window took the coded size while the canvas took the display size).
    public static func resolve(size: PixelSize? = nil, frameRate: FrameRate? = nil, sampleRate: Int? = nil,
                               channels: Int? = nil, source: MediaInfo? = nil) -> OutputFormat {
        let video = source?.bestVideo, audio = source?.bestAudio
        return OutputFormat(size: size ?? video?.displaySize ?? standard.size,
                            frameRate: frameRate ?? video?.defaultOutputRate ?? standard.frameRate,
                            sampleRate: sampleRate ?? audio?.sampleRate ?? standard.sampleRate,
                            channels: channels ?? audio?.channels ?? standard.channels)
    }
}
