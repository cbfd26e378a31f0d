import Foundation
import MediaCore
import Batch

/// `pipctl batch merge`: one summary (and JUnit report) from the summaries of every shard of a manifest.
enum BatchMergeCommand: Command {
    struct Options: CommandOptions {
        var summaries: [String]
        var output: String
        var junit: String?

        init(_ arguments: ParsedArguments) {
            summaries = arguments[BatchMergeCommand.summaries]
            output = arguments[BatchMergeCommand.output]
            junit = arguments[BatchMergeCommand.junit]
        }
    }

    static let summaries = Parameter.positionals(
        .text("SUMMARY"), help: "The summary of each shard, as 'pipctl batch --shard I/N' wrote them.")
    static let output = Parameter.required(
        "summary", .text("FILE"), help: "Where to write the merged summary.")
    static let junit = Parameter.optional(
        "junit", .text("FILE"), absent: "none", help: "Also write a JUnit XML report of every job.")

    static let definition = CommandDefinition(
        name: "merge",
        abstract: "Merge the shards' summaries into one summary and JUnit report.",
        discussion: "The summaries must come from one manifest (the same bytes) and one shard count, with every "
            + "shard present once: a missing shard is an error, not a smaller report. Exits 1 when a job of any "
            + "shard failed or a line was invalid, as the batch itself would have.",
        parameters: [summaries, output, junit])

    static func run(_ options: Options, context: CommandContext) async throws {
        var files = CommandFiles()
        for path in options.summaries { files.read(path, path) }
        files.write("--summary", options.output)
        files.write("--junit", options.junit)
        try files.check(command: context.command)
        var parts: [(label: String, summary: BatchSummary)] = []
        for path in options.summaries {
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("\(path): cannot be read") }
            do {
                parts.append((path, try JSONDecoder().decode(BatchSummary.self, from: data)))
            } catch {
                throw CommandFailure("\(path): not a batch summary (\(DecodingProblem(error)))")
            }
        }
        let merged: BatchSummary
        do { merged = try BatchSummary.merge(parts) } catch { throw CommandFailure("\(error)") }
        try merged.write(to: options.output, junit: options.junit)
        context.output.write("\(options.output): \(merged.jobs.count) jobs from \(parts.count) shards: \(merged.countsText)\n")
        if merged.failures > 0 {
            throw CommandFailure("\(merged.failures) of \(merged.jobs.count) jobs failed")
        }
    }
}

/// A decoding error in words, with its JSON path: `jobs[2].status: "done" is not a status`.
struct DecodingProblem: CustomStringConvertible {
    let description: String

    init(_ error: Error) {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
        }
        switch error as? DecodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            description = (c.codingPath.isEmpty ? "" : path(c.codingPath) + ": ") + c.debugDescription
        case .keyNotFound(let key, let c):
            description = path(c.codingPath + [key]) + ": missing"
        default:
            description = "\(error)"
        }
    }
}
