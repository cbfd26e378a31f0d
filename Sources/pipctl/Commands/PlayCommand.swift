import MediaCore

/// `pipctl play`: runs a session in real time, printing events and taking commands from standard input.
enum PlayCommand: Command {
    struct Options: CommandOptions {
        var session: SessionOptions
        var format: FormatOptions
        var encoding: EncodingOptions
        var events: String?
        /// A multiple of real time.
        var speed: Rational
        var record: String?
        var commandLog: String?

        init(_ arguments: ParsedArguments) {
            session = SessionOptions(arguments)
            format = FormatOptions(fromContent: arguments)
            encoding = EncodingOptions(arguments)
            events = arguments[PlayCommand.events]
            speed = arguments[PlayCommand.speed]
            record = arguments[PlayCommand.record]
            commandLog = arguments[PlayCommand.commandLog]
        }
    }

    static let events = Parameter.optional(
        "events", .text("FILE"), absent: "none",
        help: "Also write the event log to FILE, one JSON object per line, as 'pipctl render' does.")
    static let speed = Parameter.option(
        "speed", .number("N", above: .zero, examples: "1, 2, 0.5"), default: Rational(1),
        help: "Playback speed as a multiple of real time.")
    static let record = Parameter.optional(
        "record", .text("OUT"), absent: "none",
        help: "Also record what the player shows to an MP4 file, encoded with --profile, --crf and --preset.")
    static let commandLog = Parameter.optional(
        "command-log", .text("FILE"), absent: "none",
        help: "Write each command typed during playback with its content time, in --script syntax, so that the "
            + "session can be replayed with --script @FILE.")

    static let definition = CommandDefinition(
        name: "play",
        abstract: "Play a session in real time, taking commands from standard input.",
        discussion: "Runs the same session as 'pipctl render' (same inputs and options) on the wall clock instead "
            + "of as fast as possible, printing each event as it happens and reading commands from standard "
            + "input, one per line in --script syntax, so that a person or a test harness can drive the player "
            + "like a user. With no --content, --ads or --break it plays the bundled demo.",
        parameters: SessionOptions.inputParameters + [events, speed, record, commandLog] + FormatOptions.FromContent.parameters
            + EncodingOptions.parameters + SessionOptions.adRequestParameters + SessionOptions.behaviourParameters,
        exclusive: SessionOptions.exclusive)

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        throw CommandFailure.notWired(context.command)
    }
}
