import Foundation
import MediaCore
import Testing
@testable import Batch
#if canImport(Glibc)
import Glibc
#endif

/// The runner with real child processes (`/bin/sh` scripts standing in for renders: the runner only starts,
/// waits for and signals children; the renders themselves are tested end to end through pipctl).
@Suite struct BatchRunnerTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "batch-runner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Runs `work` (a batch, which blocks its thread until its children end) on a thread of its own, not on the
    /// two-thread cooperative pool the tests' own waits need; the function returned waits for its result.
    static func onAThread<T: Sendable>(_ work: @escaping @Sendable () -> T) -> @Sendable () async -> T {
        let state = LockedState<(result: T?, waiter: CheckedContinuation<T, Never>?)>((nil, nil))
        Thread.detachNewThread {
            let result = work()
            let waiter = state.withLock { state in
                state.result = result
                return state.waiter
            }
            waiter?.resume(returning: result)
        }
        return {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> T? in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    func item(_ id: String, script: String) -> BatchRunner.WorkItem {
        let job = BatchJob(id: id, line: Int(id.dropFirst()) ?? 0, content: "c.mp4", ads: .breaks(["pre=a.mp4"]),
                           output: "\(id).mp4", options: [])
        let record = JobRecord(id: id, pipctlVersion: "test", arguments: [script], inputs: [],
                               outputs: [.init(path: "\(id).mp4")])
        return .init(job: job, arguments: ["-c", script], threadArguments: [], verifyArguments: nil, record: record,
                     timeline: "\(id).timeline.json")
    }

    /// A script that notes its start and end (nanoseconds) and makes its output, once the file `gate` exists.
    func timed(_ id: String, after gate: String) -> String {
        "echo $(date +%s%N) > \(id).start; while [ ! -f \(gate) ]; do sleep 0.01; done; echo $(date +%s%N) > \(id).end; echo video > \(id).mp4"
    }

    /// Each job waits for the test's `go` file: the first two run together however slow the machine is to start
    /// them, and no third starts while they run.
    @Test(.timeLimit(.minutes(2))) func runsAtMostNAtOnceAndReportsEach() async throws {
        let runner = BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 2, environment: [:])
        let ids = (1...5).map { "j\($0)" }
        let reported = LockedState<[String]>([])
        let items = ids.map { item($0, script: timed($0, after: "go")) }
        let running = Self.onAThread { runner.run(items) { report in reported.withLock { $0.append(report.result.id!) } } }
        let exists = { (name: String) in FileManager.default.fileExists(atPath: self.directory + "/" + name) }
        while !(exists("j1.start") && exists("j2.start")) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!exists("j3.start"), "no third job while two run")
        #expect(FileManager.default.createFile(atPath: directory + "/go", contents: nil))
        let results = await running()
        #expect(results.map(\.status) == Array(repeating: .rendered, count: 5))
        #expect(Set(reported.withLock { $0 }) == Set(ids))
        let spans = try ids.map { id -> (Int64, Int64) in
            func read(_ name: String) throws -> Int64 {
                Int64(try String(contentsOfFile: directory + "/" + name, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
            }
            return (try read("\(id).start"), try read("\(id).end"))
        }
        // At each start, how many ran: never more than 2, and 2 at some point.
        let overlaps = spans.map { start in spans.filter { $0.0 <= start.0 && start.0 < $0.1 }.count }
        #expect(overlaps.max() == 2)
        // Each success leaves its record, with the output's state after the run.
        let record = try #require(JobRecord.stored(forOutput: "j1.mp4", in: directory))
        #expect(record.outputs.first?.size == 6)
    }

    @Test func aFailingOrCrashingJobIsOneFailureAndTheOthersRun() {
        let runner = BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 2, environment: [:])
        let results = runner.run([
            item("j1", script: "echo ok > j1.mp4"),
            item("j2", script: "echo 'pipctl render: c.mp4: no such file' >&2; exit 1"),
            item("j3", script: "kill -SEGV $$"),
            item("j4", script: "echo ok > j4.mp4"),
        ]) { _ in }
        #expect(results.map(\.status) == [.rendered, .failed, .failed, .rendered])
        #expect(results[1].error == "pipctl render: c.mp4: no such file")
        #expect(results[1].exitCode == 1)
        #expect(results[2].error == "ended by signal \(SIGSEGV)")
        #expect(results[2].exitCode == 128 + SIGSEGV)
        #expect(JobRecord.stored(forOutput: "j2.mp4", in: directory) == nil)
    }

    @Test func aFailedJobsErrorIsTheChildsErrorLineNotTheUsageHintAfterIt() {
        let runner = BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 1, environment: [:])
        let results = runner.run([
            item("j1", script: "echo 'pipctl render: --break: \"pre=missing.mp4\": media file missing.mp4 does not exist' >&2; echo \"See 'pipctl render --help'.\" >&2; exit 2"),
            item("j2", script: "echo 'pipctl render: no such file' >&2; echo 'pipctl render: warning: 3 beacons were not sent' >&2; exit 1"),
        ]) { _ in }
        #expect(results.map(\.status) == [.failed, .failed])
        #expect(results[0].error == #"pipctl render: --break: "pre=missing.mp4": media file missing.mp4 does not exist"#)
        #expect(results[0].exitCode == 2)
        #expect(results[1].error == "pipctl render: no such file")
    }

    /// The timeout and its grace are on the runner's clock: a job that ignores SIGTERM and never ends gets it when
    /// the clock reaches the timeout, SIGKILL when it reaches the grace after, and fails naming the timeout.
    @Test(.timeLimit(.minutes(2))) func aJobPastItsTimeoutGetsSIGTERMThenSIGKILLWhenTheClockSays() async throws {
        let clock = ManualClock()
        let runner = BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 1, environment: [:],
                                 timeout: .seconds(3600), grace: .seconds(10), clock: clock)
        // `j1.trapped` says the shell has set its trap: a SIGTERM before that would end it, and nothing would say so.
        let script = "trap 'touch j1.terms' TERM; touch j1.trapped; while :; do sleep 0.05; done"
        let running = Self.onAThread { runner.run([item("j1", script: script)]) { _ in } }
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(3599))
        #expect(clock.sleepers == 1, "not an hour yet")
        while !FileManager.default.fileExists(atPath: directory + "/j1.trapped") { try await Task.sleep(for: .milliseconds(10)) }
        clock.advance(by: .seconds(1))
        while !FileManager.default.fileExists(atPath: directory + "/j1.terms") { try await Task.sleep(for: .milliseconds(10)) }
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(10))
        let results = await running()
        #expect(results.map(\.status) == [.failed])
        #expect(results.first?.error == "timed out after 3600 s: stopped with SIGTERM")
    }

    @Test(.timeLimit(.minutes(2))) func stopPassesTheSignalOnceToRunningJobsAndStartsNoMore() async throws {
        let runner = BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 2, environment: [:])
        // Each job counts the SIGTERMs it gets, then ends as a render would after cleaning up. Without the signal it
        // never ends: a job that ignored it would hang the test (its time limit is the bound), not pass late.
        let script = { (id: String) in
            "n=0; trap 'n=$((n+1)); echo $n > \(id).terms' TERM; touch \(id).started; while :; do sleep 0.05; if [ -f \(id).terms ]; then sleep 0.2; exit 143; fi; done"
        }
        let items = (1...4).map { item("j\($0)", script: script("j\($0)")) }
        let running = Self.onAThread { runner.run(items) { _ in } }
        while !(FileManager.default.fileExists(atPath: directory + "/j1.started") && FileManager.default.fileExists(atPath: directory + "/j2.started")) {
            try await Task.sleep(for: .milliseconds(10))
        }
        runner.stop(signal: SIGTERM)
        runner.stop(signal: SIGTERM)
        let results = await running()
        #expect(results.map(\.status) == [.interrupted, .interrupted, .notStarted, .notStarted])
        for id in ["j1", "j2"] {
            #expect(try String(contentsOfFile: directory + "/\(id).terms", encoding: .utf8) == "1\n", "\(id) got the signal once")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/j3.started"))
    }

    @Test func childrenRunInTheManifestsDirectoryWithTheBatchAsTheirParent() {
        let runner = BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 1, environment: ["PATH": "/usr/bin:/bin"])
        let results = runner.run([item("j1", script: "[ \"$(pwd -P)\" = \"$(cd \(directory) && pwd -P)\" ] && [ \"$PIPCTL_PARENT_PID\" = \"$PPID\" ] && echo x > j1.mp4")]) { _ in }
        #expect(results.map(\.status) == [.rendered])
    }
}
