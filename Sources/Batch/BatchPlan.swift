import Foundation
import MediaCore

/// What `pipctl batch` does with each line of a manifest's shard, decided before anything runs, from the manifest,
/// the shard and what is on disk: each job renders (and why: `JobRecord.Staleness`), is up to date (its record
/// beside the output still matches), or is invalid. Then the work for the runner, the dry run's lines, and the
/// summary of the results (`BatchPlan+Text`, `BatchSummary+Text`).
///
/// The lines are checked against each other's files and the batch's own first. A job's outputs and sidecars
/// (output, timeline, event log, frame hashes, the record `OUT.batch.json`) may not be the same file as any job's
/// input (the media and documents its local ads documents name included) or an earlier job's output: that job
/// becomes invalid, naming both paths. They may not be a reserved file (the manifest, the summary, the JUnit
/// report) either: that refuses the whole plan (`Problem.overwrites`). Files are compared as render compares its
/// own (`FileIdentity`: device and inode when the file exists, resolved path otherwise), each identity taken once
/// and looked up in a table, so that planning is linear in the lines. `isCancelled` is asked at every line.
public struct BatchPlan: Sendable {
    /// What the batch does with one line.
    public enum Step: Sendable {
        /// The line is not a job, or its files collide with another's.
        case invalid(BatchLineError)
        /// Skipped: the record stored beside its output matches what it would render now.
        case upToDate(BatchJob, stored: JobRecord)
        case render(Render)
    }

    /// A job to render.
    public struct Render: Sendable {
        public var job: BatchJob
        public var command: BatchJobCommand
        /// The record the job writes when it succeeds (its outputs' states are filled in then).
        public var record: JobRecord
        public var staleness: JobRecord.Staleness
        /// The first of its local inputs that does not exist now, if any: the render would fail on it.
        public var missingInput: String?
    }

    /// Whether each render is checked by `pipctl verify` after it.
    public enum Verify: Hashable, Sendable {
        case off
        /// `--verify`: the sources are stamped test clips.
        case stamps
        /// `--verify-sources`: any sources, compared with the files themselves.
        case sources
    }

    /// Why there is no plan.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// `isCancelled` said yes.
        case stopped
        /// A job's output (labelled) would replace a file the batch reads or writes itself.
        case overwrites(line: Int, output: FileIdentity.Named, reserved: FileIdentity.Named)

        public var description: String {
            switch self {
            case .stopped: "stopped while planning"
            case .overwrites(let line, let output, let reserved):
                "line \(line): \(output.description) is the same file as \(reserved.description); nothing was written"
            }
        }
    }

    public let manifest: BatchManifest
    /// The shard planned, or nil for the whole manifest.
    public let shard: BatchShard?
    /// One per line of the shard, in manifest order.
    public let steps: [Step]
    /// Every local file any job of the manifest reads (not only this shard's), labelled for messages.
    public let inputs: [FileIdentity.Named]

    /// - Parameters:
    ///   - reserved: the files the batch reads and writes itself (the manifest, the summary, the JUnit report).
    ///   - pipctlVersion: the version each record names; a record of another version is stale.
    ///   - force: every job renders (`JobRecord.Staleness.forced`), whatever its record says.
    ///   - command: a job's render command line, or why the line is not a valid job.
    public init(manifest: BatchManifest, shard: BatchShard?, reserved: [FileIdentity.Named], pipctlVersion: String,
                force: Bool, command: (BatchJob) throws(BatchLineError) -> BatchJobCommand,
                isCancelled: () -> Bool = { false }) throws(Problem) {
        self.manifest = manifest
        self.shard = shard
        let directory = manifest.directory
        // Every line's command (not only this shard's): any job's inputs may be another's outputs.
        var commands: [Result<(BatchJob, BatchJobCommand), BatchLineError>] = []
        var inputs: [FileIdentity.Named] = []
        var inputTable: [FileIdentity: FileIdentity.Named] = [:]
        for entry in manifest.entries {
            let job: BatchJob
            switch entry {
            case .invalid(let error):
                commands.append(.failure(error))
                continue
            case .job(let entryJob): job = entryJob
            }
            if isCancelled() { throw .stopped }
            let made = Result { () throws(BatchLineError) in (job, try command(job)) }
            commands.append(made)
            let paths = (try? made.get()).map { $0.1.inputs + $0.1.namedInputs } ?? job.inputsAsWritten
            for path in paths where !BatchManifest.isURL(path) {
                let named = FileIdentity.Named("the input of \(quotedID(job.id)) (line \(job.line))",
                                               BatchManifest.resolve(path, in: directory))
                inputs.append(named)
                let identity = FileIdentity(named.path)
                if identity != .device, inputTable[identity] == nil { inputTable[identity] = named }
            }
        }
        self.inputs = inputs
        var reservedTable: [FileIdentity: FileIdentity.Named] = [:]
        for file in reserved {
            let identity = FileIdentity(file.path)
            if identity != .device, reservedTable[identity] == nil { reservedTable[identity] = file }
        }
        var taken: [FileIdentity: FileIdentity.Named] = [:]
        var steps: [Step] = []
        for (entry, made) in zip(manifest.entries, commands) where shard?.contains(id: entry.id, line: entry.line) ?? true {
            if isCancelled() { throw .stopped }
            let job: BatchJob, command: BatchJobCommand
            switch made {
            case .failure(let error):
                steps.append(.invalid(error))
                continue
            case .success(let made): (job, command) = made
            }
            let mine = (command.outputs + [JobRecord.path(forOutput: job.output)]).map {
                FileIdentity.Named("\(quotedID(job.id))'s output", BatchManifest.resolve($0, in: directory))
            }
            var claimed: [FileIdentity: FileIdentity.Named] = [:]
            var collision: BatchLineError?
            for output in mine {
                let identity = FileIdentity(output.path)
                guard identity != .device else { continue }
                if let file = reservedTable[identity] { throw .overwrites(line: job.line, output: output, reserved: file) }
                if let other = claimed[identity] ?? taken[identity] ?? inputTable[identity] {
                    collision = BatchLineError(line: job.line, id: job.id, path: "output",
                                               message: "\(output.path) is the same file as \(other.label)"
                                                   + (other.path == output.path ? "" : " (\(other.path))"))
                    break
                }
                claimed[identity] = output
            }
            if let collision {
                steps.append(.invalid(collision))
                continue
            }
            taken.merge(claimed) { first, _ in first }
            steps.append(BatchPlan.step(job, command, in: directory, pipctlVersion: pipctlVersion, force: force))
        }
        self.steps = steps
    }

    /// A valid job's step: up to date when its stored record matches, else to render.
    private static func step(_ job: BatchJob, _ command: BatchJobCommand, in directory: String, pipctlVersion: String,
                             force: Bool) -> Step {
        let record = JobRecord(
            id: job.id, pipctlVersion: pipctlVersion, arguments: command.arguments,
            inputs: command.inputs.map { JobRecord.FileState($0, in: directory) },
            outputs: command.outputs.map { JobRecord.FileState(path: $0) })
        let stored = JobRecord.stored(forOutput: job.output, in: directory)
        let staleness: JobRecord.Staleness
        switch (force, stored) {
        case (true, _): staleness = .forced
        case (false, nil): staleness = .noRecord
        case (false, let stored?):
            guard let why = stored.staleness(against: record, in: directory) else { return .upToDate(job, stored: stored) }
            staleness = why
        }
        let missing = command.inputs.lazy.filter { !BatchManifest.isURL($0) }
            .map { BatchManifest.resolve($0, in: directory) }
            .first { !FileManager.default.fileExists(atPath: $0) }
        return .render(Render(job: job, command: command, record: record, staleness: staleness, missingInput: missing))
    }

    /// The jobs to render, in manifest order.
    public var renders: [Render] {
        steps.compactMap { if case .render(let render) = $0 { render } else { nil } }
    }

    /// The results of the lines that do not run (invalid, up to date), in manifest order.
    public var settled: [BatchSummary.JobResult] {
        steps.compactMap { step in
            switch step {
            case .invalid(let error): BatchSummary.JobResult(invalid: error)
            case .upToDate(let job, let stored): BatchSummary.JobResult(upToDate: job, stored: stored)
            case .render: nil
            }
        }
    }

    /// The renders as the runner's work: `threads` is each render's `--threads` unless its options set it.
    public func workItems(threads: Int, verify: Verify) -> [BatchRunner.WorkItem] {
        renders.map { render in
            let verifyArguments: [String]? = switch verify {
            case .off: nil
            case .stamps: ["verify", render.job.output, "--timeline", render.command.timeline]
            case .sources: ["verify", render.job.output, "--timeline", render.command.timeline, "--sources"]
            }
            return .init(job: render.job, arguments: render.command.arguments,
                         threadArguments: render.command.setsThreads ? [] : ["--threads", String(threads)],
                         verifyArguments: verifyArguments, record: render.record, timeline: render.command.timeline)
        }
    }

    /// The summary of the shard: the settled lines and `ran`, the runner's results of `workItems`, in line order.
    public func summary(ran: [BatchSummary.JobResult]) -> BatchSummary {
        BatchSummary(manifest: manifest.path, manifestDigest: manifest.digest, shard: shard,
                     jobs: (settled + ran).sorted { $0.line < $1.line })
    }
}
