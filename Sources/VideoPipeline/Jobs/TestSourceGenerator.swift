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

        public init(output: String, duration: MediaDuration, size: PixelSize = PixelSize(width: 640, height: 360),
                    frameRate: FrameRate = FrameRate(30), sourceID: String = "content", toneFrequency: Int? = nil,
                    sampleRate: Int = 48000, channels: Int = 2, encoding: EncodingSettings = EncodingSettings()) {
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
        let writer = try MediaWriter(destination: request.output, format: format, encoding: request.encoding)
        let canvas = try Frame.picture(request.size)
        let clock = format.sampleClock
        let frames = request.frameRate.frameCount(in: request.duration)
        let audio = try AudioBuffer(channels: request.channels, sampleRate: request.sampleRate,
                                    capacity: Int(clock.samples(fromFrame: 0, toFrame: 1)) + 2)
        for n in 0..<frames {
            if control.isCancelled() { throw MediaError.interrupted }
            try canvas.makeWritable()
            try pattern.draw(frame: Int(n), luma: canvas.planeView(0), cb: canvas.planeView(1), cr: canvas.planeView(2))
            try writer.writeVideo(VideoPicture(frame: canvas))
            let start = clock.sample(atFrame: n)
            audio.write(count: Int(clock.samples(fromFrame: n, toFrame: n + 1))) { channel, samples in
                tone.fill(UnsafeMutableBufferPointer(rebasing: samples[..<Int(clock.samples(fromFrame: n, toFrame: n + 1))]),
                          startSample: start)
            }
            try writer.writeAudio(audio)
            control.progress(n + 1, frames)
        }
        try writer.finish()
        return Result(frames: frames, audioSamples: clock.sample(atFrame: frames))
    }
}
