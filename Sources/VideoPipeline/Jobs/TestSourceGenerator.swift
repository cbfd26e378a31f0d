import MediaCore

/// Makes synthetic clips whose every frame carries a frame stamp: `pipctl testsrc`.
///
/// Video: the moving `TestPattern` of the source id with frame `n`'s stamp. Audio: the source's `TestTone` with a
/// click at every whole second; its length is exactly the video's (`floor(frames × rate / fps)` samples).
public enum TestSourceGenerator {
    public struct Request: Sendable {
        public var output: String
        public var duration: MediaDuration
        public var size: PixelSize
        public var frameRate: FrameRate
        public var sourceID: String
        /// The tone, in Hz; `TestTone.defaultFrequency(forSourceID:)` when not given.
        public var toneFrequency: Int
        public var sampleRate: Int
        public var channels: Int
        public var encoding: EncodingSettings

        public init(output: String, duration: MediaDuration, size: PixelSize = OutputFormat.standard.size,
                    frameRate: FrameRate = OutputFormat.standard.frameRate, sourceID: String = "content",
                    toneFrequency: Int? = nil, sampleRate: Int = OutputFormat.standard.sampleRate,
                    channels: Int = OutputFormat.standard.channels, encoding: EncodingSettings = EncodingSettings()) {
            self.output = output
            self.duration = duration
            self.size = size
            self.frameRate = frameRate
            self.sourceID = sourceID
            self.toneFrequency = toneFrequency ?? TestTone.defaultFrequency(forSourceID: sourceID)
            self.sampleRate = sampleRate
            self.channels = channels
            self.encoding = encoding
        }
    }

    public struct Result: Sendable {
        public var frames: Int64
        public var audioSamples: Int64
    }

    /// Writes the clip atomically.
    /// - Throws: `TestSourceError` for a bad id, size or tone; `MediaError` for the output.
    public static func generate(_ request: Request, control: JobControl = .none) throws -> Result {
        guard request.duration > .zero else {
            throw MediaError.invalidSetting(name: "duration", value: request.duration.description, reason: "must be positive")
        }
        let pattern = try TestPattern(sourceID: request.sourceID, size: request.size)
        let tone = try TestTone(frequency: request.toneFrequency, sampleRate: request.sampleRate, channels: request.channels)
        let format = OutputFormat(size: request.size, frameRate: request.frameRate, sampleRate: request.sampleRate,
                                  channels: request.channels)
        let stage = try OutputStage(destination: request.output, format: format, encoding: request.encoding)
        let canvas = try Frame.picture(request.size)
        let frames = request.frameRate.frameCount(in: request.duration)
        for n in 0..<frames {
            if control.isCancelled() { throw MediaError.interrupted }
            try canvas.makeWritable()
            try pattern.draw(frame: Int(n), luma: canvas.planeView(0), cb: canvas.planeView(1), cr: canvas.planeView(2))
            try stage.write(frame: n, picture: VideoPicture(frame: canvas)) { span, audio in
                audio.write(count: span.count) { _, samples in
                    tone.fill(UnsafeMutableBufferPointer(rebasing: samples[..<span.count]), startSample: span.start)
                }
            }
            control.progress(n + 1, frames)
        }
        try stage.commit()
        return Result(frames: stage.frameCount, audioSamples: stage.sampleCount)
    }
}
