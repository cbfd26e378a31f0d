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
        /// Audio sample rate; the source's when `nil`.
        public var sampleRate: Int?
        /// Audio channels; the source's when `nil`.
        public var channels: Int?
        public var encoding: EncodingSettings
        /// Where to write the MD5 of every output picture (`framemd5` format), if anywhere.
        public var frameHashPath: String?
        /// The frames encoded as IDRs (where an HLS segment may start), given the output's frame count; x264 places
        /// the others.
        public var keyframes: (@Sendable (_ frames: Int64) -> Set<Int64>)?
        /// A gain (and its limiter) every sample is multiplied by: loudness normalisation; `nil` for none.
        public var soundGain: SoundGain?

        public init(input: String, output: String, size: PixelSize? = nil, frameRate: FrameRate? = nil,
                    sampleRate: Int? = nil, channels: Int? = nil, encoding: EncodingSettings = EncodingSettings(),
                    frameHashPath: String? = nil, keyframes: (@Sendable (_ frames: Int64) -> Set<Int64>)? = nil) {
            self.input = input
            self.output = output
            self.size = size
            self.frameRate = frameRate
            self.sampleRate = sampleRate
            self.channels = channels
            self.encoding = encoding
            self.frameHashPath = frameHashPath
            self.keyframes = keyframes
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
        guard probe.bestVideo != nil else { throw .missingStream(path: request.input, kind: .video) }
        let format = OutputFormat.resolve(size: request.size, frameRate: request.frameRate, sampleRate: request.sampleRate,
                                          channels: request.channels, source: probe)
        try format.validate()
        // The output stage first, on the calling thread: x264's threads and the encoder thread take its priority.
        // Decoding, scaling and drawing run on a thread below it (FeederPriority), which the decoder's and
        // libswscale's threads inherit.
        let stage = try OutputStage(destination: request.output, format: format, encoding: request.encoding,
                                    frameHashPath: request.frameHashPath)
        return try FeederPriority.run("pipctl decode") { () throws(MediaError) -> Result in
            let source = try MediaSource(path: request.input, format: format, threads: request.encoding.threads)
            source.soundGain = request.soundGain
            // A picture that fills the output is scaled straight into the encoder's frame; the compositor (made
            // when a picture first needs bars or turning) draws the others.
            let direct = DirectScaler(size: format.size, threads: request.encoding.threads)
            var compositor: Compositor?
            let screen = PixelRect(size: format.size)
            var padded: Int64 = 0
            let keyframes = request.keyframes?(source.frameCount) ?? []
            for tick in 0..<source.frameCount {
                if control.isCancelled() { throw .interrupted }
                let picture = try source.picture(atTick: tick)
                let sound = { (span: OutputStage.SampleSpan, audio: AudioBuffer) throws(MediaError) in
                    let real = try source.readAudio(from: span.start, count: span.count, into: audio)
                    padded += Int64(span.count - real)
                }
                if direct.fills(picture) {
                    try stage.write(frame: tick, keyframe: keyframes.contains(tick),
                                    draw: { target throws(MediaError) in try direct.scale(picture, into: target) }, sound: sound)
                } else {
                    let canvas = if let compositor { compositor } else { try Compositor(size: format.size) }
                    compositor = canvas
                    try canvas.draw(picture, in: screen)
                    try stage.write(frame: tick, picture: canvas.picture, keyframe: keyframes.contains(tick), sound: sound)
                }
                control.progress(tick + 1, source.frameCount)
            }
            // The output and its frame hashes appear together or not at all.
            try stage.commit()
            return Result(format: format, frames: stage.frameCount, audioSamples: stage.sampleCount, paddedSamples: padded)
        }
    }
}
