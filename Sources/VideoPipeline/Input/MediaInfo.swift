import MediaCore

/// What a media file holds, as `pipctl probe` reports it.
public struct MediaInfo: Hashable, Sendable {
    public var path: String
    /// The container's short name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public var container: String
    /// The container's duration, when it declares one.
    public var duration: MediaDuration?
    /// Overall bit rate in bit/s, when known.
    public var bitRate: Int64?
    public var streams: [StreamInfo]

    /// The stream FFmpeg would pick for a kind.
    public var bestVideo: StreamInfo? { streams.first { $0.isBest && $0.kind == .video } }
    public var bestAudio: StreamInfo? { streams.first { $0.isBest && $0.kind == .audio } }
}

/// One elementary stream of a file.
public struct StreamInfo: Hashable, Sendable {
    public var index: Int
    public var kind: StreamKind
    /// Codec short name (`h264`, `aac`, `ffv1`, `pcm_s16le`).
    public var codec: String
    /// Whether FFmpeg picks this stream as the file's main one of its kind.
    public var isBest: Bool
    public var timeBase: Rational
    public var duration: MediaDuration?
    public var bitRate: Int64?
    /// Number of frames (video) or packets, when the container says.
    public var frameCount: Int64?

    // Video
    /// How the pictures look on screen: coded size, both sample aspect ratios, rotation and mirror.
    public var geometry: DisplayGeometry?
    /// The coded (stored) size of the pictures.
    public var size: PixelSize? { geometry?.codedSize }
    /// Shape of one pixel by the display-geometry rule (the container's, else the bitstream's); 1 for square pixels.
    public var sampleAspectRatio: Rational? { geometry?.sampleAspect }
    /// The average rate of the frames (`avg_frame_rate`), else FFmpeg's guess (`r_frame_rate`) when plausible.
    public var frameRate: FrameRate?
    /// FFmpeg's guess at the rate that represents every timestamp (`r_frame_rate`), when plausible; it differs
    /// from the average when the frames are not evenly spaced.
    public var timestampRate: FrameRate?
    public var pixelFormat: String?

    // Audio
    public var sampleRate: Int?
    public var channels: Int?
    /// FFmpeg's description of the layout (`stereo`, `mono`, `5.1`).
    public var channelLayout: String?
    public var sampleFormat: String?

    /// Whether the frames come at a variable rate: FFmpeg's average rate and its timestamp rate are both known
    /// and differ (a constant-rate stream has `avg_frame_rate == r_frame_rate`).
    public var isVariableFrameRate: Bool {
        guard let frameRate, let timestampRate else { return false }
        return frameRate != timestampRate
    }

    /// The output rate a job on this stream uses when none is asked for: the stream's own rate when it is
    /// constant; for variable-frame-rate video, the standard rate nearest to its average
    /// (`FrameRate.nearestStandard(to:)`), not the average itself.
    public var defaultOutputRate: FrameRate? {
        guard let frameRate else { return nil }
        return isVariableFrameRate ? FrameRate.nearestStandard(to: frameRate) : frameRate
    }

    /// The size the picture takes on screen in square pixels, turned upright, with even sides of at least 16: the
    /// default output size of a job on this stream (`DisplayGeometry.canvasSize`); the standard output size
    /// when the stream says nothing.
    public var displaySize: PixelSize { geometry?.canvasSize ?? OutputFormat.standard.size }

    /// The display aspect ratio (width / height) of a video stream on screen, by the display-geometry rule.
    public var displayAspect: Rational? { geometry?.displayAspect }
}
