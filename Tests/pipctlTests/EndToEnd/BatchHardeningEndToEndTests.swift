import Foundation
import FoundationXML
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `pipctl batch` against hostile manifests and environments (issue 22): jobs that would write over the
    /// manifest or the batch's reports, scheduler variables at the extremes of Int, large manifests (linear, and
    /// stopped by a signal while loading), a failed job's cause, bytes that are not UTF-8, control characters, and
    /// session-file jobs.
    @Suite struct BatchHardeningTests {
        typealias Summary = BatchTests.Summary

        static func line(_ id: String, content: String, breaks: [String], output: String, options: String = "") -> String {
            BatchTests.line(id, content: content, breaks: breaks, output: output, options: options)
        }

        // MARK: Collisions

        @Test func aJobWhoseOutputOrSidecarIsTheManifestIsAUsageErrorAndTheManifestIsUntouched() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            // The output, the timeline option, and (for a manifest named like one) the resume record.
            let cases: [(name: String, line: (String) -> String, names: String)] = [
                ("m.jsonl", { Self.line("a", content: content, breaks: ["pre=\(ad)"], output: $0) }, #""a"'s output"#),
                ("t.jsonl", { Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "a.mp4", options: #"{"timeline": "\#($0)"}"#) }, #""a"'s output"#),
                ("e.jsonl", { Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "a.mp4", options: #"{"events": "\#($0)"}"#) }, #""a"'s output"#),
                ("r.mp4.batch.json", { _ in Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "r.mp4") }, #""a"'s output"#),
            ]
            for (name, line, label) in cases {
                let manifest = dir.path(name)
                let text = line(manifest) + "\n"
                try text.write(toFile: manifest, atomically: true, encoding: .utf8)
                let result = try await PipctlProcess.run(["batch", manifest])
                #expect(result.exitStatus == 2, "\(name): \(result.standardError)")
                #expect(result.errorLines.first == "pipctl batch: line 1: \(label) \(manifest) is the same file as the manifest \(manifest); nothing was written",
                        "\(name)")
                #expect(try dir.text(name) == text, "\(name) was changed")
            }
            #expect(!FileManager.default.fileExists(atPath: dir.path("a.mp4")) && !FileManager.default.fileExists(atPath: dir.path("r.mp4")))
        }

        @Test func aJobWhoseOutputIsTheManifestThroughASymlinkOrTheSummaryOrJUnitIsAUsageError() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            let manifest = dir.path("m.jsonl")
            try FileManager.default.createSymbolicLink(atPath: dir.path("link.mp4"), withDestinationPath: manifest)
            let text = Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "link.mp4") + "\n"
            try text.write(toFile: manifest, atomically: true, encoding: .utf8)
            let linked = try await PipctlProcess.run(["batch", manifest])
            #expect(linked.exitStatus == 2)
            // The job's path is shown resolved (through the link): it names the manifest itself.
            #expect(linked.errorLines.first == #"pipctl batch: line 1: "a"'s output \#(manifest) is the same file as the manifest \#(manifest); nothing was written"#)
            #expect(try dir.text("m.jsonl") == text)

            let other = try dir.write(Self.line("b", content: content, breaks: ["pre=\(ad)"], output: "b.mp4") + "\n", to: "o.jsonl")
            let summary = try await PipctlProcess.run(["batch", other, "--summary", dir.path("b.mp4.timeline.json")])
            #expect(summary.exitStatus == 2)
            #expect(summary.errorLines.first == #"pipctl batch: line 1: "b"'s output \#(dir.path("b.mp4.timeline.json")) is the same file as --summary \#(dir.path("b.mp4.timeline.json")); nothing was written"#)
            let junit = try await PipctlProcess.run(["batch", other, "--junit", "b.mp4"], directory: dir.url)
            #expect(junit.exitStatus == 2)
            #expect(junit.errorLines.first == #"pipctl batch: line 1: "b"'s output \#(dir.path("b.mp4")) is the same file as --junit b.mp4; nothing was written"#)
            #expect(dir.entries().sorted() == ["link.mp4", "m.jsonl", "o.jsonl"])
        }

        @Test func aJobWhoseSidecarIsAnotherJobsOutputIsRefusedNamingBoth() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            let manifest = try dir.write([
                Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "a.mp4", options: #"{"size": "160x90"}"#),
                Self.line("b", content: content, breaks: ["pre=\(ad)"], output: "b.mp4", options: #"{"timeline": "a.mp4"}"#),
                Self.line("c", content: content, breaks: ["pre=\(ad)"], output: "c.mp4", options: #"{"events": "a.mp4.batch.json"}"#),
            ].joined(separator: "\n"), to: "m.jsonl")
            let dry = try await PipctlProcess.run(["batch", manifest, "--dry-run"])
            #expect(dry.exitStatus == 0)
            let lines = dry.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix(#"to render   "a"  a.mp4"#))
            #expect(lines[1] == #"invalid     "b"  line 2: output: \#(dir.path("a.mp4")) is the same file as "a"'s output"#)
            #expect(lines[2] == #"invalid     "c"  line 3: output: \#(dir.path("a.mp4.batch.json")) is the same file as "a"'s output"#)
            #expect(dir.entries() == ["m.jsonl"])
        }

        /// A job whose output is the media another job's local VAST (through a local wrapper) names, or the font or
        /// the banner another job's session reads, is refused before anything runs: the later job would read an MP4.
        @Test func aJobWhoseOutputIsWhatAnotherJobsAdsOrSessionReadIsRefused() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            try dir.write(#"<VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>t</AdSystem><VASTAdTagURI>v.xml</VASTAdTagURI></Wrapper></Ad></VAST>"#,
                          to: "w.xml")
            try dir.write("""
                <VAST version="4.2"><Ad id="a1"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle><Creatives><Creative><Linear>
                <Duration>00:00:01</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4">ads/ad1.mp4</MediaFile></MediaFiles>
                </Linear></Creative></Creatives></InLine></Ad></VAST>
                """, to: "v.xml")
            try dir.write(#"{"device": "iphone-15", "scenes": [{"id": "main", "player": {"content": "\#(content)"}, "banner": {"source": "b.png"}}]}"#,
                          to: "s.json")
            let manifest = try dir.write([
                Self.line("a", content: content, breaks: ["pre=\(ad)"], output: "ads/ad1.mp4"),
                #"{"id": "b", "content": "\#(content)", "ads": "w.xml", "output": "b.mp4"}"#,
                Self.line("c", content: content, breaks: ["pre=\(ad)"], output: "f.ttf"),
                Self.line("d", content: content, breaks: ["pre=\(ad)"], output: "d.mp4", options: #"{"font": "f.ttf"}"#),
                Self.line("e", content: content, breaks: ["pre=\(ad)"], output: "b.png"),
                #"{"id": "f", "session": "s.json", "output": "f.mp4"}"#,
            ].joined(separator: "\n"), to: "m.jsonl")
            let dry = try await PipctlProcess.run(["batch", manifest, "--dry-run"])
            #expect(dry.exitStatus == 0, "\(dry.standardError)")
            let lines = dry.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 6)
            #expect(lines[0] == #"invalid     "a"  line 1: output: \#(dir.path("ads/ad1.mp4")) is the same file as the input of "b" (line 2)"#)
            #expect(lines[1].hasPrefix(#"to render   "b"  b.mp4"#))
            #expect(lines[2] == #"invalid     "c"  line 3: output: \#(dir.path("f.ttf")) is the same file as the input of "d" (line 4)"#)
            #expect(lines[4] == #"invalid     "e"  line 5: output: \#(dir.path("b.png")) is the same file as the input of "f" (line 6)"#)
            #expect(dir.entries().sorted() == ["m.jsonl", "s.json", "v.xml", "w.xml"])
        }

        // MARK: Shards

        @Test(arguments: ["SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT"])
        func aSchedulerVariableAtTheEndsOfIntIsAUsageErrorNotATrap(name: String) async throws {
            let dir = try ScratchDirectory()
            let manifest = try dir.write(#"{"id": "a", "content": "c.mp4", "breaks": ["pre=a.mp4"], "output": "a.mp4"}"# + "\n", to: "m.jsonl")
            var environment = ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"]
            environment[name] = "-9223372036854775808"
            let result = try await PipctlProcess.run(["batch", manifest, "--dry-run"], environment: environment)
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 2)
            #expect(result.errorLines.first == #"pipctl batch: \#(name)="-9223372036854775808" is not a whole number from \#(name == "SLURM_ARRAY_TASK_COUNT" ? 1 : 0) to 2147483647"#)
            let kubernetes = try await PipctlProcess.run(["batch", manifest, "--dry-run"],
                                                         environment: ["JOB_COMPLETION_INDEX": "9223372036854775807", "PIPCTL_SHARD_COUNT": "2"])
            #expect(kubernetes.exitStatus == 2)
            #expect(kubernetes.errorLines.first == #"pipctl batch: JOB_COMPLETION_INDEX="9223372036854775807" is not a whole number from 0 to 2147483647"#)
        }

        // MARK: Large manifests

        /// `count` jobs of the real test clips, each its own output.
        static func bigManifest(_ count: Int, in dir: ScratchDirectory, name: String) async throws -> String {
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            var text = ""
            text.reserveCapacity(count * 200)
            for i in 0..<count { text += line("job-\(i)", content: content, breaks: ["pre=\(ad)"], output: "out/job-\(i).mp4") + "\n" }
            return try dir.write(text, to: name)
        }

        /// The CPU time (user + system, seconds) of `pipctl batch MANIFEST --dry-run`, as bash's `times` reports
        /// for its finished children.
        static func dryRunCPUSeconds(_ manifest: String) throws -> Double {
            let report = try standardOutput(of: "/usr/bin/bash", ["-c", #""$0" batch "$1" --dry-run >/dev/null 2>&1 || exit 9; times"#,
                                                                 try PipctlProcess.executable().path, manifest])
            // Two lines, the shell's then its children's: "0m1.234s 0m0.056s".
            let children = try #require(report.split(separator: "\n").last)
            return try children.split(separator: " ").map { part in
                let minutes = try #require(Double(part.prefix { $0 != "m" }))
                let seconds = try #require(Double(part.drop { $0 != "m" }.dropFirst().dropLast()))
                return minutes * 60 + seconds
            }.reduce(0, +)
        }

        @Test func twentyThousandLinesLoadInCPUTimeLinearInTheLines() async throws {
            let dir = try ScratchDirectory()
            let small = try await Self.bigManifest(2_000, in: dir, name: "small.jsonl")
            let big = try await Self.bigManifest(20_000, in: dir, name: "big.jsonl")
            let smallCPU = try Self.dryRunCPUSeconds(small)
            let bigCPU = try Self.dryRunCPUSeconds(big)
            // Ten times the lines: about ten times the work (a quadratic step would make it a hundred).
            #expect(bigCPU < 20 * max(smallCPU, 0.05), "2,000 lines: \(smallCPU) s, 20,000 lines: \(bigCPU) s of CPU")
        }

        @Test(arguments: [SIGTERM, SIGINT])
        func aSignalWhileLoadingEndsTheBatchAtOnceWritingNothing(signal: Int32) async throws {
            let dir = try ScratchDirectory()
            let manifest = try await Self.bigManifest(60_000, in: dir, name: "m.jsonl")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: manifest)[.size] as? Int)
            // A shard of a few jobs, so that a batch that missed the signal would go on, render and write a summary.
            let batch = try PipctlProcess(["batch", manifest, "--shard", "0/20000"])
            let pid = batch.processIdentifier
            try await waitUntil("the batch has read its manifest and catches the signal") {
                guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
                      let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
                let read = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
                let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                    .flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
                return read >= size && caught & (1 << UInt64(signal - 1)) != 0
            }
            batch.send(signal)
            let result = try await batch.result(timeout: .seconds(60))
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 128 + signal)
            // It stopped before its plan was made: the line that reports the plan never came.
            #expect(!result.standardError.contains("to render"), "\(result.standardError)")
            #expect(result.errorLines.last == "pipctl batch: " + (signal == SIGTERM ? "terminated (SIGTERM)" : "interrupted (SIGINT)"))
            #expect(dir.entries() == ["m.jsonl"])
        }

        // MARK: Errors and what reaches the terminal

        @Test func aFailedJobsSummaryAndJUnitCarryItsCauseNotTheUsageHint() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path
            let manifest = try dir.write(Self.line("gone", content: content, breaks: ["pre=missing.mp4"], output: "gone.mp4") + "\n", to: "m.jsonl")
            let result = try await PipctlProcess.run(["batch", manifest, "--junit", dir.path("junit.xml")])
            #expect(result.exitStatus == 1)
            let job = try #require(try Summary(dir.path("m.summary.json")).jobs.first)
            #expect(job.status == "failed" && job.exitCode == 2)
            let error = try #require(job.error)
            #expect(error.hasPrefix("pipctl render: --break: ") && error.contains("missing.mp4 does not exist"), "\(error)")
            let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: dir.path("junit.xml")))
            #expect(try junit.nodes(forXPath: "//testcase/failure/@message").compactMap(\.stringValue) == [error])
        }

        @Test func escAndBelInAnIdOrAPathNeverReachTheTerminalRaw() async throws {
            let dir = try ScratchDirectory()
            let ad = try await TestClip.adB.path
            let manifest = try dir.write([
                #"{"id": "evil\u001b]0;pwned\u0007", "content": "c.mp4", "breaks": ["pre=a.mp4"], "output": "x.mp4"}"#,
                #"{"id": "path", "content": "no\u001b[31m.mp4", "breaks": ["pre=\#(ad)"], "output": "red\u001b[2J\u0007.mp4"}"#,
            ].joined(separator: "\n") + "\n", to: "m.jsonl")
            for arguments in [["batch", manifest], ["batch", manifest, "--dry-run"]] {
                let result = try await PipctlProcess.run(arguments)
                #expect(result.exitStatus == 1 || arguments.contains("--dry-run"))
                let bytes = result.standardOutputData + result.standardErrorData
                #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(arguments): \(result.standardOutput)\(result.standardError)")
                #expect(result.standardOutput.contains(#"red\x1B[2J\x07.mp4"#), "\(result.standardOutput)")
                if !arguments.contains("--dry-run") {
                    #expect(result.errorLines.last?.hasPrefix(#"pipctl batch: 2 of 2 jobs failed; first: evil\x1B]0;pwned\x07: line 1: id: contains a control character"#) == true,
                            "\(result.standardError)")
                    #expect(result.standardError.contains(#"[path] pipctl render: content: no\x1B[31m.mp4: no such file"#), "\(result.standardError)")
                }
            }
        }

        @Test func invalidUTF8IsNamedByLineAndJSONPath() async throws {
            let dir = try ScratchDirectory()
            var bytes = Data(#"{"id": "a", "content": "c.mp4", "breaks": ["pre=a"#.utf8)
            bytes += Data([0xFF, 0xFE])
            bytes += Data(#".mp4"], "output": "a.mp4"}"#.utf8) + Data("\n".utf8)
            try bytes.write(to: URL(fileURLWithPath: dir.path("m.jsonl")))
            let result = try await PipctlProcess.run(["batch", dir.path("m.jsonl"), "--dry-run"])
            #expect(result.standardOutput == "invalid     line 1  line 1: breaks[0]: not valid UTF-8 (byte 0xFF at byte 50 of the line)\n")
        }

        // MARK: Session files

        @Test func aSessionFileJobRendersBesideAJobWhoseContentIsMissing() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, ad = try await TestClip.adB.path
            try #"{"device": "ipad-11", "scenes": [{"id": "main", "state": "foregroundActive", "player": {"content": "\#(content)"}}]}"#
                .write(toFile: dir.path("s.session.json"), atomically: true, encoding: .utf8)
            try #"{"device": "ipad-11", "scenes": [{"id": "main", "player": {"content": 3}}]}"#
                .write(toFile: dir.path("bad.session.json"), atomically: true, encoding: .utf8)
            let manifest = try dir.write([
                #"{"id": "session", "session": "s.session.json", "output": "out/session.mp4"}"#,
                Self.line("missing", content: "no-such-content.mp4", breaks: ["pre=\(ad)"], output: "out/missing.mp4"),
                #"{"id": "no-session", "session": "none.session.json", "output": "out/none.mp4"}"#,
                #"{"id": "bad-session", "session": "bad.session.json", "output": "out/bad.mp4"}"#,
            ].joined(separator: "\n") + "\n", to: "m.jsonl")

            // A dry run tells what would render from what would be refused and what would fail for a missing input.
            let dry = try await PipctlProcess.run(["batch", manifest, "--dry-run"])
            #expect(dry.exitStatus == 0)
            let lines = dry.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 4)
            #expect(lines[0].hasPrefix(#"to render   "session"  out/session.mp4"#), "\(lines)")
            #expect(lines[1] == #"would fail  "missing"  out/missing.mp4  (\#(dir.path("no-such-content.mp4")) does not exist)"#, "\(lines)")
            #expect(lines[2] == #"would fail  "no-session"  out/none.mp4  (\#(dir.path("none.session.json")) does not exist)"#, "\(lines)")
            // A session file that is there but wrong is a bad line, named by its JSON path.
            #expect(lines[3].hasPrefix(#"invalid     "bad-session"  line 4: session: \#(dir.path("bad.session.json")): scenes[0].player.content"#), "\(lines)")
            #expect(dir.entries() == ["bad.session.json", "m.jsonl", "s.session.json"])

            let result = try await PipctlProcess.run(["batch", manifest])
            #expect(result.exitStatus == 1)
            let summary = try Summary(dir.path("m.summary.json"))
            #expect(summary.jobs.map(\.status) == ["rendered", "failed", "failed", "invalid"])
            #expect(summary.jobs[1].error == "pipctl render: content: no-such-content.mp4: no such file")
            #expect(FileManager.default.fileExists(atPath: dir.path("out/session.mp4")))
            // The session file is an input of the job's record: the next run finds it up to date.
            let rerun = try await PipctlProcess.run(["batch", manifest, "--dry-run"])
            #expect(rerun.standardOutput.hasPrefix(#"up to date  "session"  out/session.mp4"#), "\(rerun.standardOutput)")
        }
    }
}
