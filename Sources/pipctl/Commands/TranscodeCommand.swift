import VideoPipeline
import MediaCore

/// `pipctl transcode`: conforms one media file to an output format.
enum TranscodeCommand: Command {
    struct Options: CommandOptions {
        var input: String
        var output: String
        /// Nil fields keep the input's.
        var size: PixelSize?
        var frameRate: FrameRate?
        var sampleRate: Int
        var channels: Int
        var encoding: EncodingOptions
        var frameHashes: String?

        init(_ arguments: ParsedArguments) {
            input = arguments[TranscodeCommand.input]
            output = arguments[TranscodeCommand.output]
            size = arguments[TranscodeCommand.size]
            frameRate = arguments[TranscodeCommand.fps]
            sampleRate = arguments[TranscodeCommand.sampleRate]
            channels = arguments[TranscodeCommand.channels]
            encoding = EncodingOptions(arguments)
            frameHashes = arguments[TranscodeCommand.frameHash]
        }
    }

    static let input = Parameter.positional(.text("IN"), help: "The media file to read.")
    static let output = Parameter.required(
        "output", short: "o", .text("OUT"),
        help: "The file to write (.mp4, or .mkv for the lossless profile); it appears only when the work succeeds.")
    static let size = Parameter.optional(
        "size", .evenSize, absent: "the input's size",
        help: "Output frame size in pixels; both sides even. The picture is letterboxed or pillarboxed to keep "
            + "its shape.")
    static let fps = Parameter.optional(
        "fps", .frameRate, absent: "the input's rate",
        help: "Output frame rate, exact (30, 29.97, 30000/1001); frames are repeated or dropped on the output "
            + "clock, never blended.")
    static let sampleRate = FormatOptions.Fixed.sampleRate
    static let channels = FormatOptions.Fixed.channels
    static let frameHash = Parameter.optional(
        "framehash", .text("FILE"), absent: "none",
        help: "Also write the MD5 of every output picture to FILE, in the format of ffmpeg's framemd5.")

    static let definition = CommandDefinition(
        name: "transcode",
        abstract: "Conform a media file to a frame size, rate and audio format.",
        discussion: "Decodes IN and encodes it to OUT with the given size, frame rate and audio format, keeping "
            + "every timestamp exact: frames are placed on the output clock by their presentation time and audio "
            + "is resampled without drift. Options left out keep the input's values.",
        parameters: [input, output, size, fps, sampleRate, channels] + EncodingOptions.parameters + [frameHash])

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        var files = CommandFiles()
        files.read("IN", options.input)
        files.write("-o", options.output)
        files.write("--framehash", options.frameHashes)
        try files.check(command: context.command)
        let probe = try MediaProbe.probe(options.input)
        let rate = options.frameRate ?? probe.bestVideo?.defaultOutputRate ?? FrameRate(30)
        let request = Transcoder.Request(
            input: options.input, output: options.output, size: options.size, frameRate: options.frameRate,
            sampleRate: options.sampleRate, channels: options.channels, encoding: options.encoding.settings,
            frameHashPath: options.frameHashes)
        let progress = context.progress("transcode", total: probe.bestVideo?.duration ?? probe.duration)
        defer { progress.finish() }
        do {
            let result = try await runBlocking { try Transcoder.run(request, control: context.jobControl(progress, rate: rate)) }
            progress.finish()
            context.output.write("\(options.output): \(result.frames) frames \(result.format.size) at \(result.format.frameRate) fps, \(result.audioSamples) samples at \(result.format.sampleRate) Hz\n")
        } catch {
            try context.rethrowing(error, interrupted: (error as? MediaError) == .interrupted)
        }
    }
}
