import CFFmpeg
import MediaCore

/// A decoded picture handed from a source to the compositor. Valid until the source is asked for another tick.
public struct VideoPicture {
    let frame: Frame
    /// What the stream says about all its pictures (container aspect, display matrix); `nil` for a picture that
    /// has no stream (the canvas).
    let stream: DisplayGeometry?

    init(frame: Frame, stream: DisplayGeometry? = nil) {
        self.frame = frame
        self.stream = stream
    }

    /// The decoded (coded) size.
    public var size: PixelSize { frame.size }

    /// This picture's display geometry: its own size and bitstream aspect (a stream may change them mid-way), the
    /// stream's container aspect and display matrix.
    public var geometry: DisplayGeometry {
        DisplayGeometry(codedSize: frame.size, bitstreamSampleAspect: frame.sampleAspectRatio,
                        containerSampleAspect: stream?.containerSampleAspect, orientation: stream?.orientation ?? .upright)
    }

    /// The picture's shape on screen, by the display-geometry rule (sample aspect and rotation honoured).
    public var displayAspect: Rational { geometry.displayAspect }
}

/// One input file conformed to the output format: its video addressed by output tick and its audio by output
/// sample, both on the source's own clock (zero = the file's start).
///
/// Video follows the frame-rate rule of `VideoTrack`; audio is resampled and remixed by `AudioTrack`. A source
/// without audio reads as silence.
public final class MediaSource {
    public let path: String
    public let info: MediaInfo
    public let format: OutputFormat
    /// The video's length on the source clock.
    public let videoDuration: MediaDuration
    /// The number of output ticks that start before the video ends: `ceil(duration × rate)`.
    public let frameCount: Int64
    /// The shape of the picture on screen.
    public let displayAspect: Rational
    /// The video stream's display geometry (container aspect and display matrix), applied to every picture.
    public let geometry: DisplayGeometry?
    /// The source's own nominal frame rate (the output rate when the file does not say).
    public let nominalFrameRate: FrameRate
    /// Set when the video stops before the duration the container declares (the file was cut short); the
    /// source then ends at its real end (`videoDuration`).
    public let earlyEnd: EarlyEnd?
    public var hasAudio: Bool { audio != nil }
    /// The loudness gain and limiter every sample read is multiplied by (a normalised render); `nil`, or a gain
    /// that `isIdentity`, leaves the samples exactly as decoded.
    public var soundGain: SoundGain?

    private let video: VideoTrack
    private let audio: AudioTrack?

    /// Opens `path` for playback in `format`.
    ///
    /// - Parameter pictureLimit: the largest video an ad creative may have, checked before any decoder opens.
    /// - Throws: what `MediaProbe.probe` throws, `.pictureTooLarge` over `pictureLimit`, `.missingStream(kind: .video)` for a file without video, and
    ///   `.noFrames` when its video decodes to nothing.
    public init(path: String, format: OutputFormat, threads: Int = 0, pictureLimit: PictureLimit? = nil) throws(MediaError) {
        let input = try InputFile(path: path, pictureLimit: pictureLimit)
        info = input.info
        self.path = path
        self.format = format
        guard let videoIndex = input.bestStream(.video), let stream = info.streams.first(where: { $0.index == videoIndex }) else {
            throw .missingStream(path: path, kind: .video)
        }
        let origin = input.startTime ?? .zero
        video = try VideoTrack(path: path, outputRate: format.frameRate, origin: origin, threads: threads)
        audio = info.bestAudio == nil ? nil
            : try AudioTrack(path: path, sampleRate: format.sampleRate, channels: format.channels, origin: origin)
        geometry = stream.geometry
        displayAspect = stream.displayAspect ?? Rational(16, 9)
        nominalFrameRate = stream.frameRate ?? format.frameRate
        videoDuration = try MediaSource.videoDuration(input: input, streamIndex: videoIndex, origin: origin)
        frameCount = max(1, format.frameRate.frameCount(in: videoDuration))
        earlyEnd = try MediaSource.earlyEnd(input: input, videoDuration: videoDuration, origin: origin,
                                            frameDuration: nominalFrameRate.frameDuration)
    }

    /// Compares where the file's packets really end with the duration its container declares.
    ///
    /// Only a declared duration counts (not FFmpeg's estimate from the bit rate), and only a shortfall of more
    /// than two frames or 100 ms, whichever is longer: containers round their durations and audio often runs a
    /// little past the video. When the video alone falls short, every stream is scanned, so that a video that
    /// simply ends before its audio is not taken for a cut file. A file whose video stream declares its own end
    /// (MP4's sample index, checked against the file's size when opening) is taken at its word.
    static func earlyEnd(input: InputFile, videoDuration: MediaDuration, origin: MediaTime,
                         frameDuration: MediaDuration) throws(MediaError) -> EarlyEnd? {
        guard let declared = input.declaredDuration else { return nil }
        let tolerance = max(frameDuration * Rational(2), MediaDuration(seconds: Rational(1, 10)))
        guard videoDuration + tolerance < declared else { return nil }
        guard let fileEnd = try InputFile(path: input.path).scanEnd(), (fileEnd - origin) + tolerance < declared else {
            return nil
        }
        return EarlyEnd(path: input.path, end: videoDuration, declared: declared)
    }

    /// The picture shown at output tick `tick` of this source.
    public func picture(atTick tick: Int64) throws(MediaError) -> VideoPicture {
        VideoPicture(frame: try video.frame(atTick: tick), stream: geometry)
    }

    /// Reads `count` output-format samples starting at sample `position` of this source into `buffer`.
    /// - Returns: how many came from the source's audio; the rest is silence.
    public func readAudio(from position: Int64, count: Int, into buffer: AudioBuffer) throws(MediaError) -> Int {
        guard let audio else {
            buffer.silence(from: 0, to: count)
            buffer.count = count
            return 0
        }
        let real = try audio.read(from: position, count: count, into: buffer)
        soundGain?.apply(to: buffer, position: position, count: count)
        return real
    }

    /// The video stream's end relative to the file's start: from the stream's declared duration when there is
    /// one, otherwise from the last packet's end, found by a demux-only scan (no decoding).
    static func videoDuration(input: InputFile, streamIndex: Int, origin: MediaTime) throws(MediaError) -> MediaDuration {
        if let declared = input.declaredEnd(ofStream: streamIndex, origin: origin) { return declared - origin }
        // A second opening of the file, so the scan does not move the one the decoders read.
        let (_, _, end) = try InputFile(path: input.path).scanPackets(ofStream: streamIndex)
        guard let end else { throw .noFrames(path: input.path) }
        return end - origin
    }
}
