import MediaCore

/// Conforms one file to an output format and encodes it: `pipctl transcode`.
public enum Transcoder {
    public struct Request: Sendable {
        public var input: String
        public var output: String
        /// Output size; the source's display size when `nil`.
        public var size: PixelSize?
        /// Output frame rate; the source's when `nil`.
        public var frameRate: FrameRate?
        public var sampleRate: Int
        public var channels: Int
        public var encoding: EncodingSettings
        /// Where to write the MD5 of every output picture (`framemd5` format), if anywhere.
        public var frameHashPath: String?

        public init(input: String, output: String, size: PixelSize? = nil, frameRate: FrameRate? = nil,
                    sampleRate: Int = 48000, channels: Int = 2, encoding: EncodingSettings = EncodingSettings(),
                    frameHashPath: String? = nil) {
            self.input = input
            self.output = output
            self.size = size
            self.frameRate = frameRate
            self.sampleRate = sampleRate
            self.channels = channels
            self.encoding = encoding
            self.frameHashPath = frameHashPath
        }
    }

    public struct Result: Sendable {
        public var format: OutputFormat
        public var frames: Int64
        public var audioSamples: Int64
        /// Samples of silence added because the source's audio ended before its video (or it had none).
        public var paddedSamples: Int64
    }

    /// Runs the job. Nothing is left at `output` (or at the frame-hash path) unless it succeeds.
    public static func run(_ request: Request, control: JobControl = .none) throws(MediaError) -> Result {
        let probe = try MediaProbe.probe(request.input)
        guard let video = probe.bestVideo else { throw .missingStream(path: request.input, kind: .video) }
        let format = OutputFormat(size: request.size ?? video.displaySize, frameRate: request.frameRate ?? video.defaultOutputRate ?? FrameRate(30),
                                  sampleRate: request.sampleRate, channels: request.channels)
        try format.validate()
        let source = try MediaSource(path: request.input, format: format, threads: request.encoding.threads)
        let writer = try MediaWriter(destination: request.output, format: format, encoding: request.encoding)
        let hashes = try request.frameHashPath.map { path throws(MediaError) in try FrameHashLog(destination: path, format: format) }
        let compositor = try Compositor(size: format.size)
        let clock = format.sampleClock
        let audio = try AudioBuffer(channels: format.channels, sampleRate: format.sampleRate,
                                    capacity: Int(clock.samples(fromFrame: 0, toFrame: 1)) + 2)
        let screen = PixelRect(size: format.size)
        var padded: Int64 = 0
        for tick in 0..<source.frameCount {
            if control.isCancelled() { throw .interrupted }
            try compositor.draw(source.picture(atTick: tick), in: screen)
            try hashes?.append(compositor)
            try writer.writeVideo(compositor)
            let count = Int(clock.samples(fromFrame: tick, toFrame: tick + 1))
            let real = try source.readAudio(from: clock.sample(atFrame: tick), count: count, into: audio)
            padded += Int64(count - real)
            try writer.writeAudio(audio)
            control.progress(tick + 1, source.frameCount)
        }
        // The output and its frame hashes appear together or not at all.
        let files = [try writer.finishWriting()] + (hashes.map { [$0.finishWriting()] } ?? [])
        do { try AtomicFile.commitAll(files) } catch { throw MediaError(error) }
        return Result(format: format, frames: writer.frameCount, audioSamples: writer.sampleCount, paddedSamples: padded)
    }
}
