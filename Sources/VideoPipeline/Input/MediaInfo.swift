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
    public var frameRate: FrameRate?
    public var pixelFormat: String?

    // Audio
    public var sampleRate: Int?
    public var channels: Int?
    /// FFmpeg's description of the layout (`stereo`, `mono`, `5.1`).
    public var channelLayout: String?
    public var sampleFormat: String?

    /// The size the picture takes on screen in square pixels, turned upright, with even sides of at least 16: the
    /// default output size of a job on this stream (`DisplayGeometry.canvasSize`); 640x360 when the stream says
    /// nothing.
    public var displaySize: PixelSize { geometry?.canvasSize ?? PixelSize(width: 640, height: 360) }

    /// The display aspect ratio (width / height) of a video stream on screen, by the display-geometry rule.
    public var displayAspect: Rational? { geometry?.displayAspect }
}
