import MediaCore

/// `pipctl testsrc`: makes a synthetic clip whose every frame says which clip and frame it is.
enum TestsrcCommand: Command {
    struct Options: CommandOptions {
        var output: String
        var duration: MediaDuration
        var format: OutputFormat
        /// Nil for the output file's name without its extension.
        var id: String?
        /// 0 for silence.
        var toneFrequency: Int
        var encoding: EncodingOptions

        init(_ arguments: ParsedArguments) {
            output = arguments[TestsrcCommand.output]
            duration = arguments[TestsrcCommand.duration]
            format = OutputFormat(arguments)
            id = arguments[TestsrcCommand.id]
            toneFrequency = arguments[TestsrcCommand.tone]
            encoding = EncodingOptions(arguments)
        }
    }

    static let output = Parameter.required(
        "output", short: "o", .text("FILE"), help: "The MP4 file to write; replaced if it exists.")
    static let duration = Parameter.required(
        "duration", .seconds(), help: "Length of the clip: seconds (10, 2.5) or a clock time (1:30).")
    static let id = Parameter.optional(
        "id", .text("NAME"), absent: "the output file's name without its extension",
        help: "The clip's name, drawn on every frame and written in its stamps, so that frames can be traced "
            + "back to their source after stitching.")
    static let tone = Parameter.option(
        "tone", .integer("HZ", in: 0...20_000), default: 1000,
        help: "Frequency of the sine tone on the audio track; 0 makes silence.")

    static let definition = CommandDefinition(
        name: "testsrc",
        abstract: "Make a test clip with a machine-readable stamp on every frame.",
        discussion: "Writes an MP4 of moving test patterns and a sine tone. Every frame carries its clip name, "
            + "frame number and time, drawn for people and encoded as a stamp that 'pipctl stamps' reads back, so "
            + "that the timing of a stitched output can be checked from its pixels. Use --profile lossless when "
            + "the stamps must survive encoding exactly.",
        parameters: [output, duration] + OutputFormat.parameters + [id, tone] + EncodingOptions.parameters)

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        throw CommandFailure.notWired(context.command)
    }
}
