/// `pipctl stamps`: reads back the frame stamps that `testsrc` draws.
enum StampsCommand: Command {
    struct Options: CommandOptions {
        var file: String
        var json: Bool

        init(_ arguments: ParsedArguments) {
            file = arguments[StampsCommand.file]
            json = arguments[StampsCommand.json]
        }
    }

    static let file = Parameter.positional(.text("FILE"), help: "The video to read.")
    static let json = Parameter.flag("json", help: "Write one JSON object per frame instead of text.")

    static let definition = CommandDefinition(
        name: "stamps",
        abstract: "Read the frame stamps of a video back from its pixels.",
        discussion: "Decodes FILE and prints, for each output frame, its time and the stamp found in its "
            + "pixels: the source clip's name, frame number and time, or nothing for a frame without a stamp. "
            + "This is how a stitched output is checked: which frame of which source is on screen when.",
        parameters: [file, json])

    static func run(_ options: Options, context: CommandContext) async throws {
        throw CommandFailure.notWired(context.command)
    }
}
