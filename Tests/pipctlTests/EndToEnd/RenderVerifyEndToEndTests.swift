import AdDecisioning
import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render` of small sessions and `pipctl verify` of what it wrote: the files, the frames the pixels
    /// show, the checks against edited and golden timelines, and the ways a render fails.
    @Suite struct RenderVerifyTests {
        /// A pre-roll (ad A), a mid-roll pod at 0:02 (ads A and B) and a post-roll (ad B) around the content.
        static func sessionArguments(midrollAt time: String = "2") async throws -> [String] {
            let content = try await TestClip.content.path, a = try await TestClip.adA.path, b = try await TestClip.adB.path
            return ["--content", content, "--break", "pre=\(a)", "--break", "\(time)=\(a),\(b)", "--break", "post=\(b)",
                    "--preset", "ultrafast"]
        }

        /// The directory holding `out.mp4`, rendered once from `sessionArguments()` and shared by the tests that only
        /// read it.
        static var reference: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "reference-render") { directory in
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    let result = try await PipctlProcess.run(["render", "-o", directory + "/out.mp4"] + (try await sessionArguments()))
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "render: \(result.standardError)") }
                }
            }
        }

        /// Output frames of a 30 fps render that an ad clip fills, and the last of its frames they show.
        static func adSpan(_ clip: TestClip) -> (frames: Int64, last: Int64) {
            let frames = FrameRate(30).frameCount(in: MediaDuration(seconds: clip.seconds))
            return (frames, sourceFrame(showingOutputFrame: frames - 1, sourceRate: clip.frameRate, outputRate: FrameRate(30),
                                        sourceFrames: clip.frames))
        }

        @Test func aRenderWritesTheOutputItsTimelineAndItsEventLogAndNothingElse() async throws {
            let dir = try ScratchDirectory()
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "-o", output] + (try await Self.sessionArguments()))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardError.isEmpty)
            #expect(result.standardOutput == """
                \(output): 360 frames (0:12) 320x180 at 30 fps, 6 segments
                  ads: 4 played, 0 skipped, 0 failed; 0 decisioning errors
                  timeline: \(output).timeline.json
                  events:   \(output).events.jsonl

                """)
            #expect(dir.entries() == ["out.mp4", "out.mp4.events.jsonl", "out.mp4.timeline.json"])

            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            #expect(segments.map { $0["kind"] as? String } == ["ad", "content", "ad", "ad", "content", "ad"])
            #expect(segments.map { $0["break"] as? Int } == [0, nil, 1, 1, nil, 2])
            #expect(segments.map { $0["outStartFrame"] as? Int } == [0, 60, 120, 180, 210, 330])
            #expect(segments.map { $0["outEndFrame"] as? Int } == [60, 120, 180, 210, 330, 360])

            let events = try dir.text("out.mp4.events.jsonl").split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            let types = events.compactMap { $0["type"] as? String }
            #expect(types.filter { $0 == "AD_BREAK_STARTED" }.count == 3)
            #expect(types.filter { $0 == "COMPLETE" }.count == 4)
            #expect(types.contains("ALL_ADS_COMPLETED"))
            #expect(!types.contains("AD_ERROR"))
        }

        @Test func thePixelsOfARenderShowTheSourceFramesItsTimelinePromises() async throws {
            let output = try await Self.reference + "/out.mp4"
            let a = Self.adSpan(.adA), b = Self.adSpan(.adB)
            let result = try await PipctlProcess.run(["stamps", output])
            #expect(result.exitStatus == 0)
            #expect(result.standardOutput == """
                output 0–\(a.frames - 1): ada 0–\(a.last)
                output 60–119: content 0–59
                output 120–\(119 + a.frames): ada 0–\(a.last)
                output 180–\(179 + b.frames): adb 0–\(b.last)
                output 210–329: content 60–179
                output 330–\(329 + b.frames): adb 0–\(b.last)

                """)
        }

        @Test func verifyPassesARenderAgainstItsOwnTimeline() async throws {
            let output = try await Self.reference + "/out.mp4"
            let result = try await PipctlProcess.run(["verify", output])
            #expect(result.exitStatus == 0)
            #expect(result.standardError.isEmpty)
            #expect(result.standardOutput.hasPrefix("verify \(output): OK — 360 frames in 6 runs, 5 audio boundaries within "))
        }

        /// A render made with a relative content path is verifiable from any other directory: the timeline names
        /// the content by its absolute path, as it names the ads (it kept "media/content.mp4", relative to the
        /// directory the render ran in, and verify from anywhere else could not find it).
        @Test func aRenderOfARelativeContentPathVerifiesFromAnotherDirectory() async throws {
            let scratch = try ScratchDirectory()
            _ = try scratch.subdirectory("media")
            try FileManager.default.copyItem(atPath: try await TestClip.content.path, toPath: scratch.path("media/content.mp4"))
            _ = try scratch.subdirectory("elsewhere")
            let rendered = try await PipctlProcess.run(["render", "--content", "media/content.mp4", "--break", "1=\(try await TestClip.adA.path)",
                                                        "-o", "out.mp4", "--preset", "ultrafast"], directory: scratch.url)
            try #require(rendered.exitStatus == 0, "\(rendered.standardError)")
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("out.mp4.timeline.json")))) as? [String: Any])
            let content = URL(fileURLWithPath: scratch.path("media/content.mp4")).standardizedFileURL.path
            #expect((timeline["content"] as? [String: Any])?["path"] as? String == content)
            let sources = Set((timeline["segments"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String })
            #expect(sources.allSatisfy { $0.hasPrefix("/") } && sources.contains(content), "\(sources)")
            let verify = try await PipctlProcess.run(["verify", scratch.path("out.mp4")], directory: URL(fileURLWithPath: scratch.path("elsewhere")))
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
        }

        @Test func verifyJSONSaysPassed() async throws {
            let output = try await Self.reference + "/out.mp4"
            let result = try await PipctlProcess.run(["verify", output, "--json"])
            #expect(result.exitStatus == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            #expect(report["passed"] as? Bool == true)
            #expect(report["frames"] as? Int == 360)
            #expect((report["problems"] as? [Any])?.isEmpty == true)
            #expect((report["audioBoundaries"] as? [[String: Any]])?.map { $0["ok"] as? Bool } == Array(repeating: true, count: 5))
        }

        /// A timeline that puts the mid-roll 12 frames later than the render did.
        @Test func verifyFailsATimelineWithABreakMovedByTwelveFrames() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.reference + "/out.mp4"
            var timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            var segments = try #require(timeline["segments"] as? [[String: Any]])
            func shift(_ index: Int, _ key: String) throws {
                segments[index][key] = try #require(segments[index][key] as? Int) + 12
            }
            // The content before the break gains 12 frames, the break's two ads move, the content after loses 12.
            try shift(1, "outEndFrame")
            try shift(1, "srcEndTick")
            for index in [2, 3] {
                try shift(index, "outStartFrame")
                try shift(index, "outEndFrame")
            }
            try shift(4, "outStartFrame")
            try shift(4, "srcStartTick")
            timeline["segments"] = segments
            let edited = dir.path("edited.json")
            try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: edited))

            let result = try await PipctlProcess.run(["verify", output, "--timeline", edited])
            #expect(result.exitStatus == 1)
            let sentence = "break 1 started at output frame 120, the timeline says 132"
            #expect(result.standardOutput.hasPrefix("verify \(output): FAILED — "))
            #expect(result.standardOutput.contains("\n  \(sentence)\n"))
            #expect(result.errorLines.count == 1)
            let summary = try #require(result.errorLines.first)
            #expect(summary.hasPrefix("pipctl verify: \(output): ") && summary.hasSuffix(" problems; first: \(sentence)"), "\(summary)")
        }

        @Test func verifyPassesAGoldenCopyOfTheSameRendersTimeline() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.reference + "/out.mp4"
            try FileManager.default.copyItem(atPath: output + ".timeline.json", toPath: dir.path("golden.json"))
            let result = try await PipctlProcess.run(["verify", output, "--expect", dir.path("golden.json")])
            #expect(result.exitStatus == 0, "\(result.standardOutput)")
            #expect(result.standardOutput.hasPrefix("verify \(output): OK"))
        }

        @Test func verifyFailsAGoldenTimelineOfADifferentRender() async throws {
            let dir = try ScratchDirectory()
            let golden = dir.path("golden.mp4")
            let other = try await PipctlProcess.run(["render", "-o", golden] + (try await Self.sessionArguments(midrollAt: "3")))
            #expect(other.exitStatus == 0)
            let output = try await Self.reference + "/out.mp4"
            let result = try await PipctlProcess.run(["verify", output, "--expect", golden + ".timeline.json"])
            #expect(result.exitStatus == 1)
            let sentence = "break 1 started at output frame 120, expected 150"
            #expect(result.standardOutput.contains("\n  \(sentence)\n"), "\(result.standardOutput)")
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.hasSuffix("; first: \(sentence)") == true)
        }

        // MARK: - Failures

        @Test func missingContentFailsNamingItAndWritesNothing() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["render", "--content", dir.path("missing.mp4"), "--break",
                                                      "pre=\(try await TestClip.adA.path)", "-o", dir.path("out.mp4")])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == ["pipctl render: content: \(dir.path("missing.mp4")): no such file"])
            #expect(dir.entries() == [])
        }

        @Test func anOutputInAMissingDirectoryFailsAndWritesNothing() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["render", "-o", dir.path("nope/out.mp4")] + (try await Self.sessionArguments()))
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == [
                "pipctl render: \(dir.path("nope/out.mp4")): cannot write the output: the directory \(dir.path("nope")) does not exist",
            ])
            #expect(dir.entries() == [])
        }

        /// An ad whose media file is missing fails (VAST 401, its error URL fired) and the render goes on.
        @Test func aMissingAdFileIsAnAdErrorWith401AndTheRenderSucceeds() async throws {
            let dir = try ScratchDirectory()
            try dir.write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <VAST version="4.2">
                  <Ad id="gone">
                    <InLine>
                      <AdSystem>e2e</AdSystem>
                      <AdTitle>Missing media</AdTitle>
                      <Impression><![CDATA[https://track.example/impression]]></Impression>
                      <Error><![CDATA[https://track.example/error?code=[ERRORCODE]]]></Error>
                      <Creatives><Creative><Linear>
                        <Duration>00:00:02.000</Duration>
                        <MediaFiles>
                          <MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[https://cdn.example/gone.mp4]]></MediaFile>
                        </MediaFiles>
                      </Linear></Creative></Creatives>
                    </InLine>
                  </Ad>
                </VAST>
                """, to: "vast.xml")
            try dir.write("https://cdn.example/\t./\n", to: "map.txt")
            let result = try await PipctlProcess.run([
                "render", "--content", try await TestClip.content.path, "--ads", dir.path("vast.xml"), "--url-map",
                dir.path("map.txt"), "-o", dir.path("out.mp4"), "--preset", "ultrafast",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\n  ads: 0 played, 0 skipped, 1 failed; "))
            let events = try dir.text("out.mp4.events.jsonl").split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let adError = try #require(events.first { $0["type"] as? String == "AD_ERROR" })
            #expect(adError["code"] as? Int == 401)
            #expect((adError["message"] as? String)?.contains("gone.mp4") == true)
            #expect(events.contains { $0["type"] as? String == "BEACON" && $0["url"] as? String == "https://track.example/error?code=401" })
            #expect(dir.entries() == ["map.txt", "out.mp4", "out.mp4.events.jsonl", "out.mp4.timeline.json", "vast.xml"])
        }

        /// With `--send-beacons` the render really sends its beacons and says what became of them; a beacon that
        /// cannot be delivered (nobody listens on 127.0.0.1:9) is reported, and does not fail the render.
        @Test func sendBeaconsReportsWhatWasSent() async throws {
            let dir = try ScratchDirectory()
            try dir.write("""
                <VAST version="4.2"><Ad id="gone"><InLine><AdSystem>e2e</AdSystem><AdTitle>t</AdTitle>
                  <Impression><![CDATA[http://127.0.0.1:9/impression]]></Impression>
                  <Error><![CDATA[http://127.0.0.1:9/error?code=[ERRORCODE]]]></Error>
                  <Creatives><Creative><Linear><Duration>00:00:02</Duration><MediaFiles>
                    <MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[https://cdn.example/gone.mp4]]></MediaFile>
                  </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
                """, to: "vast.xml")
            try dir.write("https://cdn.example/\t./\n", to: "map.txt")
            let result = try await PipctlProcess.run([
                "render", "--content", try await TestClip.content.path, "--ads", dir.path("vast.xml"), "--url-map",
                dir.path("map.txt"), "-o", dir.path("out.mp4"), "--preset", "ultrafast", "--send-beacons",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            // Nothing listens, so no connection opens: each try is retried (twice) and listed, never a request that
            // may have reached a server.
            #expect(result.errorLines.first == "pipctl render: beacons: 0 sent, 1 failed, 0 dropped, 2 retried")
            #expect(result.errorLines.dropFirst().first == "pipctl render: warning: beacon retried (could not connect) "
                + "http://127.0.0.1:9/error?code=401: connection refused; attempt 2")
            #expect(result.errorLines.last == "pipctl render: warning: beacon http://127.0.0.1:9/error?code=401: "
                + "connection refused (after 3 attempts)")
        }

        /// A file typed in `--break` is checked before anything is rendered: a missing one is a usage error.
        @Test func aMissingFileInABreakIsAUsageErrorThatWritesNothing() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run([
                "render", "--content", try await TestClip.content.path, "--break", "2=\(dir.path("gone.mp4"))",
                "-o", dir.path("out.mp4"),
            ])
            #expect(result.exitStatus == 2)
            #expect(result.errorLines == [
                "pipctl render: --break: invalid --break value '2=\(dir.path("gone.mp4"))': media file \(dir.path("gone.mp4")) does not exist",
                "See 'pipctl render --help'.",
            ])
            #expect(dir.entries() == [])
        }

        /// A disk that fills up while the output is written: exit 1, one line, and nothing left on the disk.
        @Test(.enabled("mounting a 1 MiB tmpfs needs root and CAP_SYS_ADMIN") { TinyDisk.canMount() },
              arguments: ["render", "transcode"])
        func aFullDiskFailsInOneLineAndLeavesNothing(command: String) async throws {
            let dir = try ScratchDirectory()
            let disk = try TinyDisk(at: try dir.subdirectory("disk"))
            defer { disk.unmount() }
            let output = disk.path + "/out.mkv"
            let arguments = command == "render"
                ? ["render", "-o", output] + (try await Self.sessionArguments()) + ["--profile", "lossless"]
                : ["transcode", try await TestClip.content.path, "-o", output, "--profile", "lossless"]
            let result = try await PipctlProcess.run(arguments)
            #expect(result.exitStatus == 1)
            #expect(result.errorLines.count == 1)
            let line = try #require(result.errorLines.first)
            #expect(line.hasPrefix("pipctl \(command): \(output): ") && line.hasSuffix("No space left on device"), "\(line)")
            #expect(dir.entries(in: "disk") == [])
        }

        @Test func renderHelpExplainsTheDemoAndEveryOption() async throws {
            let result = try await PipctlProcess.run(["render", "--help"])
            #expect(result.exitStatus == 0)
            let flat = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.contains("With no --content, --ads or --break it renders the bundled demo"))
            #expect(flat.contains("'pipctl render' alone shows what the tool does"))
            let options = [
                "--content", "--ads", "--break", "-o, --output", "--timeline", "--events", "--framehash", "--size", "--fps",
                "--sample-rate", "--channels", "--profile", "--crf", "--preset", "--threads", "--window", "--url-map",
                "--script", "--pip-ad-policy", "--pip-size", "--pip-corner", "--pip-margin", "--pip-transition", "--pip-background",
                "--no-background-playback", "--seek-policy", "--play-ads-after", "--no-preroll", "--no-midroll",
                "--no-postroll", "--send-beacons", "-h, --help",
            ]
            for option in options { #expect(result.standardOutput.contains(option), "render --help lacks \(option)") }
        }
    }
}

/// A 1 MiB tmpfs mounted for one test, to fill up.
struct TinyDisk {
    let path: String

    /// Mounts a 1 MiB tmpfs at `path` (an empty directory).
    init(at path: String) throws {
        try TinyDisk.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", path])
        self.path = path
    }

    func unmount() { try? TinyDisk.run("/bin/umount", [path]) }

    /// Whether this process may mount one (root with the right capability, outside a restricted container).
    static func canMount() -> Bool {
        guard let dir = try? ScratchDirectory("pipctl-mount-check"), let disk = try? TinyDisk(at: dir.path("")) else { return false }
        disk.unmount()
        return true
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SharedArtifacts.Failure(description: "\(tool) failed") }
    }
}
