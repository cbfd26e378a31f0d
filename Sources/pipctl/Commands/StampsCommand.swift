import Foundation
import VideoPipeline
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
    static let json = Parameter.flag("json", help: "Write JSON: every frame's stamp and the runs.")

    static let definition = CommandDefinition(
        name: "stamps",
        abstract: "Read the frame stamps of a video back from its pixels.",
        discussion: "Decodes FILE, reads the stamp of every frame (wherever the stamped picture is: full screen, "
            + "letterboxed, or in a picture-in-picture window) and prints them as runs: 'output 0–449: content "
            + "0–449' means output frames 0 to 449 show frames 0 to 449 of the source 'content'. A run ends where "
            + "the source changes, goes back, or jumps by more than 8 frames; frames without a stamp are listed "
            + "as such. --json lists every frame too.",
        parameters: [file, json])

    static func run(_ options: Options, context: CommandContext) async throws {
        let scan = try StampScan.scan(options.file)
        guard options.json else {
            context.output.write(scan.summary + "\n")
            return
        }
        struct Frame: Encodable { var frame: Int; var source: String?; var index: Int? }
        struct Run: Encodable { var first: Int64; var last: Int64; var source: String?; var firstIndex: Int?; var lastIndex: Int? }
        struct Report: Encodable { var file: String; var frames: [Frame]; var runs: [Run] }
        let report = Report(
            file: options.file,
            frames: scan.stamps.enumerated().map { Frame(frame: $0.offset, source: $0.element?.sourceID, index: $0.element?.frameIndex) },
            runs: scan.runs.map { Run(first: $0.first, last: $0.last, source: $0.sourceID, firstIndex: $0.firstIndex, lastIndex: $0.lastIndex) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        context.output.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
    }
}
