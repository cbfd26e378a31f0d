import AdPlayback
import Foundation
import MediaCore
import Rendering
import Verification
import VideoPipeline

/// `pipctl report`: a render at a glance, as one self-contained HTML page (and, with `--png`, one picture).
enum ReportCommand: Command {
    struct Options: CommandOptions {
        var render: String
        var output: String?
        var png: String?
        var verify: Bool

        init(_ arguments: ParsedArguments) {
            render = arguments[ReportCommand.render]
            output = arguments[ReportCommand.output]
            png = arguments[ReportCommand.png]
            verify = arguments[ReportCommand.verify]
        }
    }

    static let render = Parameter.positional(
        .text("OUT"), help: "The render: its MP4 (with OUT.timeline.json and OUT.events.jsonl beside it), or an HLS "
            + "render's directory, master.m3u8 or media.m3u8 (with DIR/timeline.json and DIR/events.jsonl).")
    static let output = Parameter.optional(
        "output", short: "o", .text("REPORT.html"), absent: "OUT.report.html beside the render (DIR.report.html for HLS)",
        help: "The HTML file to write; it appears only when the report is complete, and never replaces the render's files.")
    static let png = Parameter.optional(
        "png", .text("SHEET.png"), absent: "none",
        help: "Also write the time strip and the thumbnails as one contact-sheet picture, 1600 pixels wide and as "
            + "tall as its lanes and thumbnails need.")
    static let verify = Parameter.flag(
        "verify", help: "Run 'pipctl verify' on the render and show its verdict on each run (the problems it finds "
            + "are listed under the runs whose frames they name).")

    static let definition = CommandDefinition(
        name: "report",
        abstract: "Write a render's report: one HTML page that shows it at a glance.",
        discussion: "Reads the render's timeline and event log (checked against the output as verify checks them), "
            + "decodes the frames it shows (seeking to them) and measures the sound, and writes one HTML file "
            + "that works offline (no network references: "
            + "styles, script, pictures and plots are inside it): a time strip with lanes for content and ads "
            + "(break and ad numbers), picture in picture, each scene (at most 24 lanes) and each kind of screen "
            + "layer (banner, full-screen ad, slider, cards, …) and the events, the notable ones labelled (breaks, "
            + "ads, errors, commands, banner requests), whose details show on hover; a table of the runs with what "
            + "changed at each and thumbnails of its first and last frame (at most 120, ad runs first, a device "
            + "render's cropped to its display; a change of the screen starts a run) and, with --verify, verify's "
            + "verdict per run ('not checked', with the reason, when verify cannot run); the short-term loudness over time "
            + "with each run's integrated loudness (BS.1770-4, EBU R128 gating); and the event table, filterable "
            + "by type. Values from the render's files are cut to 200 characters, and control, bidirectional and "
            + "invisible characters shown as \\u{…}. Exits 2 when the timeline or the event log is missing, too large "
            + "(64 MiB; the event log 200,000 lines) or not what it should be, naming the file and the JSON path or "
            + "line (docs/REPORT.md).",
        parameters: [render, output, png, verify])

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        let files = RenderFiles(output: options.render)
        let destination = options.output ?? files.defaultReport
        var check = CommandFiles()
        check.read("OUT", files.media)
        check.read("the timeline", files.timeline)
        check.read("the event log", files.events)
        check.write(options.output == nil ? "the report" : "-o", destination)
        check.write("--png", options.png)
        try check.check(command: context.command)

        let verify = options.verify, interrupt = context.interrupt
        let progress = context.progress("report", total: nil)
        defer { progress.finish() }
        let result: (html: Data, png: Data?, sheet: PixelSize?)
        do {
            result = try await runBlocking { () throws -> (html: Data, png: Data?, sheet: PixelSize?) in
                let gathered = try RenderReportReader.read(files, verify: verify, control: JobControl(isCancelled: { interrupt.isSet }))
                let html = try ReportPage(report: gathered.report).data(isCancelled: { interrupt.isSet })
                guard options.png != nil else { return (html, nil, nil) }
                let sheet = ContactSheet(report: gathered.report, thumbnails: gathered.thumbnails)
                return (html, try sheet.png(isCancelled: { interrupt.isSet }), sheet.size)
            }
        } catch let error as ReportError {
            if case .media(.interrupted) = error { try context.rethrowing(error, interrupted: true) }
            if case .input = error { throw CommandFailure(error.description, exitStatus: 2) }
            throw CommandFailure(error.description)
        }
        progress.finish()
        let page = try AtomicFile(destination: destination)
        try page.write(result.html)
        var written = [page]
        if let path = options.png, let png = result.png {
            let sheet = try AtomicFile(destination: path)
            try sheet.write(png)
            written.append(sheet)
        }
        try AtomicFile.commitAll(written)
        context.output.write("\(destination): report of \(options.render), \(result.html.count / 1024) KB\n")
        if let path = options.png, let size = result.sheet {
            context.output.write("\(path): contact sheet \(size.width)x\(size.height)\n")
        }
    }
}
