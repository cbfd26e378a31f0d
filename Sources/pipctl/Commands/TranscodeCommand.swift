import MediaCore

/// `pipctl transcode`: conforms one media file to an output format.
enum TranscodeCommand: Command {
    struct Options: CommandOptions {
        var input: String
        var output: String
        /// Nil fields keep the input's.
        var size: PixelSize?
        var frameRate: FrameRate?
        var sampleRate: Int?
        var channels: Int?
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
        "output", short: "o", .text("OUT"), help: "The MP4 file to write; replaced if it exists.")
    static let size = Parameter.optional(
        "size", .evenSize, absent: "the input's size",
        help: "Output frame size in pixels; both sides even. The picture is letterboxed or pillarboxed to keep "
            + "its shape.")
    static let fps = Parameter.optional(
        "fps", .frameRate, absent: "the input's rate",
        help: "Output frame rate, exact (30, 29.97, 30000/1001); frames are repeated or dropped on the output "
            + "clock, never blended.")
    static let sampleRate = Parameter.optional(
        "sample-rate", .integer("HZ", in: 8000...192_000), absent: "the input's rate", help: "Audio sample rate in Hz.")
    static let channels = Parameter.optional(
        "channels", .integer("N", in: 1...8), absent: "the input's channels", help: "Number of audio channels.")
    static let frameHash = Parameter.optional(
        "framehash", .text("FILE"), absent: "none",
        help: "Also write a hash of every output frame to FILE, one line per frame, for exact comparisons.")

    static let definition = CommandDefinition(
        name: "transcode",
        abstract: "Conform a media file to a frame size, rate and audio format.",
        discussion: "Decodes IN and encodes it to OUT with the given size, frame rate and audio format, keeping "
            + "every timestamp exact: frames are placed on the output clock by their presentation time and audio "
            + "is resampled without drift. Options left out keep the input's values.",
        parameters: [input, output, size, fps, sampleRate, channels] + EncodingOptions.parameters + [frameHash])

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        throw CommandFailure.notWired(context.command)
    }
}
