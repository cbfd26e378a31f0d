import Foundation
import MediaCore

/// What an ad-stitched output shows, segment by segment: `OUT.timeline.json`.
///
/// Frame numbers are exact (output frame `n` starts at `n / fps`); seconds are given for people. The verifier
/// checks a rendered file against this, and a golden copy of it guards frame timings in CI.
public struct Timeline: Codable, Hashable, Sendable {
    public var version: Int = 1
    public var output: Output
    public var content: Source
    public var segments: [Segment]
    /// A passthrough render's video, run by run: which output frames are the content's own packets, copied, and
    /// which were encoded; `nil` when every frame was encoded.
    public var videoRuns: [VideoRun]?
    /// The render's loudness normalisation (`--loudness`); `nil` for `off` and in older timelines.
    public var loudness: Normalisation?

    /// A run of output frames `[outStartFrame, outEndFrame)` whose pictures were copied or encoded.
    public struct VideoRun: Codable, Hashable, Sendable {
        public enum Mode: String, Codable, Sendable { case copied, encoded }
        public var outStartFrame: Int64
        public var outEndFrame: Int64
        public var mode: Mode

        public init(outStartFrame: Int64, outEndFrame: Int64, mode: Mode) {
            self.outStartFrame = outStartFrame
            self.outEndFrame = outEndFrame
            self.mode = mode
        }

        /// The runs of `frames` output frames whose `copied` ranges (in order, disjoint) were copied; the rest encoded.
        public static func runs(copied: [Range<Int64>], frames: Int64) -> [VideoRun] {
            var runs: [VideoRun] = [], at: Int64 = 0
            for range in copied {
                if range.lowerBound > at { runs.append(VideoRun(outStartFrame: at, outEndFrame: range.lowerBound, mode: .encoded)) }
                if let last = runs.last, last.mode == .copied, last.outEndFrame == range.lowerBound {
                    runs[runs.count - 1].outEndFrame = range.upperBound
                } else {
                    runs.append(VideoRun(outStartFrame: range.lowerBound, outEndFrame: range.upperBound, mode: .copied))
                }
                at = range.upperBound
            }
            if frames > at { runs.append(VideoRun(outStartFrame: at, outEndFrame: frames, mode: .encoded)) }
            return runs
        }
    }

    public init(output: Output, content: Source, segments: [Segment]) {
        self.output = output
        self.content = content
        self.segments = segments
    }

    enum CodingKeys: String, CodingKey {
        case version, output, content, segments, videoRuns, loudness
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.wholeNumber(Int.self, forKey: .version)
        output = try c.decode(Output.self, forKey: .output)
        content = try c.decode(Source.self, forKey: .content)
        segments = try c.decode([Segment].self, forKey: .segments)
        videoRuns = try c.decodeIfPresent([VideoRun].self, forKey: .videoRuns)
        loudness = try c.decodeIfPresent(Normalisation.self, forKey: .loudness)
    }

    /// The rendered file.
    public struct Output: Codable, Hashable, Sendable {
        public var path: String
        /// `num/den`.
        public var fps: String
        public var width: Int
        public var height: Int
        public var frames: Int64
        /// Seconds (frames / fps).
        public var duration: Double
        public var sampleRate: Int
        public var channels: Int
        /// Audio samples per channel in the file: exactly the samples of `frames` video frames.
        public var audioSamples: Int64
        public var profile: String
        /// On a device (`--device`): output pixels per point (`3/2`); absent otherwise.
        public var pointScale: String?

        public init(path: String, fps: String, width: Int, height: Int, frames: Int64, duration: Double, sampleRate: Int,
                    channels: Int, audioSamples: Int64, profile: String, pointScale: String? = nil) {
            self.pointScale = pointScale
            self.path = path
            self.fps = fps
            self.width = width
            self.height = height
            self.frames = frames
            self.duration = duration
            self.sampleRate = sampleRate
            self.channels = channels
            self.audioSamples = audioSamples
            self.profile = profile
        }

        enum CodingKeys: String, CodingKey {
            case path, fps, width, height, frames, duration, sampleRate, channels, audioSamples, profile, pointScale
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            fps = try c.decode(String.self, forKey: .fps)
            width = try c.wholeNumber(Int.self, forKey: .width)
            height = try c.wholeNumber(Int.self, forKey: .height)
            frames = try c.wholeNumber(Int64.self, forKey: .frames)
            duration = try c.decode(Double.self, forKey: .duration)
            sampleRate = try c.wholeNumber(Int.self, forKey: .sampleRate)
            channels = try c.wholeNumber(Int.self, forKey: .channels)
            audioSamples = try c.wholeNumber(Int64.self, forKey: .audioSamples)
            profile = try c.decode(String.self, forKey: .profile)
            pointScale = try c.decodeIfPresent(String.self, forKey: .pointScale)
        }
    }

    /// A source file as the render saw it.
    public struct Source: Codable, Hashable, Sendable {
        public var path: String
        /// The source's own nominal frame rate, `num/den`.
        public var fps: String
        /// Its length in output frames.
        public var frames: Int64
        /// Its video duration in seconds.
        public var duration: Double

        public init(path: String, fps: String, frames: Int64, duration: Double) {
            self.path = path
            self.fps = fps
            self.frames = frames
            self.duration = duration
        }

        enum CodingKeys: String, CodingKey {
            case path, fps, frames, duration
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            fps = try c.decode(String.self, forKey: .fps)
            frames = try c.wholeNumber(Int64.self, forKey: .frames)
            duration = try c.decode(Double.self, forKey: .duration)
        }
    }

    /// A rectangle in output pixels.
    public struct Rect: Codable, Hashable, Sendable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(_ r: PixelRect) {
            x = r.x
            y = r.y
            width = r.width
            height = r.height
        }

        public var pixelRect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }

        enum CodingKeys: String, CodingKey {
            case x, y, width, height
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            x = try c.wholeNumber(Int.self, forKey: .x)
            y = try c.wholeNumber(Int.self, forKey: .y)
            width = try c.wholeNumber(Int.self, forKey: .width)
            height = try c.wholeNumber(Int.self, forKey: .height)
        }
    }

    /// A scene on the device's screen during a segment (`--device`).
    public struct Scene: Codable, Hashable, Sendable {
        public var id: SceneID
        /// Its window in output pixels.
        public var rect: Rect
        /// Its safe area in output pixels.
        public var safeArea: Rect
        /// `foregroundActive`, `foregroundInactive` or `background`.
        public var state: SceneActivationState
        /// For a scene with an anchored adaptive banner, how its content shares the window with it: `below` (the
        /// content ends where the banner begins; verify checks that nothing of it is drawn under the banner) or
        /// `overlay`. Absent for a scene without a banner, and in timelines written before banners had layouts.
        public var banner: BannerLayout?

        public init(id: SceneID, rect: Rect, safeArea: Rect, state: SceneActivationState, banner: BannerLayout? = nil) {
            self.id = id
            self.rect = rect
            self.safeArea = safeArea
            self.state = state
            self.banner = banner
        }
    }

    /// A run of output frames that show consecutive frames of one source in one place.
    public struct Segment: Codable, Hashable, Sendable {
        public enum Kind: String, Codable, Sendable {
            case content, ad
        }

        public var kind: Kind
        public var source: String
        /// The source's nominal frame rate, `num/den` (the frame-rate rule maps output frames to its frames).
        public var sourceFps: String
        /// Index of the break in the plan; `nil` for content.
        public var breakIndex: Int?
        /// Index of the ad in its break; `nil` for content.
        public var adIndex: Int?
        public var outStartFrame: Int64
        /// Exclusive.
        public var outEndFrame: Int64
        /// Where in the source the segment starts and ends, in output ticks of the source's clock.
        public var srcStartTick: Int64
        public var srcEndTick: Int64
        /// The same in seconds of the source's clock.
        public var srcStart: Double
        public var srcEnd: Double
        /// A frozen picture (`pause`): every frame shows source tick `srcStartTick`, the audio is silent.
        public var paused: Bool
        /// The picture-in-picture window the video was drawn in, or `nil` in standard playback (full screen).
        public var pip: Rect?
        /// Where the source's picture itself landed (inside the window, letterboxed).
        public var picture: Rect
        /// Its sound (`audioStart`, `sourceAudioStart`, `audioPadded`, `audioDrift` in the file).
        public var sound: Sound
        /// On a device, what the screen showed (`display`, `scenes`, `layers` in the file).
        public var screen: Screen

        /// A segment's sound: where it starts in the output and in its source, and what was added or corrected.
        public struct Sound: Hashable, Sendable {
            /// The output audio sample at which the segment starts.
            public var start: Int64
            /// The source sample its audio was read from at the start.
            public var sourceStart: Int64
            /// Silence added because the source's audio ran out (or there was none), in samples.
            public var padded: Int64
            /// The splice's correction: samples of the source skipped (positive) or repeated as silence (negative)
            /// to put the source's audio exactly where its video is. Never accumulates: each segment starts exactly
            /// at its own position.
            public var drift: Int64

            public init(start: Int64, sourceStart: Int64, padded: Int64, drift: Int64) {
                self.start = start
                self.sourceStart = sourceStart
                self.padded = padded
                self.drift = drift
            }
        }

        /// On a device: the active display in output pixels, the scenes on screen and every layer drawn, bottom
        /// first; each absent without a device (the layers also in a passthrough run, whose pictures are copied).
        /// A layout change starts a new segment.
        public struct Screen: Hashable, Sendable {
            public var display: Rect?
            public var scenes: [Scene]?
            public var layers: [Layer]?

            public init(display: Rect? = nil, scenes: [Scene]? = nil, layers: [Layer]? = nil) {
                self.display = display
                self.scenes = scenes
                self.layers = layers
            }
        }

        enum CodingKeys: String, CodingKey {
            case kind, source, sourceFps, breakIndex = "break", adIndex = "ad", outStartFrame, outEndFrame, srcStartTick,
                 srcEndTick, srcStart, srcEnd, paused, pip, picture, audioStart, sourceAudioStart, audioPadded, audioDrift
            case display, scenes, layers
        }

        public init(kind: Kind, source: String, sourceFps: String, breakIndex: Int?, adIndex: Int?, outStartFrame: Int64,
                    outEndFrame: Int64, srcStartTick: Int64, srcEndTick: Int64, srcStart: Double, srcEnd: Double,
                    paused: Bool, pip: Rect?, picture: Rect, audioStart: Int64, sourceAudioStart: Int64,
                    audioPadded: Int64, audioDrift: Int64) {
            self.kind = kind
            self.source = source
            self.sourceFps = sourceFps
            self.breakIndex = breakIndex
            self.adIndex = adIndex
            self.outStartFrame = outStartFrame
            self.outEndFrame = outEndFrame
            self.srcStartTick = srcStartTick
            self.srcEndTick = srcEndTick
            self.srcStart = srcStart
            self.srcEnd = srcEnd
            self.paused = paused
            self.pip = pip
            self.picture = picture
            sound = Sound(start: audioStart, sourceStart: sourceAudioStart, padded: audioPadded, drift: audioDrift)
            screen = Screen()
        }

        public var frameCount: Int64 { outEndFrame - outStartFrame }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            kind = try c.decode(Kind.self, forKey: .kind)
            source = try c.decode(String.self, forKey: .source)
            sourceFps = try c.decode(String.self, forKey: .sourceFps)
            breakIndex = try c.wholeNumberIfPresent(Int.self, forKey: .breakIndex)
            adIndex = try c.wholeNumberIfPresent(Int.self, forKey: .adIndex)
            outStartFrame = try c.wholeNumber(Int64.self, forKey: .outStartFrame)
            outEndFrame = try c.wholeNumber(Int64.self, forKey: .outEndFrame)
            srcStartTick = try c.wholeNumber(Int64.self, forKey: .srcStartTick)
            srcEndTick = try c.wholeNumber(Int64.self, forKey: .srcEndTick)
            srcStart = try c.decode(Double.self, forKey: .srcStart)
            srcEnd = try c.decode(Double.self, forKey: .srcEnd)
            paused = try c.decode(Bool.self, forKey: .paused)
            pip = try c.decodeIfPresent(Rect.self, forKey: .pip)
            picture = try c.decode(Rect.self, forKey: .picture)
            sound = Sound(start: try c.wholeNumber(Int64.self, forKey: .audioStart),
                          sourceStart: try c.wholeNumber(Int64.self, forKey: .sourceAudioStart),
                          padded: try c.wholeNumber(Int64.self, forKey: .audioPadded),
                          drift: try c.wholeNumber(Int64.self, forKey: .audioDrift))
            screen = Screen(display: try c.decodeIfPresent(Rect.self, forKey: .display),
                            scenes: try c.decodeIfPresent([Scene].self, forKey: .scenes),
                            layers: try c.decodeIfPresent([Layer].self, forKey: .layers))
        }

        // Segments of the JSON always carry `break`, `ad` and `pip`, null when they do not apply.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(source, forKey: .source)
            try c.encode(sourceFps, forKey: .sourceFps)
            try c.encode(breakIndex, forKey: .breakIndex)
            try c.encode(adIndex, forKey: .adIndex)
            try c.encode(outStartFrame, forKey: .outStartFrame)
            try c.encode(outEndFrame, forKey: .outEndFrame)
            try c.encode(srcStartTick, forKey: .srcStartTick)
            try c.encode(srcEndTick, forKey: .srcEndTick)
            try c.encode(srcStart, forKey: .srcStart)
            try c.encode(srcEnd, forKey: .srcEnd)
            try c.encode(paused, forKey: .paused)
            try c.encode(pip, forKey: .pip)
            try c.encode(picture, forKey: .picture)
            try c.encode(sound.start, forKey: .audioStart)
            try c.encode(sound.sourceStart, forKey: .sourceAudioStart)
            try c.encode(sound.padded, forKey: .audioPadded)
            try c.encode(sound.drift, forKey: .audioDrift)
            try c.encodeIfPresent(screen.display, forKey: .display)
            try c.encodeIfPresent(screen.scenes, forKey: .scenes)
            try c.encodeIfPresent(screen.layers, forKey: .layers)
        }
    }
}

extension Timeline {
    /// Pretty, stable JSON (sorted keys), so that timelines diff well and golden files are byte-stable.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a timeline file.
    ///
    /// - Throws: Foundation's error when the file cannot be read; `TimelineError.malformed` naming the JSON path
    ///   of the first value that is missing or of the wrong type.
    public static func load(_ path: String) throws -> Timeline {
        try decode(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Decodes a timeline's JSON, every failure one line naming the JSON path (`segments[3].outEndFrame: …`).
    public static func decode(_ data: Data) throws(TimelineError) -> Timeline {
        do { return try JSONDecoder().decode(Timeline.self, from: data) } catch let error as DecodingError {
            throw TimelineError(error)
        } catch {
            throw .malformed(jsonPath: "", reason: "\(error)")
        }
    }
}
