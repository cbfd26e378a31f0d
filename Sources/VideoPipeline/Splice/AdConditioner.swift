import Foundation
import MediaCore

/// Makes an ad's media fit one HLS rendition of the content: transcoded to the rendition's picture size and frame
/// rate and the content's sound, its video capped at the rendition's bit rate, and cut into MPEG-TS segments of
/// about `segmentSeconds`, none but a one-segment ad shorter than a second (`pipctl serve`, docs/SERVE.md). Its sound
/// starts with its first picture (no AAC priming) and ends within half an AAC frame of its last picture's end, so
/// that it neither delays nor overlaps the sound around it (`HLSSegmenter`'s `soundWithPictures`). Its last
/// segment comes a second time with the sound ending on the other side of that end (`alternateLast`), so that a
/// stitcher can keep a run of ads' sound in step with their pictures (`pipctl serve`'s `SoundBalance`).
public enum AdConditioner {
    public struct Request: Sendable {
        public var input: String
        /// The directory the segments are written into (`seg00000.ts`, …); it must exist.
        public var directory: String
        public var size: PixelSize
        public var frameRate: FrameRate
        public var sampleRate: Int
        public var channels: Int
        /// x264's settings, `maximumBitRate` the rendition's share for video.
        public var encoding: EncodingSettings
        public var segmentSeconds: Rational
        /// The integrated loudness (LUFS) the ad's sound is brought to, by a static gain with a true-peak limiter
        /// (`SoundGain`, as a normalised render's); `nil` leaves it as it is.
        public var loudness: Double?
        /// The decode delay of the content the ad plays between (`SegmentCutter.pictureTiming`): the ad, coded
        /// without B-frames, is stamped with each picture decoded that long before it is shown, so that its decode
        /// times run on from the content's before it and into the content's after it. A reader that joins decode
        /// times across a discontinuity (the ffmpeg tool) then shows the content after the ad at its frame, not that
        /// delay late. Only for an ad coded without B-frames (`encoding.reorders` false); with them, its own delay
        /// stands.
        public var decodeDelay: Rational
        /// The PIDs of the rendition's segments (`TransportStreamPIDs.of`), which the ad's carry too; nil for the
        /// muxer's own.
        public var pids: TransportStreamPIDs?

        public init(input: String, directory: String, size: PixelSize, frameRate: FrameRate, sampleRate: Int = 48_000,
                    channels: Int = 2, encoding: EncodingSettings = EncodingSettings(), segmentSeconds: Rational = Rational(2),
                    loudness: Double? = nil, decodeDelay: Rational = .zero, pids: TransportStreamPIDs? = nil) {
            self.input = input
            self.directory = directory
            self.size = size
            self.frameRate = frameRate
            self.sampleRate = sampleRate
            self.channels = channels
            self.encoding = encoding
            self.segmentSeconds = segmentSeconds
            self.loudness = loudness
            self.decodeDelay = decodeDelay
            self.pids = pids
        }
    }

    public struct Segment: Hashable, Sendable {
        /// The file's name in the directory.
        public var uri: String
        public var frames: Int64
        public var bytes: Int64
    }

    public struct Result: Hashable, Sendable {
        public var segments: [Segment]
        /// The last segment with one AAC packet more or fewer at its end (`segNNNNN-alt.ts`), when a packet straddles
        /// the last picture's end.
        public var alternateLast: Segment?
        public var frameRate: FrameRate
        /// RFC 6381 codec strings (`avc1.…`, `mp4a.40.2`).
        public var codecs: [String]
        public var frames: Int64 { segments.reduce(0) { $0 + $1.frames } }
        public var duration: Rational { Rational(frames) / frameRate.perSecond }
    }

    /// Where a conditioned ad's clock starts: 6 h 37 min 40 s, far from where content's clocks are. A reader that
    /// plays a stitched stream one segment after another (the ffmpeg tool) joins the timestamps across a
    /// discontinuity only where they jump back, or forward by more than 10 s: an ad whose clock started at zero,
    /// followed by content less than 10 s further on its own clock, left that much of a hole in its download. Just
    /// under 2^31 ticks of 90 kHz (a quarter of MPEG-TS's 33-bit range, so no reader takes it for a wrap), and whole
    /// seconds, exact in every stream's time base.
    public static let timestampBase = Rational(23_860)

    /// Where segments start, for `frames` pictures at `rate`: every `seconds`, but never leaving less than a
    /// second after the last start.
    public static func segmentStarts(frames: Int64, rate: FrameRate, seconds: Rational) -> Set<Int64> {
        let step = HLSSegmenter.frames(perSegment: seconds, rate: rate)
        let second = HLSSegmenter.frames(perSegment: Rational(1), rate: rate)
        return Set(stride(from: step, to: frames, by: Int(step)).filter { frames - $0 >= second }).union([0])
    }

    public static func condition(_ request: Request, control: JobControl = .none) throws(MediaError) -> Result {
        let rate = request.frameRate, seconds = request.segmentSeconds
        let encoded = request.directory + "/.conditioned.mp4"
        defer { try? FileManager.default.removeItem(atPath: encoded) }
        let transcode = Transcoder.Request(input: request.input, output: encoded, size: request.size, frameRate: rate,
                                           sampleRate: request.sampleRate, channels: request.channels, encoding: request.encoding,
                                           keyframes: { frames in segmentStarts(frames: frames, rate: rate, seconds: seconds) })
        var normalised = transcode
        if let target = request.loudness {
            let format = OutputFormat(size: request.size, frameRate: rate, sampleRate: request.sampleRate, channels: request.channels)
            if let measured = try LoudnessAnalysis.measure(source: request.input, format: format, control: control),
               let level = measured.loudness.integrated ?? measured.loudness.maxMomentary {
                normalised.soundGain = SoundGain(decibels: target - level, peaks: measured.peaks)
            }
        }
        let result = try Transcoder.run(normalised, control: control)
        let starts = segmentStarts(frames: result.frames, rate: rate, seconds: seconds)
        let files = try HLSSegmenter.segment(encoded, into: request.directory, type: .mpegts, rate: rate,
                                             target: Int64.max, cuts: starts, soundWithPictures: true, alternateEnding: true,
                                             decodeDelay: request.encoding.reorders ? .zero : request.decodeDelay,
                                             timestampBase: Self.timestampBase, pids: request.pids)
        func segment(_ file: HLSSegmentFiles.Segment) -> Segment { Segment(uri: file.uri, frames: file.frameCount, bytes: file.bytes) }
        return Result(segments: files.segments.map(segment), alternateLast: files.alternateLast.map(segment), frameRate: rate,
                      codecs: files.codecs)
    }
}
