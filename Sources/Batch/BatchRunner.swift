import Foundation
import MediaCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs the jobs of a batch as child processes of the pipctl executable, `jobs` at a time, and reports each one
/// as it ends. A failing or crashing job never stops the others. `stop(signal:)` (from the batch's own Ctrl-C or
/// SIGTERM) starts no more jobs and passes the signal once to every running one, whose render then removes what it
/// had half-written; finished outputs stay.
public final class BatchRunner: Sendable {
    /// One job ready to run: its render command line (after `pipctl`), and what to record.
    public struct WorkItem: Sendable {
        public var job: BatchJob
        /// `["render", …]`.
        public var arguments: [String]
        /// `--threads N` chosen by `--jobs`; kept out of the record since it does not change the picture.
        public var threadArguments: [String]
        /// `["verify", …]` with `--verify`, else nil.
        public var verifyArguments: [String]?
        /// The record the job writes when it succeeds (its outputs' states are filled in then).
        public var record: JobRecord
        /// The timeline's path, for the frame count.
        public var timeline: String

        public init(job: BatchJob, arguments: [String], threadArguments: [String], verifyArguments: [String]?,
                    record: JobRecord, timeline: String) {
            self.job = job
            self.arguments = arguments
            self.threadArguments = threadArguments
            self.verifyArguments = verifyArguments
            self.record = record
            self.timeline = timeline
        }
    }

    /// What a finished job produced besides its result: the child's standard error, for the batch's log.
    public struct Report: Sendable {
        public var result: BatchSummary.JobResult
        /// The last 64 KiB of the render's and verify's standard error.
        public var log: String
    }

    private struct State {
        var stopSignal: Int32?
        var running: [Int: ChildProcess] = [:]
        /// Slots whose child ran out of time (`timeout`) and was sent SIGTERM.
        var timedOut: Set<Int> = []
        var next = 0
    }

    public let executable: String
    public let directory: String
    public let concurrency: Int
    public let environment: [String: String]
    /// How long one render may take before it is sent SIGTERM (and SIGKILL `grace` later); nil for no limit.
    public let timeout: Duration?
    public let grace: Duration
    /// What `timeout` and `grace` are measured on (a `ManualClock` in tests).
    let clock: any WallClock
    private let state = LockedState(State())

    /// - Parameters:
    ///   - executable: the pipctl binary (absolute).
    ///   - directory: the manifest's directory, where every job runs.
    ///   - environment: the children's environment (`PIPCTL_PARENT_PID` is added).
    public init(executable: String, directory: String, concurrency: Int, environment: [String: String],
                timeout: Duration? = nil, grace: Duration = .seconds(10), clock: any WallClock = SystemClock()) {
        self.timeout = timeout
        self.grace = grace
        self.clock = clock
        self.executable = executable
        self.directory = directory
        self.concurrency = max(1, concurrency)
        var environment = environment
        environment["PIPCTL_PARENT_PID"] = String(getpid())
        self.environment = environment
    }

    /// Stops the batch: no new job starts, and `signal` goes once to each running job.
    public func stop(signal: Int32) {
        let running: [ChildProcess] = state.withLock { state in
            guard state.stopSignal == nil else { return [] }
            state.stopSignal = signal
            return Array(state.running.values)
        }
        running.forEach { $0.send(signal) }
    }

    /// Runs `items`, calling `finished` (from worker threads, one call at a time) as each ends; returns the results
    /// in the order of `items`.
    public func run(_ items: [WorkItem], finished: @escaping @Sendable (Report) -> Void) -> [BatchSummary.JobResult] {
        // One lock for the results and the reports: `finished` is called one call at a time, under it.
        let results = LockedState([BatchSummary.JobResult?](repeating: nil, count: items.count))
        let group = DispatchGroup()
        for _ in 0..<min(concurrency, max(1, items.count)) {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while let index = takeNext(count: items.count) {
                    let report = runOne(items[index], slot: index)
                    results.withLock { results in
                        results[index] = report.result
                        finished(report)
                    }
                }
            }
            thread.start()
        }
        group.wait()
        return results.withLock { $0.map { $0! } }
    }

    /// The next item to start, or nil when all have started; once stopped, the rest are reported not started.
    private func takeNext(count: Int) -> Int? {
        state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    private func runOne(_ item: WorkItem, slot: Int) -> Report {
        let job = item.job
        var result = BatchSummary.JobResult(id: job.id, line: job.line, status: .notStarted, output: job.output)
        if state.withLock({ $0.stopSignal != nil }) { return Report(result: result, log: "") }
        let start = ContinuousClock.now
        let log = execute(item, slot: slot, into: &result)
        let elapsed = ContinuousClock.now - start
        if result.status != .notStarted {
            result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        return Report(result: result, log: log)
    }

    /// Renders (and verifies) one job, filling in `result`; returns the children's standard error.
    private func execute(_ item: WorkItem, slot: Int, into result: inout BatchSummary.JobResult) -> String {
        var log = ""
        // A catalogue's outputs go into directories of their own (out/title/market.mp4): they are made as needed.
        for output in item.record.outputs {
            let parent = (BatchManifest.resolve(output.path, in: directory) as NSString).deletingLastPathComponent
            do { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
                result.status = .failed
                result.error = "\(output.path): cannot make its directory: \(error.localizedDescription)"
                return log
            }
        }
        let render: ChildProcess.Termination
        do {
            (render, _, log) = try runCapturing(item.arguments + item.threadArguments, slot: slot, timeout: timeout)
        } catch {
            result.status = state.withLock({ $0.stopSignal != nil }) ? .notStarted : .failed
            result.error = result.status == .failed ? error.description : nil
            return log
        }
        result.exitCode = render.status
        let timedOut = state.withLock { $0.timedOut.remove(slot) != nil }
        if timedOut, render != .exited(0) {
            result.status = .failed
            result.error = "timed out after \(timeout.map(Self.seconds) ?? ""): stopped with SIGTERM"
            return log
        }
        if let signal = state.withLock({ $0.stopSignal }), render != .exited(0) {
            result.status = .interrupted
            result.error = "stopped by signal \(signal)"
            return log
        }
        guard render == .exited(0) else {
            result.status = .failed
            result.error = BatchRunner.errorLine(of: log) ?? (render.status > 128 ? "ended by signal \(render.status - 128)" : "exit status \(render.status)")
            return log
        }
        result.frames = frames(in: item.timeline)
        if let verifyArguments = item.verifyArguments {
            let verification: BatchSummary.Verification
            do {
                let (verify, output, errors) = try runCapturing(verifyArguments, slot: slot)
                log += errors
                let passed = verify == .exited(0)
                let message = lastLine(of: passed ? output : errors) ?? lastLine(of: output) ?? "exit status \(verify.status)"
                verification = BatchSummary.Verification(passed: passed, message: message)
            } catch {
                verification = BatchSummary.Verification(passed: false, message: error.description)
            }
            result.verify = verification
            if !verification.passed {
                result.status = .failed
                result.error = "verify: " + verification.message
                return log
            }
        }
        var record = item.record
        record.outputs = record.outputs.map { JobRecord.FileState($0.path, in: directory) }
        record.frames = result.frames
        do {
            let file = try AtomicFile(destination: BatchManifest.resolve(JobRecord.path(forOutput: item.job.output), in: directory))
            try file.write(record.json())
            try file.commit()
        } catch {
            // The render is good; only the next batch's skip is lost.
            log += "pipctl batch: warning: \(error)\n"
        }
        result.status = .rendered
        return log
    }

    /// Runs one child to its end; returns how it ended, its standard output and its standard error.
    private func runCapturing(_ arguments: [String], slot: Int, timeout: Duration? = nil) throws(ChildProcess.SpawnFailure) -> (ChildProcess.Termination, String, String) {
        let output = try CapturedOutput(), errors = try CapturedOutput()
        let child: ChildProcess = try state.withLock { (state) throws(ChildProcess.SpawnFailure) in
            // Started under the lock, so that stop() either sees it or it sees stop().
            if state.stopSignal != nil { throw ChildProcess.SpawnFailure(description: "not started: the batch was stopped") }
            let child = try ChildProcess.spawn(executable: executable, arguments: arguments, directory: directory,
                                               environment: environment, standardOutput: output, standardError: errors)
            state.running[slot] = child
            return child
        }
        if let timeout { watch(child, slot: slot, timeout: timeout) }
        let termination = child.wait()
        state.withLock { _ = $0.running.removeValue(forKey: slot) }
        return (termination, output.tail(), errors.tail())
    }

    /// Sends SIGTERM to `child` if it still runs in `slot` after `timeout`, and SIGKILL if it still does `grace`
    /// later (a render stuck where it does not look at its interrupt flag).
    private func watch(_ child: ChildProcess, slot: Int, timeout: Duration) {
        clock.schedule(at: clock.now + timeout) { [self] in
            let running = state.withLock { state in
                guard state.running[slot]?.pid == child.pid else { return false }
                state.timedOut.insert(slot)
                return true
            }
            guard running else { return }
            child.send(SIGTERM)
            clock.schedule(at: clock.now + grace) { [self] in
                if state.withLock({ $0.running[slot]?.pid == child.pid }) { child.send(SIGKILL) }
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let s = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    /// The line of a child's standard error that says what went wrong: the last line that is neither the usage
    /// hint a usage error ends with (`See 'pipctl render --help'.`) nor a warning; else the last line.
    static func errorLine(of log: String) -> String? {
        let lines = log.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        func isHint(_ line: String) -> Bool { line.hasPrefix("See '") && line.hasSuffix(" --help'.") }
        return lines.last { !isHint($0) && !$0.contains(": warning: ") } ?? lines.last { !isHint($0) } ?? lines.last
    }

    private func lastLine(of text: String) -> String? {
        text.split(whereSeparator: \.isNewline).last.map(String.init)
    }

    /// `output.frames` of a timeline.
    private func frames(in timeline: String) -> Int64? {
        struct Head: Decodable { struct Output: Decodable { var frames: Int64 }; var output: Output }
        guard let data = FileManager.default.contents(atPath: BatchManifest.resolve(timeline, in: directory)) else { return nil }
        return (try? JSONDecoder().decode(Head.self, from: data))?.output.frames
    }
}
