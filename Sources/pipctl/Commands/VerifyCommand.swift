import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import Verification
/// `pipctl verify`: checks a rendered file frame by frame against its timeline.
enum VerifyCommand: Command {
    struct Options: CommandOptions {
        var output: String
        /// Nil for the default beside the output.
        var timeline: String?
        var expected: String?
        var goldenScope: GoldenScope
        var json: Bool
        var sources: Bool

        init(_ arguments: ParsedArguments) throws(UsageError) {
            output = arguments[VerifyCommand.output]
            timeline = arguments[VerifyCommand.timeline]
            expected = arguments[VerifyCommand.expect]
            let only = arguments[VerifyCommand.expectOnly].flatMap { $0 }
            if !only.isEmpty, expected == nil {
                throw UsageError(command: "pipctl verify", message: "--expect-only needs --expect GOLDEN")
            }
            goldenScope = only.isEmpty ? .all : .only(Set(only))
            json = arguments[VerifyCommand.json]
            sources = arguments[VerifyCommand.sources]
        }
    }

    static let output = Parameter.positional(
        .text("OUT"), help: "The rendered MP4 to check, or an HLS render: its directory, master.m3u8 or media.m3u8 "
            + "(the markers are checked against DIR/timeline.json, then the frames through FFmpeg's HLS demuxer).")
    static let timeline = Parameter.optional(
        "timeline", .text("FILE"), absent: "OUT.timeline.json", help: "The timeline written by 'pipctl render'.")
    static let expect = Parameter.optional(
        "expect", .text("GOLDEN"), absent: "none",
        help: "A golden timeline (a timeline of an earlier, trusted run): the output must show the same sources "
            + "over the same frames, the same picture-in-picture windows (frames and rectangle), the same screen "
            + "layers (kind, scene, rectangle, source) and the same events (type, frame, break, ad, placement) as "
            + "the golden's NAME.events.jsonl beside its NAME.timeline.json; the report names the first difference "
            + "of each in words.")
    static let expectOnly = Parameter.repeating(
        "expect-only", .goldenAspects, absent: "all of them",
        help: "Compare only these with --expect's golden (repeat it or separate them with commas): frames, pip, "
            + "layers, events.")
    static let json = Parameter.flag("json", help: "Write the report as JSON instead of text.")
    static let sources = Parameter.flag(
        "sources",
        help: "Verify against the timeline's source files, without stamps: every output frame is matched to the "
            + "source frame it should show by a luma fingerprint, and the sound is aligned with each source's at "
            + "every splice. Exits 3 when the pictures are too static to tell frames apart (not verifiable).")

    static let definition = CommandDefinition(
        name: "verify",
        abstract: "Check a rendered MP4 frame by frame against its timeline.",
        discussion: "Decodes OUT, reads the frame stamp of every frame (inside the picture-in-picture window "
            + "too) and the tone of the audio, and compares what was really shown with the timeline: every output "
            + "frame must show the source frame the timeline and the frame-rate rule promise, content must go on "
            + "with no frame lost or repeated at a splice, and each change of audio must sit within one video "
            + "frame of its video boundary. On a device render, every banner, full-screen ad, landing screen, "
            + "scene without a player, the display and the bezel are checked at their timeline rectangles on "
            + "each segment's first, middle and last frames. Exits 0 when all holds, 1 with the problems in words "
            + "otherwise, 2 when the timeline is missing, malformed or out of bounds (one line naming it), 3 when a "
            + "layer's source cannot be read to check it. The "
            + "sources must be stamped clips made by 'pipctl testsrc', unless --sources is given: then any content "
            + "and ads are compared with the source files themselves.",
        parameters: [output, timeline, expect, expectOnly, json, sources])

    /// A terminating signal stops verify at once and removes its temporary MP4 (`TemporaryRemux`), the one file
    /// it writes.
    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        let playlist = HLSVerifier.mediaPlaylist(for: options.output)
        if options.sources { return try await badTimelineIsUsage { try await runAgainstSources(options, playlist: playlist, context: context) } }
        let report = try await badTimelineIsUsage { try await untilInterrupted(context) {
            try playlist.map { p throws(Verifier.Failure) in
                try HLSVerifier.verify(playlist: p, timelinePath: options.timeline, goldenPath: options.expected,
                                       goldenScope: options.goldenScope)
            } ?? Verifier.verify(.init(outputPath: options.output, timelinePath: options.timeline, goldenPath: options.expected,
                                       goldenScope: options.goldenScope))
        } }
        try write(JSONReport(report, problems: report.problems), text: report.text, json: options.json, context: context)
        if !report.passed {
            throw CommandFailure("\(options.output): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); first: \(report.problems.first ?? "")")
        }
        if report.notVerifiable {
            throw CommandFailure("\(options.output): not verifiable: \(report.layers.notVerifiable[0])", exitStatus: 3)
        }
    }

    /// A timeline (or golden) that is missing, malformed or out of bounds is bad input: one line, exit 2, as
    /// `pipctl report` says it. Every other failure keeps its own status.
    static func badTimelineIsUsage<T>(_ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch let failure as Verifier.Failure {
            if case .timeline = failure { throw CommandFailure(failure.description, exitStatus: 2) }
            throw failure
        }
    }

    /// Runs `work` on a thread of its own and returns what it returns, unless a terminating signal comes first:
    /// then the temporary MP4 is removed and the command throws `Interrupted` at once (verify writes nothing else,
    /// so the thread, which polls no flag, is left to the process's exit).
    static func untilInterrupted<T: Sendable>(_ context: CommandContext,
                                              _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let done = LockedState(false)
            let finish: @Sendable (Result<T, any Error>) -> Void = { result in
                let first = done.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            context.interrupt.onInterrupt { signal in
                TemporaryRemux.removeAll()
                finish(.failure(Interrupted(signal: signal)))
            }
            let thread = Thread { finish(Result { try work() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// A report as `--json` writes it: its own fields (each finding with its code), and `problems` beside them, the
    /// findings' sentences, as `verify --json` always wrote them.
    struct JSONReport<Report: Encodable>: Encodable {
        enum Keys: String, CodingKey { case problems }
        var report: Report
        var problems: [String]

        init(_ report: Report, problems: [String]) {
            self.report = report
            self.problems = problems
        }

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(problems, forKey: .problems)
        }
    }

    /// Prints a report in words, or as JSON with `--json`.
    static func write(_ report: some Encodable, text: String, json: Bool, context: CommandContext) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.output.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            context.output.write(text + "\n")
        }
    }

    /// `verify --sources`: exit 0 passed, 1 problems, 3 not verifiable.
    static func runAgainstSources(_ options: Options, playlist: String?, context: CommandContext) async throws {
        let report = try await untilInterrupted(context) {
            try playlist.map { p throws(Verifier.Failure) in
                try HLSVerifier.verifySources(playlist: p, timelinePath: options.timeline, goldenPath: options.expected,
                                              goldenScope: options.goldenScope)
            } ?? SourceVerifier.verify(.init(outputPath: options.output, timelinePath: options.timeline, goldenPath: options.expected,
                                             goldenScope: options.goldenScope))
        }
        try write(JSONReport(report, problems: report.problems), text: report.text, json: options.json, context: context)
        switch report.verdict {
        case .passed: return
        case .failed:
            throw CommandFailure("\(options.output): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); first: \(report.problems.first ?? "")")
        case .notVerifiable:
            throw CommandFailure("\(options.output): not verifiable: \(report.layers.notVerifiable.first ?? "its pictures are static or black")",
                                 exitStatus: 3)
        }
    }
}

extension ArgumentValue where Value == [GoldenAspect] {
    /// Golden aspects separated by commas (`pip,layers`); an unknown one is named in the message.
    static var goldenAspects: ArgumentValue {
        let words = GoldenAspect.allCases.map(\.rawValue)
        return ArgumentValue(placeholder: words.joined(separator: "|"), choices: words, parse: { text throws(InvalidValue) in
            try text.split(separator: ",", omittingEmptySubsequences: false).map { field throws(InvalidValue) in
                let word = field.trimmingCharacters(in: .whitespaces)
                guard let aspect = GoldenAspect(rawValue: word) else {
                    throw .not(word, "one of: " + words.joined(separator: ", "))
                }
                return aspect
            }
        }, describe: { $0.map(\.rawValue).joined(separator: ",") })
    }
}
