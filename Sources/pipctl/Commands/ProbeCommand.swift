import VideoPipeline
/// `pipctl probe`: describes the streams of a media file.
enum ProbeCommand: Command {
    struct Options: CommandOptions {
        var file: String
        var json: Bool

        init(_ arguments: ParsedArguments) {
            file = arguments[ProbeCommand.file]
            json = arguments[ProbeCommand.json]
        }
    }

    static let file = Parameter.positional(.text("FILE"), help: "The media file to describe.")
    static let json = Parameter.flag("json", help: "Write the description as JSON instead of text.")

    static let definition = CommandDefinition(
        name: "probe",
        abstract: "Describe the streams of a media file.",
        discussion: "Prints the container, duration and streams of FILE: for video the codec, size, sample "
            + "aspect ratio, frame rate, time base and frame count; for audio the codec, sample rate, channels "
            + "and time base. Times are exact (fractions of a second where needed).",
        parameters: [file, json])

    static func run(_ options: Options, context: CommandContext) async throws {
        let report = ProbeReport(try MediaProbe.probe(options.file))
        context.output.write(options.json ? report.json : report.text)
    }
}
