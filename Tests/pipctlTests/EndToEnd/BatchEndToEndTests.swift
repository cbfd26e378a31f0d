import Foundation
import FoundationXML
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `pipctl batch`: a manifest of renders run as child processes, its summary and JUnit report, resume, shards
    /// and their merge, and stopping a batch.
    @Suite struct BatchTests {
        struct Summary: Decodable {
            struct Job: Decodable {
                var id: String?
                var line: Int
                var status: String
                var exitCode: Int32?
                var error: String?
                var output: String?
                var frames: Int64?
                var seconds: Double?
                var verify: Verify?
            }
            struct Verify: Decodable { var passed: Bool; var message: String }
            struct Shard: Decodable, Equatable { var index: Int; var count: Int }
            var manifest: String
            var shard: Shard?
            var mergedShards: [Int]?
            var jobs: [Job]
            var counts: [String: Int]

            init(_ path: String) throws {
                self = try JSONDecoder().decode(Summary.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            }

            func status(_ id: String) -> String? { jobs.first { $0.id == id }?.status }
        }

        /// One manifest line.
        static func line(_ id: String, content: String, breaks: [String], output: String, options: String = "") -> String {
            let list = breaks.map { "\"\($0)\"" }.joined(separator: ", ")
            return #"{"id": "\#(id)", "content": "\#(content)", "breaks": [\#(list)], "output": "\#(output)"\#(options.isEmpty ? "" : ", \"options\": " + options)}"#
        }

        /// Eight lines: six good jobs of the stamped clips, one line with a misspelt option, one job whose content
        /// does not exist.
        static func eightJobs(adB: String) async throws -> String {
            let content = try await TestClip.content.path, adA = try await TestClip.adA.path
            return [
                line("pre", content: content, breaks: ["pre=\(adA)"], output: "out/pre.mp4"),
                line("mid", content: content, breaks: ["3=\(adB)"], output: "out/mid.mp4"),
                line("post", content: content, breaks: ["post=\(adA),\(adB)"], output: "out/post.mp4"),
                line("bad-option", content: content, breaks: ["pre=\(adA)"], output: "out/bad.mp4", options: #"{"fsp": 25}"#),
                line("fps25", content: content, breaks: ["pre=\(adB)"], output: "out/fps25.mp4", options: #"{"fps": 25}"#),
                line("missing", content: "no-such-content.mp4", breaks: ["pre=\(adA)"], output: "out/missing.mp4"),
                line("two", content: content, breaks: ["pre=\(adA)", "50%=\(adB)"], output: "out/two.mp4"),
                line("small", content: content, breaks: ["pre=\(adA)"], output: "out/small.mp4", options: #"{"size": "160x90", "no-preroll": true}"#),
            ].joined(separator: "\n") + "\n"
        }

        static let good = ["pre", "mid", "post", "fps25", "two", "small"]

        @Test func eightJobsRunTwoAtATimeWithAFailureAndABadLineThenARerunRendersNothing() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.subdirectory("out")
            // A copy of one ad, which the test later changes.
            let adB = dir.path("adb.mp4")
            try FileManager.default.copyItem(atPath: try await TestClip.adB.path, toPath: adB)
            let manifest = try dir.write(try await Self.eightJobs(adB: adB), to: "titles.jsonl")
            let result = try await PipctlProcess.run(["batch", manifest, "--jobs", "2", "--verify", "--junit", dir.path("junit.xml")])
            #expect(result.exitStatus == 1)
            #expect(result.errorLines.last == #"pipctl batch: 2 of 8 jobs failed; first: bad-option: line 4: options.fsp: not an option of pipctl render (did you mean fps?)"#)
            #expect(result.standardError.contains("[missing] pipctl render: content: no-such-content.mp4: no such file"))

            let summary = try Summary(dir.path("titles.summary.json"))
            #expect(summary.jobs.map(\.line) == Array(1...8))
            #expect(summary.counts["rendered"] == 6 && summary.counts["failed"] == 1 && summary.counts["invalid"] == 1)
            for id in Self.good {
                let job = try #require(summary.jobs.first { $0.id == id })
                #expect(job.status == "rendered" && job.exitCode == 0 && job.verify?.passed == true, "\(id): \(job)")
                // The frame count is the file's own, counted by ffprobe.
                let frames = try standardOutput(of: "/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                    "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", dir.path("out/\(id).mp4")])
                #expect(job.frames == Int64(frames.trimmingCharacters(in: .whitespacesAndNewlines)), "\(id)")
                #expect(FileManager.default.fileExists(atPath: dir.path("out/\(id).mp4.batch.json")))
            }
            let missing = try #require(summary.jobs.first { $0.id == "missing" })
            #expect(missing.status == "failed" && missing.exitCode == 1)
            #expect(missing.error == "pipctl render: content: no-such-content.mp4: no such file")
            let bad = try #require(summary.jobs.first { $0.id == "bad-option" })
            #expect(bad.status == "invalid" && bad.exitCode == nil)
            // Six outputs with their timelines and event logs and records, and nothing else.
            #expect(dir.entries(in: "out") == Self.good.sorted().flatMap { ["\($0).mp4", "\($0).mp4.batch.json", "\($0).mp4.events.jsonl", "\($0).mp4.timeline.json"] })

            let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: dir.path("junit.xml")))
            #expect(try junit.nodes(forXPath: "//testcase").count == 8)
            let failed = try junit.nodes(forXPath: "//testcase[failure]/@name").compactMap(\.stringValue)
            #expect(failed == ["bad-option", "missing"])
            #expect(junit.rootElement()?.attribute(forName: "failures")?.stringValue == "2")

            // A rerun renders nothing: every good job is up to date and its files are untouched.
            let before = try Self.modificationTimes(dir.path("out"))
            let rerun = try await PipctlProcess.run(["batch", manifest, "--jobs", "2"])
            #expect(rerun.exitStatus == 1)
            let again = try Summary(dir.path("titles.summary.json"))
            for id in Self.good { #expect(again.status(id) == "upToDate", "\(id)") }
            #expect(again.jobs.first { $0.id == "pre" }?.frames == summary.jobs.first { $0.id == "pre" }?.frames)
            #expect(try Self.modificationTimes(dir.path("out")) == before)
            #expect(rerun.standardOutput.contains(#"up to date  "pre"  out/pre.mp4"#))

            // A changed input renders again the jobs that read it, and only those; --force renders every one.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: adB)
            let changed = try await PipctlProcess.run(["batch", manifest, "--dry-run"])
            #expect(changed.standardOutput.contains(#"to render   "mid"  out/mid.mp4  (\#(adB) changed)"#))
            let afterTouch = try await PipctlProcess.run(["batch", manifest, "--jobs", "2"])
            #expect(afterTouch.exitStatus == 1)
            let touched = try Summary(dir.path("titles.summary.json"))
            #expect(Self.good.filter { touched.status($0) == "rendered" } == ["mid", "post", "fps25", "two"])
            #expect(Self.good.filter { touched.status($0) == "upToDate" } == ["pre", "small"])
            let forced = try await PipctlProcess.run(["batch", manifest, "--jobs", "2", "--force"])
            #expect(forced.exitStatus == 1)
            #expect(try Summary(dir.path("titles.summary.json")).counts["rendered"] == 6)
        }

        @Test func shardsOfAShuffledManifestAreTheSameDisjointPartsAndMergeIntoTheWhole() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            let ids = (1...12).map { "job-\($0)" }
            let lines = ids.map { Self.line($0, content: content, breaks: ["pre=\(ad)"], output: "out/\($0).mp4", options: #"{"size": "160x90"}"#) }
            let manifest = try dir.write(lines.joined(separator: "\n"), to: "m.jsonl")
            var shuffled = lines
            shuffled.reverse()
            shuffled.swapAt(0, 5)
            let reordered = try dir.write(shuffled.joined(separator: "\n"), to: "shuffled.jsonl")

            func shard(_ manifest: String, _ index: Int, environment: [String: String] = [:], extra: [String] = []) async throws -> Set<String> {
                let arguments = ["batch", manifest, "--dry-run"] + (environment.isEmpty ? ["--shard", "\(index)/3"] : []) + extra
                let result = try await PipctlProcess.run(arguments, environment: environment)
                #expect(result.exitStatus == 0, "\(result.standardError)")
                return Set(result.standardOutput.split(separator: "\n").compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) })
            }
            var parts: [Set<String>] = []
            for i in 0..<3 {
                let part = try await shard(manifest, i)
                #expect(try await shard(reordered, i) == part, "shard \(i) moved with the order of the lines")
                #expect(try await shard(manifest, i, environment: ["SLURM_ARRAY_TASK_ID": "\(i)", "SLURM_ARRAY_TASK_COUNT": "3"]) == part)
                #expect(try await shard(manifest, i, environment: ["JOB_COMPLETION_INDEX": "\(i)"], extra: ["--shard-count", "3"]) == part)
                parts.append(part)
            }
            #expect(parts.allSatisfy { !$0.isEmpty })
            #expect(parts.reduce(0) { $0 + $1.count } == 12)
            #expect(parts.reduce(Set()) { $0.union($1) } == Set(ids))

            // Each shard runs on its own (as three array tasks would) and the merge holds every job once.
            var summaries: [String] = []
            for i in 0..<3 {
                let run = try await PipctlProcess.run(["batch", manifest, "--jobs", "2"], environment: ["JOB_COMPLETION_INDEX": "\(i)", "PIPCTL_SHARD_COUNT": "3"])
                #expect(run.exitStatus == 0, "\(run.standardError)")
                let path = dir.path("m.shard-\(i)-of-3.summary.json")
                let summary = try Summary(path)
                #expect(summary.shard == .init(index: i, count: 3))
                #expect(Set(summary.jobs.compactMap(\.id)) == parts[i])
                summaries.append(path)
            }
            let merged = try await PipctlProcess.run(["batch", "merge"] + summaries.reversed() + ["--summary", dir.path("all.json"), "--junit", dir.path("all.xml")])
            #expect(merged.exitStatus == 0, "\(merged.standardError)")
            #expect(merged.standardOutput == "\(dir.path("all.json")): 12 jobs from 3 shards: 12 rendered\n")
            let all = try Summary(dir.path("all.json"))
            #expect(all.jobs.compactMap(\.id) == ids)
            #expect(all.mergedShards == [0, 1, 2])
            #expect(try XMLDocument(contentsOf: URL(fileURLWithPath: dir.path("all.xml"))).nodes(forXPath: "//testcase").count == 12)

            // A shard missing from the merge is an error, and nothing is written.
            let partial = try await PipctlProcess.run(["batch", "merge", summaries[0], summaries[2], "--summary", dir.path("partial.json")])
            #expect(partial.exitStatus == 1)
            #expect(partial.errorLines == ["pipctl batch merge: shard 1/3 missing: its summary was not given"])
            #expect(!FileManager.default.fileExists(atPath: dir.path("partial.json")))
        }

        @Test func ctrlCStopsTheBatchLeavingFinishedOutputsAndNoPartialOnesThenItResumes() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.subdirectory("out")
            let content = try await TestClip.content.path, long = try await TestClip.long.path, ad = try await TestClip.adB.path
            let manifest = try dir.write([
                Self.line("first", content: content, breaks: ["pre=\(ad)"], output: "out/first.mp4"),
                Self.line("second", content: long, breaks: ["pre=\(ad)"], output: "out/second.mp4", options: #"{"preset": "medium"}"#),
                Self.line("third", content: long, breaks: ["pre=\(ad)"], output: "out/third.mp4"),
            ].joined(separator: "\n"), to: "m.jsonl")
            let batch = try PipctlProcess(["batch", manifest])
            try await waitUntil("the second job has started writing") {
                dir.entries(in: "out").contains { $0.hasPrefix(".second.mp4.") && $0.hasSuffix(".tmp") }
            }
            batch.send(SIGINT)
            let result = try await batch.result()
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 130)
            #expect(result.errorLines.last == "pipctl batch: interrupted (SIGINT)")
            let summary = try Summary(dir.path("m.summary.json"))
            #expect(summary.jobs.map(\.status) == ["rendered", "interrupted", "notStarted"])
            #expect(dir.entries(in: "out") == ["first.mp4", "first.mp4.batch.json", "first.mp4.events.jsonl", "first.mp4.timeline.json"])

            let resumed = try await PipctlProcess.run(["batch", manifest, "--jobs", "2"])
            #expect(resumed.exitStatus == 0, "\(resumed.standardError)")
            #expect(try Summary(dir.path("m.summary.json")).jobs.map(\.status) == ["upToDate", "rendered", "rendered"])
        }

        @Test func aKilledBatchTakesItsRendersWithItAndLeavesNoPartialFile() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.subdirectory("out")
            let long = try await TestClip.long.path, ad = try await TestClip.adB.path
            let manifest = try dir.write(Self.line("long", content: long, breaks: ["pre=\(ad)"], output: "out/long.mp4", options: #"{"preset": "medium"}"#), to: "m.jsonl")
            let batch = try PipctlProcess(["batch", manifest])
            try await waitUntil("the render has started writing") {
                dir.entries(in: "out").contains { $0.hasPrefix(".long.mp4.") && $0.hasSuffix(".tmp") }
            }
            batch.send(SIGKILL)
            _ = try await batch.result()
            // The render sees its batch gone, stops and removes its temporary files.
            try await waitUntil("the orphaned render has cleaned up", timeout: .seconds(20)) { dir.entries(in: "out").isEmpty }
        }

        /// A job stuck until it is stopped (its ad server never answers, and the first ad request waits 8 s whatever
        /// the options say) is stopped at `--timeout 5`; the other job renders. Neither outcome depends much on how
        /// fast the machine is: the stuck job cannot finish in 5 s, and the quick one has 5 s for a 6 s render of
        /// 160x90 (about 0.3 s of work).
        @Test func aStuckJobTimesOutAndTheOthersRun() async throws {
            let dir = try ScratchDirectory()
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/hang", .hang)
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            let manifest = try dir.write([
                #"{"id": "stuck", "content": "\#(content)", "ads": "\#(server.baseURL.absoluteString)/hang", "output": "out/stuck.mp4", "options": {"decision-timeout": "3600", "wrapper-timeout": "3600"}}"#,
                Self.line("quick", content: content, breaks: ["pre=\(ad)"], output: "out/quick.mp4", options: #"{"size": "160x90"}"#),
            ].joined(separator: "\n"), to: "m.jsonl")
            let result = try await PipctlProcess.run(["batch", manifest, "--timeout", "5"])
            #expect(result.exitStatus == 1)
            #expect(server.requests(for: "/hang").count == 1, "the stuck job was waiting for its ads when it was stopped")
            let summary = try Summary(dir.path("m.summary.json"))
            #expect(summary.jobs.map(\.status) == ["failed", "rendered"])
            #expect(summary.jobs[0].error == "timed out after 5 s: stopped with SIGTERM")
            #expect(result.standardError.contains("[stuck] pipctl render: terminated (SIGTERM)"))
            #expect(dir.entries(in: "out") == ["quick.mp4", "quick.mp4.batch.json", "quick.mp4.events.jsonl", "quick.mp4.timeline.json"])
        }

        @Test func threadsAreSplitOverTheProcessorsTheBatchMayUse() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            let manifest = try dir.write(Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "a.mp4"), to: "m.jsonl")
            // taskset gives the batch one CPU of the machine, as a Slurm task with --cpus-per-task=1 would.
            let pinned = try standardOutput(of: "/bin/sh", ["-c", "taskset -c 0 \"$0\" batch \"$1\" --dry-run --jobs 2 2>&1",
                                                            try PipctlProcess.executable().path, manifest])
            #expect(pinned.contains("1 line, 1 to render, 2 at a time with 1 thread each (1 processor available)"))
            let all = try await PipctlProcess.run(["batch", manifest, "--dry-run", "--jobs", "2"])
            let cpus = ProcessInfo.processInfo.activeProcessorCount
            #expect(all.standardError.contains("2 at a time with \(max(1, cpus / 2)) thread"))
        }

        @Test func badManifestsAndCollidingFilesAreRefusedWithOneLine() async throws {
            let dir = try ScratchDirectory()
            let missing = try await PipctlProcess.run(["batch", dir.path("none.jsonl")])
            #expect(missing.exitStatus == 1)
            #expect(missing.errorLines == ["pipctl batch: \(dir.path("none.jsonl")): no such file or directory"])

            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            let manifest = try dir.write([
                Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "a.mp4", options: #"{"size": "160x90"}"#),
                // Its output would replace the next job's content.
                Self.line("b", content: content, breaks: ["pre=\(ad)"], output: "c-input.mp4"),
                Self.line("c", content: "c-input.mp4", breaks: ["pre=\(ad)"], output: "c.mp4"),
                Self.line("d", content: content, breaks: ["pre=\(ad)"], output: "d.mp4", options: #"{"passthrough": true, "hls": "x"}"#),
            ].joined(separator: "\n"), to: "m.jsonl")
            _ = try dir.write("keep", to: "c-input.mp4")

            // The summary may not replace the manifest or a job's input.
            let clobber = try await PipctlProcess.run(["batch", manifest, "--summary", manifest])
            #expect(clobber.exitStatus == 2)
            #expect(clobber.errorLines.first?.hasPrefix("pipctl batch: --summary \(manifest) is the same file as the manifest") == true)
            #expect(!FileManager.default.fileExists(atPath: dir.path("a.mp4")))

            let run = try await PipctlProcess.run(["batch", manifest])
            #expect(run.exitStatus == 1)
            let summary = try Summary(dir.path("m.summary.json"))
            #expect(summary.jobs.map(\.status) == ["rendered", "invalid", "failed", "invalid"])
            #expect(summary.jobs[1].error == #"line 2: output: \#(dir.path("c-input.mp4")) is the same file as the input of "c" (line 3)"#)
            #expect(summary.jobs[3].error == "line 4: options.hls: cannot be set here: not available in a batch yet: each job writes one MP4")
            #expect(try dir.text("c-input.mp4") == "keep")
        }

        static func modificationTimes(_ directory: String) throws -> [String: Date] {
            var times: [String: Date] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                times[name] = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.modificationDate] as? Date
            }
            return times
        }

    }
}
