/// `pipctl verify`: checks a rendered file frame by frame against its timeline.
enum VerifyCommand: Command {
    struct Options: CommandOptions {
        var output: String
        /// Nil for the default beside the output.
        var timeline: String?
        var expected: String?
        var json: Bool

        init(_ arguments: ParsedArguments) {
            output = arguments[VerifyCommand.output]
            timeline = arguments[VerifyCommand.timeline]
            expected = arguments[VerifyCommand.expect]
            json = arguments[VerifyCommand.json]
        }
    }

    static let output = Parameter.positional(.text("OUT"), help: "The rendered MP4 to check.")
    static let timeline = Parameter.optional(
        "timeline", .text("FILE"), absent: "OUT.timeline.json", help: "The timeline written by 'pipctl render'.")
    static let expect = Parameter.optional(
        "expect", .text("GOLDEN"), absent: "none",
        help: "A golden timeline from an earlier run: any difference in sources, frame spans or events fails the "
            + "check.")
    static let json = Parameter.flag("json", help: "Write the report as JSON instead of text.")

    static let definition = CommandDefinition(
        name: "verify",
        abstract: "Check a rendered MP4 frame by frame against its timeline.",
        discussion: "Reads the frame stamps of OUT and compares them with the timeline: every output frame must "
            + "show the frame of the source the timeline names, at the right time, with no gap, repeat or drop, "
            + "and the audio must have exactly the samples of the video's span. Reports the first mismatches and "
            + "exits with status 1 if there is any.",
        parameters: [output, timeline, expect, json])

    static func run(_ options: Options, context: CommandContext) async throws {
        throw CommandFailure.notWired(context.command)
    }
}
