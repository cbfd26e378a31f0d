import Foundation
import VideoPipeline
import MediaCore

/// `pipctl testsrc`: makes a synthetic clip whose every frame says which clip and frame it is.
enum TestsrcCommand: Command {
    struct Options: CommandOptions {
        var output: String
        var duration: MediaDuration
        var format: FormatOptions
        /// Nil for the output file's name without its extension.
        var id: String?
        /// Nil for the id's default tone (`TestTone.defaultFrequency(forSourceID:)`).
        var toneFrequency: Int?
        var encoding: EncodingOptions

        init(_ arguments: ParsedArguments) {
            output = arguments[TestsrcCommand.output]
            duration = arguments[TestsrcCommand.duration]
            format = FormatOptions(fixed: arguments)
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
        help: "The clip's name, written in the stamp of every frame, so that frames can be traced back to their "
            + "source after stitching.")
    static let tone = Parameter.optional(
        "tone", .integer("HZ", in: 100...4000), absent: "one of 16 tones from 450 to 2700 Hz, chosen by a hash of the id",
        help: "Frequency of the sine tone on the audio track, which also has a click at every whole second; "
            + "'pipctl verify' checks that each segment's audio is its source's tone.")

    static let definition = CommandDefinition(
        name: "testsrc",
        abstract: "Make a test clip with a machine-readable stamp on every frame.",
        discussion: "Writes a clip of moving test patterns and a sine tone. Every frame carries its clip name and "
            + "frame number as a block-code stamp that 'pipctl stamps' and 'pipctl verify' read back, so that the "
            + "timing of a stitched output can be checked from its pixels. Stamps survive H.264 at the default "
            + "quality and scaling down to a third of the width. NAME is 1 to 8 characters of a-z, 0-9, - and _.",
        parameters: [output, duration] + FormatOptions.Fixed.parameters + [id, tone] + EncodingOptions.parameters)

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        var files = CommandFiles()
        files.write("-o", options.output)
        try files.check(command: context.command)
        let id = options.id ?? URL(fileURLWithPath: options.output).deletingPathExtension().lastPathComponent
        let format = OutputFormat.resolve(size: options.format.size, frameRate: options.format.frameRate,
                                          sampleRate: options.format.sampleRate, channels: options.format.channels)
        let rate = format.frameRate
        let request = TestSourceGenerator.Request(
            output: options.output, duration: options.duration, size: format.size, frameRate: rate, sourceID: id,
            toneFrequency: options.toneFrequency, sampleRate: format.sampleRate, channels: format.channels,
            encoding: options.encoding.settings)
        let progress = context.progress("testsrc", total: options.duration)
        defer { progress.finish() }
        do {
            let result = try await runBlocking { try TestSourceGenerator.generate(request, control: context.jobControl(progress, rate: rate)) }
            progress.finish()
            context.output.write("\(options.output): \(result.frames) frames of '\(id)' at \(rate) fps, \(result.audioSamples) audio samples\n")
        } catch {
            try context.rethrowing(error, interrupted: (error as? MediaError) == .interrupted)
        }
    }
}
