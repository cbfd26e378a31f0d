import Foundation
import MediaCore
import Testing
@testable import Batch

/// The batch's planning against real files: a manifest in a temporary directory, jobs whose "render" is a `/bin/sh`
/// script (the stand-in for render's command line, which pipctl makes), run by the real `BatchRunner`, which
/// writes the records the next plan reads.
@Suite struct BatchPlanTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "batch-plan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write("c.mp4", "content")
        try write("ad.mp4", "ad")
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: directory + "/" + name) }

    /// A manifest line of a content job with one break.
    static func line(_ id: String, content: String = "c.mp4", ad: String = "ad.mp4", output: String? = nil,
                     options: String = "{}") -> String {
        #"{"id": "\#(id)", "content": "\#(content)", "breaks": ["pre=\#(ad)"], "output": "\#(output ?? id + ".mp4")", "options": \#(options)}"#
    }

    func manifest(_ lines: [String]) throws -> BatchManifest {
        let data = Data(lines.joined(separator: "\n").utf8)
        try data.write(to: URL(fileURLWithPath: directory + "/m.jsonl"))
        return try BatchManifest(data: data, path: directory + "/m.jsonl", directory: directory)
    }

    /// A job's "render": copies its content to the output and writes a 25-frame timeline and an empty event log; the
    /// options are in its command line (as a comment), and `extraInputs`/`extraOutputs` are files it claims besides.
    static func shellCommand(extraInputs: [String] = [], extraOutputs: [String] = [], failing: Set<String> = [])
        -> (BatchJob) throws(BatchLineError) -> BatchJobCommand {
        { job throws(BatchLineError) in
            guard case .content(let content, .breaks(let breaks)) = job.source else {
                throw BatchLineError(line: job.line, id: job.id, path: "content", message: "only content with breaks here")
            }
            let options = job.options.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            let timeline = job.output + ".timeline.json"
            let script = failing.contains(job.id)
                ? "echo 'pipctl render: \(content): no video stream' >&2; exit 1"
                : "cat \(content) > \(job.output) && echo '{\"output\": {\"frames\": 25}}' > \(timeline)"
                    + " && : > \(job.output).events.jsonl # \(options)"
            return BatchJobCommand(
                arguments: ["-c", script], inputs: [content] + breaks.map { String($0.drop { $0 != "=" }.dropFirst()) } + extraInputs,
                namedInputs: [], outputs: [job.output, timeline, job.output + ".events.jsonl"] + extraOutputs,
                timeline: timeline, setsThreads: job.options.contains { $0.name == "threads" })
        }
    }

    func plan(_ manifest: BatchManifest, shard: BatchShard? = nil, reserved: [FileIdentity.Named] = [],
              version: String = "1", force: Bool = false,
              command: (BatchJob) throws(BatchLineError) -> BatchJobCommand = shellCommand()) throws -> BatchPlan {
        try BatchPlan(manifest: manifest, shard: shard, reserved: reserved, pipctlVersion: version, force: force,
                      command: command)
    }

    func run(_ plan: BatchPlan, verify: BatchPlan.Verify = .off) -> [BatchSummary.JobResult] {
        BatchRunner(executable: "/bin/sh", directory: directory, concurrency: 2, environment: [:])
            .run(plan.workItems(threads: 1, verify: verify)) { _ in }
    }

    /// Why each job of a fresh plan renders; nil for one that does not.
    func staleness(_ plan: BatchPlan) -> [String: JobRecord.Staleness?] {
        Dictionary(uniqueKeysWithValues: plan.steps.compactMap { step -> (String, JobRecord.Staleness?)? in
            switch step {
            case .render(let render): (render.job.id, render.staleness)
            case .upToDate(let job, _): (job.id, nil)
            case .invalid: nil
            }
        })
    }

    /// Renders job "a" once, so that its record is beside a.mp4.
    func renderedOnce(_ lines: [String] = [line("a")]) throws -> BatchManifest {
        let manifest = try manifest(lines)
        let results = run(try plan(manifest))
        #expect(results.map(\.status) == Array(repeating: .rendered, count: results.count))
        #expect(exists("a.mp4.batch.json"))
        return manifest
    }

    // MARK: Staleness

    @Test func aJobRendersUntilItsRecordMatchesThenItIsUpToDate() throws {
        let manifest = try manifest([Self.line("a")])
        let first = try plan(manifest)
        #expect(staleness(first) == ["a": .noRecord])
        #expect(first.settled.isEmpty)
        let results = run(first)
        #expect(results.map(\.frames) == [25])
        let second = try plan(manifest)
        #expect(staleness(second) == ["a": nil])
        #expect(second.renders.isEmpty)
        #expect(second.settled == [.init(id: "a", line: 1, status: .upToDate, output: "a.mp4", frames: 25)])
    }

    @Test func aMissingOrChangedOutputIsRenderedAgain() throws {
        let manifest = try renderedOnce()
        try FileManager.default.removeItem(atPath: directory + "/a.mp4.events.jsonl")
        #expect(staleness(try plan(manifest)) == ["a": .outputMissing("a.mp4.events.jsonl")])
        try FileManager.default.removeItem(atPath: directory + "/a.mp4")
        #expect(staleness(try plan(manifest)) == ["a": .outputMissing("a.mp4")])
        try write("a.mp4", "something else")
        #expect(staleness(try plan(manifest)) == ["a": .outputChanged("a.mp4")])
    }

    @Test func aMissingOrCorruptRecordIsNoRecord() throws {
        let manifest = try renderedOnce()
        try write("a.mp4.batch.json", "{\"version\": 1, \"id\":")
        #expect(staleness(try plan(manifest)) == ["a": .noRecord])
        try FileManager.default.removeItem(atPath: directory + "/a.mp4.batch.json")
        #expect(staleness(try plan(manifest)) == ["a": .noRecord])
    }

    @Test func changedOrGoneInputsAreNamed() throws {
        let manifest = try renderedOnce()
        try write("ad.mp4", "a longer ad")
        #expect(staleness(try plan(manifest)) == ["a": .inputChanged("ad.mp4")])
        try FileManager.default.removeItem(atPath: directory + "/ad.mp4")
        let gone = try plan(manifest)
        #expect(staleness(gone) == ["a": .inputGone("ad.mp4")])
        #expect(gone.renders.map(\.missingInput) == [directory + "/ad.mp4"])
    }

    @Test func readingOrWritingOtherFilesIsStale() throws {
        let manifest = try renderedOnce()
        #expect(staleness(try plan(manifest, command: Self.shellCommand(extraInputs: ["c.mp4"]))) == ["a": .inputsChanged])
        #expect(staleness(try plan(manifest, command: Self.shellCommand(extraOutputs: ["a.hashes"]))) == ["a": .outputsChanged])
    }

    @Test func changedOptionsAnotherPipctlOrForceRenderAgain() throws {
        let manifest = try renderedOnce()
        #expect(staleness(try plan(try self.manifest([Self.line("a", options: #"{"fps": "30"}"#)]))) == ["a": .optionsChanged])
        #expect(staleness(try plan(manifest, version: "2")) == ["a": .otherVersion("1")])
        let forced = try plan(manifest, force: true)
        #expect(staleness(forced) == ["a": .forced])
        #expect(forced.renders.map(\.missingInput) == [nil])
    }

    @Test func eachStalenessSaysWhyInWords() {
        let cases: [(JobRecord.Staleness, String)] = [
            (.forced, "--force"), (.noRecord, "not rendered yet"), (.otherVersion("0.9"), "made by pipctl 0.9"),
            (.optionsChanged, "its options changed"), (.inputsChanged, "its inputs changed"),
            (.inputGone("c.mp4"), "c.mp4 is gone"), (.inputChanged("c.mp4"), "c.mp4 changed"),
            (.outputMissing("o.mp4"), "o.mp4 is missing"), (.outputChanged("o.mp4"), "o.mp4 changed since it was rendered"),
            (.outputsChanged, "its outputs changed"),
        ]
        for (staleness, words) in cases { #expect(staleness.description == words) }
    }

    // MARK: Checks before anything runs

    @Test func anOutputThatIsAnotherJobsInputMakesThatLineInvalid() throws {
        let manifest = try manifest([Self.line("a"), Self.line("b", output: "ad.mp4"), Self.line("c", output: "a.mp4.events.jsonl")])
        let plan = try plan(manifest)
        #expect(plan.renders.map(\.job.id) == ["a"])
        #expect(plan.settled.map(\.error) == [
            "line 2: output: \(directory)/ad.mp4 is the same file as the input of \"a\" (line 1)",
            "line 3: output: \(directory)/a.mp4.events.jsonl is the same file as \"a\"'s output",
        ])
        #expect(plan.inputs.map(\.path).contains(directory + "/ad.mp4"))
    }

    @Test func anOutputThatIsTheBatchsOwnFileRefusesThePlan() throws {
        let manifest = try manifest([Self.line("a"), Self.line("b", output: "m.jsonl")])
        let reserved = FileIdentity.Named("the manifest", directory + "/m.jsonl")
        #expect(throws: BatchPlan.Problem.overwrites(
            line: 2, output: .init("\"b\"'s output", directory + "/m.jsonl"), reserved: reserved)) {
            try plan(manifest, reserved: [reserved])
        }
        let problem = BatchPlan.Problem.overwrites(line: 2, output: .init("\"b\"'s output", "/d/m.jsonl"), reserved: .init("--summary", "/d/m.jsonl"))
        #expect(problem.description == "line 2: \"b\"'s output /d/m.jsonl is the same file as --summary /d/m.jsonl; nothing was written")
    }

    @Test func aCancelledPlanStops() throws {
        let manifest = try manifest([Self.line("a")])
        #expect(throws: BatchPlan.Problem.stopped) {
            try BatchPlan(manifest: manifest, shard: nil, reserved: [], pipctlVersion: "1", force: false,
                          command: Self.shellCommand(), isCancelled: { true })
        }
    }

    @Test func aShardPlansItsOwnLinesAndTheShardsMakeTheWhole() throws {
        let ids = (1...12).map { "j\($0)" }
        let manifest = try manifest(ids.map { Self.line($0) } + ["{\"id\": 3}"])
        var planned: [Int] = []
        for index in 0..<3 {
            let shard = try BatchShard(index: index, count: 3)
            let plan = try plan(manifest, shard: shard)
            #expect(plan.steps.count == manifest.entries.filter { shard.contains(id: $0.id, line: $0.line) }.count)
            #expect(plan.headline(concurrency: 2, threads: 1, processors: 2).hasPrefix("\(plan.steps.count) of 13 lines (shard \(index)/3), "))
            planned += plan.renders.map(\.job.line) + plan.settled.map(\.line)
        }
        #expect(planned.sorted() == Array(1...13))
    }

    // MARK: What the batch says and runs

    @Test func theHeadlineCountsLinesRendersThreadsAndProcessors() throws {
        let manifest = try renderedOnce([Self.line("a"), Self.line("b")])
        try write("c.mp4", "new content")
        #expect(try plan(manifest).headline(concurrency: 2, threads: 4, processors: 8)
            == "2 lines, 2 to render, 2 at a time with 4 threads each (8 processors available)")
        let one = try plan(try self.manifest([Self.line("a")]))
        #expect(one.headline(concurrency: 1, threads: 1, processors: 1)
            == "1 line, 1 to render, 1 at a time with 1 thread each (1 processor available)")
    }

    @Test func theDryRunSaysWhatEachLineWouldDoInLineOrder() throws {
        _ = try renderedOnce([Self.line("a")])
        let manifest = try manifest([
            "{\"content\": \"c.mp4\"}", Self.line("a"), Self.line("b", options: #"{"fps": "30"}"#),
            Self.line("d", ad: "gone.mp4"),
            #"{"id": "q\"\\", "content": "c.mp4", "breaks": ["pre=ad.mp4"], "output": "q.mp4"}"#,
        ])
        let plan = try plan(manifest)
        #expect(plan.dryRunLines == [
            "invalid     line 1  line 1: id: missing",
            "up to date  \"a\"  a.mp4  25 frames",
            "to render   \"b\"  b.mp4  (not rendered yet)",
            "would fail  \"d\"  d.mp4  (\(directory)/gone.mp4 does not exist)",
            "to render   \"q\\\"\\\\\"  q.mp4  (not rendered yet)",
        ])
        // Planning wrote nothing.
        #expect(!exists("b.mp4") && !exists("b.mp4.batch.json"))
    }

    @Test func workItemsCarryThreadsAndVerifyUnlessTheJobSetsThreads() throws {
        let manifest = try manifest([Self.line("a"), Self.line("b", options: #"{"threads": "3"}"#)])
        let plan = try plan(manifest)
        let plain = plan.workItems(threads: 4, verify: .off)
        #expect(plain.map(\.threadArguments) == [["--threads", "4"], []])
        #expect(plain.map(\.verifyArguments) == [nil, nil])
        #expect(plain.map(\.arguments) == plan.renders.map(\.command.arguments))
        #expect(plain.map(\.record) == plan.renders.map(\.record))
        #expect(plan.workItems(threads: 1, verify: .stamps).first?.verifyArguments == ["verify", "a.mp4", "--timeline", "a.mp4.timeline.json"])
        #expect(plan.workItems(threads: 1, verify: .sources).first?.verifyArguments == ["verify", "a.mp4", "--timeline", "a.mp4.timeline.json", "--sources"])
    }

    @Test func theSummaryJoinsSettledAndRunResultsInLineOrder() throws {
        _ = try renderedOnce()
        let manifest = try manifest([Self.line("x"), Self.line("a"), "not json", Self.line("f")])
        let plan = try plan(manifest, command: Self.shellCommand(failing: ["f"]))
        let summary = plan.summary(ran: run(plan))
        #expect(summary.jobs.map(\.line) == [1, 2, 3, 4])
        #expect(summary.jobs.map(\.status) == [.rendered, .upToDate, .invalid, .failed])
        #expect(summary.manifest == manifest.path)
        #expect(summary.manifestDigest == manifest.digest)
        #expect(summary.shard == nil)
        #expect(summary.countsText == "1 rendered, 1 up to date, 1 failed, 1 invalid")
        #expect(summary.failureMessage == "2 of 4 jobs failed; first: line 3: \(summary.jobs[2].error!)")
        #expect(summary.jobs[3].error == "pipctl render: c.mp4: no video stream")
        #expect(summary.closingLine(summaryPath: "m.summary.json", junit: nil)
            == "4 jobs: 1 rendered, 1 up to date, 1 failed, 1 invalid; summary: m.summary.json")
    }
}

@Suite struct BatchSummaryTextTests {
    @Test func eachJobIsOneLine() {
        let lines = [
            BatchSummary.JobResult(id: "title-fr", line: 1, status: .rendered, exitCode: 0, output: "out/title-fr.mp4",
                                   frames: 1234, seconds: 12.34, verify: .init(passed: true, message: "ok")),
            .init(id: nil, line: 3, status: .invalid, error: "line 3: id: missing"),
            .init(id: "b", line: 4, status: .failed, exitCode: 1, error: "exit status 1", output: "b.mp4", seconds: 2),
            .init(id: "c\"d", line: 5, status: .upToDate, output: "c.mp4", seconds: 9),
            .init(id: "e", line: 6, status: .notStarted, output: "e.mp4"),
        ].map(\.statusLine)
        #expect(lines == [
            "rendered    \"title-fr\"  out/title-fr.mp4  1234 frames  12.3 s  verify passed",
            "invalid     line 3  line 3: id: missing",
            "failed      \"b\"  b.mp4  exit status 1",
            "up to date  \"c\\\"d\"  c.mp4",
            "not started \"e\"  e.mp4",
        ])
    }

    @Test func theClosingLineNamesTheShardAndTheReports() throws {
        let summary = BatchSummary(manifest: "m.jsonl", manifestDigest: "d", shard: try BatchShard(index: 1, count: 2),
                                   jobs: [.init(id: "a", line: 1, status: .interrupted)])
        #expect(summary.closingLine(summaryPath: "s.json", junit: "j.xml") == "1 job (shard 1/2): 1 interrupted; summary: s.json; junit: j.xml")
        #expect(summary.failureMessage == nil)
    }

    @Test func theDefaultSummaryPathFollowsTheManifestAndShard() throws {
        #expect(BatchSummary.defaultPath(forManifest: "dir/titles.jsonl", shard: nil) == "dir/titles.summary.json")
        #expect(BatchSummary.defaultPath(forManifest: "titles.ndjson", shard: try BatchShard(index: 0, count: 3))
            == "titles.shard-0-of-3.summary.json")
        #expect(BatchSummary.defaultPath(forManifest: "titles.txt", shard: nil) == "titles.txt.summary.json")
    }

    @Test func theSummaryAndJUnitReportAreWrittenTogether() throws {
        let directory = NSTemporaryDirectory() + "batch-summary-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let summary = BatchSummary(manifest: "m.jsonl", manifestDigest: "d", shard: nil,
                                   jobs: [.init(id: "a", line: 1, status: .rendered, seconds: 1)])
        try summary.write(to: directory + "/s.json", junit: directory + "/j.xml")
        #expect(FileManager.default.contents(atPath: directory + "/s.json") == summary.json())
        #expect(FileManager.default.contents(atPath: directory + "/j.xml") == Data(JUnitReport.xml(summary).utf8))
        // Without a JUnit path only the summary is written.
        try summary.write(to: directory + "/t.json", junit: nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["j.xml", "s.json", "t.json"])
    }
}
