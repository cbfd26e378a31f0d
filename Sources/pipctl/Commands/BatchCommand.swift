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
        let summaryPath = options.summary ?? BatchSummary.defaultPath(forManifest: options.manifest, shard: shard)
        let plan: BatchPlan
        do {
            plan = try BatchPlan(
                manifest: manifest, shard: shard,
                reserved: [FileIdentity.Named("the manifest", options.manifest),
                           FileIdentity.Named(options.summary == nil ? "the summary" : "--summary", summaryPath)]
                    + (options.junit.map { [FileIdentity.Named("--junit", $0)] } ?? []),
                pipctlVersion: Pipctl.version, force: options.force,
                command: { job throws(BatchLineError) in try BatchJobCommand(rendering: job, directory: manifest.directory) },
                isCancelled: { interrupt.isSet })
        } catch {
            try context.interrupt.checkpoint()
            throw UsageError(command: context.command, message: PrintableText.escaping(error.description))
        }

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
        let items = plan.workItems(threads: threads, verify: options.verifySources ? .sources : options.verify ? .stamps : .off)
        context.errorOutput.write("\(context.command): \(plan.headline(concurrency: options.jobs, threads: threads, processors: processors))\n")
        if options.dryRun {
            for line in plan.dryRunLines { context.output.write(PrintableText.escaping(line) + "\n") }
            return
        }
        let settled = plan.settled
        for result in settled { context.output.write(PrintableText.escaping(result.statusLine) + "\n") }

        let runner = BatchRunner(executable: executable, directory: manifest.directory, concurrency: options.jobs,
                                 environment: context.environment,
                                 timeout: options.timeout.map { .nanoseconds(Int64(($0.seconds.doubleValue * 1e9).rounded())) })
        context.interrupt.onInterrupt { runner.stop(signal: $0) }
        let progress = BatchProgress(total: plan.steps.count, done: settled.count, sink: context.errorOutput,
                                     environment: context.environment)
        let output = context.output, errorOutput = context.errorOutput
        let ran = try await runBlocking {
            runner.run(items) { report in
                progress.finished(report.result)
                for line in report.log.split(whereSeparator: \.isNewline) {
                    errorOutput.write(PrintableText.escaping("[\(report.result.name)] \(line)") + "\n")
                }
                output.write(PrintableText.escaping(report.result.statusLine) + "\n")
            }
        }

        let summary = plan.summary(ran: ran)
        try summary.write(to: summaryPath, junit: options.junit)
        context.errorOutput.write(PrintableText.escaping("\(context.command): "
            + summary.closingLine(summaryPath: summaryPath, junit: options.junit)) + "\n")
        try context.interrupt.checkpoint()
        if let failure = summary.failureMessage { throw CommandFailure(PrintableText.escaping(failure)) }
    }

    /// This pipctl, which each job runs.
    static func executablePath() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw CommandFailure("cannot find the pipctl executable (/proc/self/exe) to run the jobs")
        }
        return path
    }
}
