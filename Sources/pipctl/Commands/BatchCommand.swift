import Foundation
import MediaCore
import Batch

/// `pipctl batch MANIFEST`: renders every job of a JSON Lines manifest, N at a time, resumably, and reports them
/// in a summary (and a JUnit report); `pipctl batch merge` joins the summaries of its shards.
enum BatchCommand: Command {
    struct Options: CommandOptions {
        var manifest: String
        var jobs: Int
        var summary: String?
        var junit: String?
        var verify: Bool
        var verifySources: Bool
        var force: Bool
        var dryRun: Bool
        var shard: String?
        var shardCount: Int?
        var timeout: MediaDuration?

        init(_ arguments: ParsedArguments) {
            manifest = arguments[BatchCommand.manifest]
            jobs = arguments[BatchCommand.jobs]
            summary = arguments[BatchCommand.summary]
            junit = arguments[BatchCommand.junit]
            verify = arguments[BatchCommand.verify]
            verifySources = arguments[BatchCommand.verifySources]
            force = arguments[BatchCommand.force]
            dryRun = arguments[BatchCommand.dryRun]
            shard = arguments[BatchCommand.shard]
            shardCount = arguments[BatchCommand.shardCount]
            timeout = arguments[BatchCommand.timeout]
        }
    }

    static let manifest = Parameter.positional(
        .text("MANIFEST"), help: "The jobs, as JSON Lines: one object per line with id, content, ads (a VMAP/VAST "
            + "path or URL) or breaks (a list of 'TIME=FILE[,FILE…]') — or session (a session file, as render's "
            + "--session) instead of content and ads — output, and optionally options (render's "
            + "options by their long names). Relative paths are relative to the manifest's directory "
            + "(docs/BATCH.md, docs/batch-manifest.schema.json).")
    static let jobs = Parameter.option(
        "jobs", short: "j", .integer("N", in: 1...256), default: 1,
        help: "How many renders run at once. Each gets --threads (processors / N, at least 1) unless its options "
            + "set threads.")
    static let summary = Parameter.optional(
        "summary", .text("FILE"), absent: "MANIFEST.summary.json (MANIFEST.shard-I-of-N.summary.json for a shard)",
        help: "Where to write the summary: every job's status, exit status, error, output, frames, seconds and "
            + "verify result, as JSON.")
    static let junit = Parameter.optional(
        "junit", .text("FILE"), absent: "none",
        help: "Also write a JUnit XML report: one test case per job, a failure for each failed job or bad line.")
    static let verify = Parameter.flag(
        "verify", help: "Run 'pipctl verify' on each output after its render (the sources must be stamped test "
            + "clips); a job whose verify fails has failed, and a later batch renders it again.")
    static let verifySources = Parameter.flag(
        "verify-sources", help: "Like --verify, but with 'pipctl verify --sources': any content and ads, compared "
            + "with the source files themselves.")
    static let force = Parameter.flag(
        "force", help: "Render every job, even those whose output is up to date.")
    static let dryRun = Parameter.flag(
        "dry-run", help: "Only say what each job of this shard would do (to render; up to date; would fail: an input is "
            + "missing; invalid: a bad line or a file another job or the batch writes); run nothing "
            + "and write nothing.")
    static let shard = Parameter.optional(
        "shard", .text("I/N"), absent: "from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX, else every job",
        help: "Run only shard I of N (0 ≤ I < N): the jobs whose id hashes to I. Shards are disjoint, together "
            + "they are the whole manifest, and a job stays in its shard when lines are added or reordered.")
    static let shardCount = Parameter.optional(
        "shard-count", .integer("N", in: 1...BatchShard.maximumCount), absent: "PIPCTL_SHARD_COUNT",
        help: "The number of shards for a Kubernetes Indexed Job (its completions), whose JOB_COMPLETION_INDEX "
            + "names the shard.")

    static let timeout = Parameter.optional(
        "timeout", .seconds(), absent: "none",
        help: "The longest one render may take: then it is sent SIGTERM (it removes what it half-wrote; SIGKILL "
            + "10 s later if it has not ended) and the job fails, so that one stuck job cannot hold a batch.")

    static let definition = CommandDefinition(
        name: "batch",
        abstract: "Render every job of a manifest: in parallel, resumably, by shard.",
        discussion: "Each job is a 'pipctl render' run as a child process, so a job that fails or crashes never "
            + "stops the others. A job whose output exists and whose inputs and options are unchanged (the record "
            + "OUT.batch.json beside it says so) is skipped; --force renders it again. Ctrl-C or SIGTERM stops "
            + "the batch: running renders remove what they half-wrote, finished outputs stay, and the next run "
            + "resumes. Each job prints one line; the summary says everything. Exit status: 0 when every job "
            + "succeeded or was up to date, 1 when a job failed or a line is invalid, 130 when stopped by Ctrl-C. "
            + "'pipctl batch merge' joins the summaries of the shards of one manifest.",
        parameters: [manifest, jobs, summary, junit, verify, verifySources, force, dryRun, shard, shardCount, timeout],
        exclusive: [[shard, shardCount], [verify, verifySources]])

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        let shard: BatchShard?
        do throws(BatchShard.Problem) {
            if let text = options.shard { shard = try BatchShard(parsing: text) } else {
                shard = try BatchShard.from(environment: context.environment, count: options.shardCount)
            }
        } catch {
            throw UsageError(command: context.command, message: (options.shard == nil ? "" : "--shard: ") + error.description)
        }
        if options.shardCount != nil, shard == nil {
            throw UsageError(command: context.command, message: "--shard-count: JOB_COMPLETION_INDEX is not set, so there is no shard index")
        }
        let manifest: BatchManifest
        let interrupt = context.interrupt
        do { manifest = try BatchManifest(contentsOf: options.manifest, isCancelled: { interrupt.isSet }) } catch {
            try context.interrupt.checkpoint()
            throw CommandFailure(PrintableText.escaping("\(error)"))
        }
        let entries = manifest.entries.filter { shard?.contains(id: $0.id, line: $0.line) ?? true }
        let summaryPath = options.summary ?? defaultSummaryPath(options.manifest, shard: shard)
        let plan = try BatchPlan(manifest: manifest, entries: entries, reserved: [
            FileIdentity.Named("the manifest", options.manifest),
            FileIdentity.Named(options.summary == nil ? "the summary" : "--summary", summaryPath),
        ] + (options.junit.map { [FileIdentity.Named("--junit", $0)] } ?? []), interrupt: context.interrupt, command: context.command)
        let planned = plan.planned

        // The batch's own reports must not replace a job's input or the manifest.
        var files = CommandFiles()
        files.read("the manifest", options.manifest)
        for input in plan.inputs { files.read(input.label, input.path) }
        files.write(options.summary == nil ? "the summary" : "--summary", summaryPath)
        files.write("--junit", options.junit)
        do { try files.check(command: context.command) } catch {
            throw UsageError(command: error.command, message: PrintableText.escaping(error.message))
        }

        let executable = try executablePath()
        let processors = AvailableProcessors.count()
        let threads = max(1, processors / options.jobs)
        var results: [Int: BatchSummary.JobResult] = [:]
        var items: [BatchRunner.WorkItem] = []
        var itemLines: [Int] = []
        var reasons: [Int: String] = [:]
        /// A job's first local input that does not exist: the dry run says the job would fail.
        var missing: [Int: String] = [:]
        for (entry, work) in planned {
            switch entry {
            case .invalid(let error):
                results[error.line] = .init(id: error.id, line: error.line, status: .invalid, error: error.description)
            case .job(let job):
                let work = work!
                let record = JobRecord(
                    id: job.id, pipctlVersion: Pipctl.version, arguments: work.arguments,
                    inputs: work.inputs.map { JobRecord.FileState($0, in: manifest.directory) },
                    outputs: work.outputs.map { JobRecord.FileState(path: $0) })
                let stored = JobRecord.stored(forOutput: job.output, in: manifest.directory)
                let staleness = options.force ? "--force" : stored.map { $0.staleness(against: record, in: manifest.directory) }
                    ?? "not rendered yet"
                if staleness == nil, let stored {
                    var result = BatchSummary.JobResult(id: job.id, line: job.line, status: .upToDate, output: job.output)
                    result.frames = stored.frames
                    results[job.line] = result
                    continue
                }
                reasons[job.line] = staleness
                missing[job.line] = work.inputs.lazy.filter { !BatchManifest.isURL($0) }
                    .map { BatchManifest.resolve($0, in: manifest.directory) }
                    .first { !FileManager.default.fileExists(atPath: $0) }
                var verify: [String]?
                if options.verify || options.verifySources {
                    verify = ["verify", job.output, "--timeline", work.timeline] + (options.verifySources ? ["--sources"] : [])
                }
                items.append(.init(job: job, arguments: work.arguments,
                                   threadArguments: work.setsThreads ? [] : ["--threads", String(threads)],
                                   verifyArguments: verify, record: record, timeline: work.timeline))
                itemLines.append(job.line)
            }
        }

        context.errorOutput.write("\(context.command): "
            + (shard.map { "\(entries.count) of \(manifest.entries.count) lines (shard \($0))" } ?? "\(entries.count) line\(entries.count == 1 ? "" : "s")")
            + ", \(items.count) to render, \(options.jobs) at a time with \(threads) thread\(threads == 1 ? "" : "s") each"
            + " (\(processors) processor\(processors == 1 ? "" : "s") available)\n")
        if options.dryRun {
            var lines = results.mapValues(describe)
            for item in items {
                if let file = missing[item.job.line] {
                    lines[item.job.line] = "would fail  \(quotedID(item.job.id))  \(item.job.output)  (\(file) does not exist)"
                } else {
                    lines[item.job.line] = "to render   \(quotedID(item.job.id))  \(item.job.output)  (\(reasons[item.job.line] ?? ""))"
                }
            }
            for (_, line) in lines.sorted(by: { $0.key < $1.key }) { context.output.write(PrintableText.escaping(line) + "\n") }
            return
        }
        for (_, result) in results.sorted(by: { $0.key < $1.key }) { context.output.write(PrintableText.escaping(describe(result)) + "\n") }

        let runner = BatchRunner(executable: executable, directory: manifest.directory, concurrency: options.jobs,
                                 environment: context.environment,
                                 timeout: options.timeout.map { .nanoseconds(Int64(($0.seconds.doubleValue * 1e9).rounded())) })
        context.interrupt.onInterrupt { runner.stop(signal: $0) }
        let progress = BatchProgress(total: entries.count, done: results.count, sink: context.errorOutput,
                                     environment: context.environment)
        let output = context.output, errorOutput = context.errorOutput
        let work = items
        let ran = try await runBlocking {
            runner.run(work) { report in
                progress.finished(report.result)
                for line in report.log.split(whereSeparator: \.isNewline) {
                    errorOutput.write(PrintableText.escaping("[\(report.result.name)] \(line)") + "\n")
                }
                output.write(PrintableText.escaping(describe(report.result)) + "\n")
            }
        }
        for (line, result) in zip(itemLines, ran) { results[line] = result }

        let summary = BatchSummary(manifest: options.manifest, manifestDigest: manifest.digest, shard: shard,
                                   jobs: results.sorted { $0.key < $1.key }.map(\.value))
        try write(summary, to: summaryPath, junit: options.junit)
        let counts = summary.counts
        context.errorOutput.write("\(context.command): \(summary.jobs.count) job\(summary.jobs.count == 1 ? "" : "s")"
            + (shard.map { " (shard \($0))" } ?? "") + ": "
            + BatchSummary.Status.allCases.compactMap { counts[$0]! > 0 ? "\(counts[$0]!) \(words($0))" : nil }.joined(separator: ", ")
            + "; summary: \(PrintableText.escaping(summaryPath))" + (options.junit.map { "; junit: \(PrintableText.escaping($0))" } ?? "") + "\n")
        try context.interrupt.checkpoint()
        if summary.failures > 0 {
            throw CommandFailure(PrintableText.escaping("\(summary.failures) of \(summary.jobs.count) jobs failed; first: "
                + (summary.jobs.first { $0.status.isFailure }.map { "\($0.name): \($0.error ?? $0.status.rawValue)" } ?? "")))
        }
    }

    /// Writes the summary and the JUnit report together: both appear, or neither changes.
    static func write(_ summary: BatchSummary, to path: String, junit: String?) throws {
        var files = [try AtomicFile(destination: path)]
        try files[0].write(summary.json())
        if let junit {
            files.append(try AtomicFile(destination: junit))
            try files[1].write(Data(JUnitReport.xml(summary).utf8))
        }
        try AtomicFile.commitAll(files)
    }

    /// `titles.jsonl` → `titles.summary.json`, `titles.shard-0-of-3.summary.json`.
    static func defaultSummaryPath(_ manifest: String, shard: BatchShard?) -> String {
        var base = manifest
        for suffix in [".jsonl", ".ndjson", ".json"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        return base + (shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? "") + ".summary.json"
    }

    /// This pipctl, which each job runs.
    static func executablePath() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw CommandFailure("cannot find the pipctl executable (/proc/self/exe) to run the jobs")
        }
        return path
    }

    /// One line per job: `rendered    "title-fr"  out/title-fr.mp4  1234 frames  12.3 s  verify passed`.
    static func describe(_ result: BatchSummary.JobResult) -> String {
        let status = words(result.status).padding(toLength: 11, withPad: " ", startingAt: 0)
        let name = result.id.map(quotedID) ?? "line \(result.line)"
        var parts = [status + " " + name]
        if let output = result.output, result.status != .invalid { parts.append(output) }
        if let frames = result.frames { parts.append("\(frames) frames") }
        if let seconds = result.seconds, result.status == .rendered { parts.append(String(format: "%.1f s", seconds)) }
        if let verify = result.verify, verify.passed { parts.append("verify passed") }
        if let error = result.error { parts.append(error) }
        return parts.joined(separator: "  ")
    }

    static func words(_ status: BatchSummary.Status) -> String {
        switch status {
        case .rendered: "rendered"
        case .upToDate: "up to date"
        case .failed: "failed"
        case .invalid: "invalid"
        case .interrupted: "interrupted"
        case .notStarted: "not started"
        }
    }

    static func quotedID(_ id: String) -> String { quoted(id) }
}
