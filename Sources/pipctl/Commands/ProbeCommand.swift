import VideoPipeline
/// `pipctl probe`: describes the streams of a media file.
enum ProbeCommand: Command {
    struct Options: CommandOptions {
        var file: String
        var json: Bool
        var loudness: Bool

        init(_ arguments: ParsedArguments) {
            file = arguments[ProbeCommand.file]
            json = arguments[ProbeCommand.json]
            loudness = arguments[ProbeCommand.loudness]
        }
    }

    static let file = Parameter.positional(.text("FILE"), help: "The media file to describe.")
    static let json = Parameter.flag("json", help: "Write the description as JSON instead of text.")
    static let loudness = Parameter.flag(
        "loudness", help: "Also decode the sound and measure it by ITU-R BS.1770-4 and EBU R128 (libebur128): "
            + "integrated loudness (LUFS), loudness range (LU), the highest momentary loudness, true peak (dBTP) "
            + "and sample peak (dBFS).")

    static let definition = CommandDefinition(
        name: "probe",
        abstract: "Describe the streams of a media file.",
        discussion: "Prints the container, duration and streams of FILE: for video the codec, size, sample "
            + "aspect ratio, frame rate, time base and frame count; for audio the codec, sample rate, channels "
            + "and time base. Times are exact (fractions of a second where needed).",
        parameters: [file, json, loudness])

    /// `--loudness` decodes the whole sound: a terminating signal (SIGQUIT too) stops it between 0.1 s blocks.
    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        var report = ProbeReport(try MediaProbe.probe(options.file))
        if options.loudness {
            let file = options.file, interrupt = context.interrupt
            do {
                let measured = try await runBlocking {
                    try LoudnessAnalysis.measure(file: file, control: JobControl(isCancelled: { interrupt.isSet }))
                }
                report.loudness = ProbeReport.Loudness(measured.whole, sampleRate: measured.sampleRate)
            } catch {
                try context.rethrowing(error, interrupted: (error as? MediaError) == .interrupted)
            }
        }
        try context.interrupt.checkpoint()
        context.output.write(options.json ? report.json : report.text)
    }
}
