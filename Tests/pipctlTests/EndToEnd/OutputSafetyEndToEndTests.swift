import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// No file of the user's is ever clobbered: an output that is an input or another output is refused, devices
    /// and symlinks are written through, a late failure keeps the previous files, every terminating signal cleans up.
    @Suite struct OutputSafetyTests {
        /// A command line whose outputs collide, and the words pipctl must say about it.
        struct Collision: CustomTestStringConvertible, Sendable {
            var name: String
            /// Builds the arguments in the scratch directory (`c.mp4` is a copy of the content clip there).
            var arguments: @Sendable (ScratchDirectory) throws -> [String]
            var message: @Sendable (ScratchDirectory) -> String
            var testDescription: String { name }
        }

        static let collisions: [Collision] = [
            Collision(name: "-o is the content", arguments: { ["render", "--content", $0.path("c.mp4"), "-o", $0.path("c.mp4")] },
                      message: { "pipctl render: -o \($0.path("c.mp4")) is the same file as --content \($0.path("c.mp4"))" }),
            Collision(name: "--events is the content",
                      arguments: { ["render", "--content", $0.path("c.mp4"), "-o", $0.path("o.mp4"), "--events", $0.path("c.mp4")] },
                      message: { "pipctl render: --events \($0.path("c.mp4")) is the same file as --content \($0.path("c.mp4"))" }),
            Collision(name: "--timeline is -o",
                      arguments: { ["render", "--content", $0.path("c.mp4"), "-o", $0.path("o.mp4"), "--timeline", $0.path("o.mp4")] },
                      message: { "pipctl render: --timeline \($0.path("o.mp4")) is the same file as -o \($0.path("o.mp4"))" }),
            Collision(name: "--framehash is -o",
                      arguments: { ["render", "--content", $0.path("c.mp4"), "-o", $0.path("o.mp4"), "--framehash", $0.path("o.mp4")] },
                      message: { "pipctl render: --framehash \($0.path("o.mp4")) is the same file as -o \($0.path("o.mp4"))" }),
            Collision(name: "--events is the default timeline",
                      arguments: { ["render", "--content", $0.path("c.mp4"), "-o", $0.path("o.mp4"), "--events", $0.path("o.mp4.timeline.json")] },
                      message: { "pipctl render: --events \($0.path("o.mp4.timeline.json")) is the same file as the timeline \($0.path("o.mp4.timeline.json"))" }),
            Collision(name: "--events is a dangling symlink to -o", arguments: { dir in
                try FileManager.default.createSymbolicLink(atPath: dir.path("link"), withDestinationPath: "o.mp4")
                return ["render", "--content", dir.path("c.mp4"), "-o", dir.path("o.mp4"), "--events", dir.path("link")]
            }, message: { "pipctl render: --events \($0.path("link")) is the same file as -o \($0.path("o.mp4"))" }),
            Collision(name: "-o is a hard link of the content", arguments: { dir in
                try FileManager.default.linkItem(atPath: dir.path("c.mp4"), toPath: dir.path("hard.mp4"))
                return ["render", "--content", dir.path("c.mp4"), "-o", dir.path("hard.mp4")]
            }, message: { "pipctl render: -o \($0.path("hard.mp4")) is the same file as --content \($0.path("c.mp4"))" }),
            Collision(name: "--events is the script", arguments: { dir in
                try dir.write("10 pip on\n", to: "s.txt")
                return ["render", "--content", dir.path("c.mp4"), "-o", dir.path("o.mp4"), "--script", "@" + dir.path("s.txt"),
                        "--events", dir.path("s.txt")]
            }, message: { "pipctl render: --events \($0.path("s.txt")) is the same file as --script \($0.path("s.txt"))" }),
            Collision(name: "--framehash is the url map", arguments: { dir in
                try dir.write("http://ads.example/ \(dir.path(""))\n", to: "m.txt")
                return ["render", "--content", dir.path("c.mp4"), "-o", dir.path("o.mp4"), "--url-map", dir.path("m.txt"),
                        "--framehash", dir.path("m.txt")]
            }, message: { "pipctl render: --framehash \($0.path("m.txt")) is the same file as --url-map \($0.path("m.txt"))" }),
            Collision(name: "-o is a --break ad",
                      arguments: { ["render", "--content", $0.path("c.mp4"), "--break", "pre=" + $0.path("c.mp4"), "-o", $0.path("c.mp4")] },
                      message: { "pipctl render: -o \($0.path("c.mp4")) is the same file as --content \($0.path("c.mp4"))" }),
            Collision(name: "--timeline is the pip background", arguments: { dir in
                try FileManager.default.copyItem(atPath: dir.path("c.mp4"), toPath: dir.path("bg.mp4"))
                return ["render", "--content", dir.path("c.mp4"), "--pip-background", dir.path("bg.mp4"), "-o", dir.path("o.mp4"),
                        "--timeline", dir.path("bg.mp4")]
            }, message: { "pipctl render: --timeline \($0.path("bg.mp4")) is the same file as --pip-background \($0.path("bg.mp4"))" }),
            Collision(name: "transcode in place", arguments: { ["transcode", $0.path("c.mp4"), "-o", $0.path("c.mp4")] },
                      message: { "pipctl transcode: -o \($0.path("c.mp4")) is the same file as IN \($0.path("c.mp4"))" }),
            Collision(name: "play --record is the content",
                      arguments: { ["play", "--content", $0.path("c.mp4"), "--record", $0.path("c.mp4")] },
                      message: { "pipctl play: --record \($0.path("c.mp4")) is the same file as --content \($0.path("c.mp4"))" }),
            Collision(name: "play --command-log is --events",
                      arguments: { ["play", "--content", $0.path("c.mp4"), "--events", $0.path("e"), "--command-log", $0.path("e")] },
                      message: { "pipctl play: --command-log \($0.path("e")) is the same file as --events \($0.path("e"))" }),
            // Every file a render reads is an input, the files local documents name included (issue 36).
            Collision(name: "-o is a local VAST's media", arguments: { dir in
                try Self.vast(dir)
                return ["render", "--content", dir.path("c.mp4"), "--ads", dir.path("v.xml"), "-o", dir.path("ad1.mp4")]
            }, message: { "pipctl render: -o \($0.path("ad1.mp4")) is the same file as the media of ad 'a1' \($0.path("ad1.mp4"))" }),
            Collision(name: "--events is a local VAST's media", arguments: { dir in
                try Self.vast(dir)
                return ["render", "--content", dir.path("c.mp4"), "--ads", dir.path("v.xml"), "-o", dir.path("o.mp4"),
                        "--events", dir.path("ad1.mp4")]
            }, message: { "pipctl render: --events \($0.path("ad1.mp4")) is the same file as the media of ad 'a1' \($0.path("ad1.mp4"))" }),
            Collision(name: "--timeline is the document a local wrapper names", arguments: { dir in
                try Self.vast(dir)
                try dir.write("""
                    <VAST version="4.2"><Ad id="w1"><Wrapper><AdSystem>t</AdSystem><VASTAdTagURI>v.xml</VASTAdTagURI></Wrapper></Ad></VAST>
                    """, to: "w.xml")
                return ["render", "--content", dir.path("c.mp4"), "--ads", dir.path("w.xml"), "-o", dir.path("o.mp4"),
                        "--timeline", dir.path("v.xml")]
            }, message: { "pipctl render: --timeline \($0.path("v.xml")) is the same file as the VAST document of ad 'a1' \($0.path("v.xml"))" }),
            Collision(name: "-o is --font", arguments: { dir in
                try FileManager.default.copyItem(atPath: dir.path("c.mp4"), toPath: dir.path("f.ttf"))
                return ["render", "--content", dir.path("c.mp4"), "--font", dir.path("f.ttf"), "-o", dir.path("f.ttf")]
            }, message: { "pipctl render: -o \($0.path("f.ttf")) is the same file as --font \($0.path("f.ttf"))" }),
            Collision(name: "-o is a session's interstitial", arguments: { dir in
                try dir.write("x", to: "i.png")
                return ["render", "--session", try Self.session(dir, scene: #""interstitial": {"source": "i.png"}"#), "-o", dir.path("i.png")]
            }, message: { "pipctl render: -o \($0.path("i.png")) is the same file as --session (the interstitial in scene \"main\") \($0.path("i.png"))" }),
            Collision(name: "--timeline is a session's banner", arguments: { dir in
                try dir.write("x", to: "b.png")
                return ["render", "--session", try Self.session(dir, scene: #""banner": {"source": "b.png"}"#), "-o", dir.path("o.mp4"),
                        "--timeline", dir.path("b.png")]
            }, message: { "pipctl render: --timeline \($0.path("b.png")) is the same file as --session (the banner in scene \"main\") \($0.path("b.png"))" }),
            Collision(name: "--timeline is the document a banner's local VAST wrapper names", arguments: { dir in
                try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=320x50", "-frames:v", "1", dir.path("b.png")])
                try dir.write("""
                    <VAST version="4.2"><Ad id="n1"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle>
                      <Creatives><Creative><NonLinearAds><NonLinear width="320" height="50">
                        <StaticResource creativeType="image/png">b.png</StaticResource>
                      </NonLinear></NonLinearAds></Creative></Creatives>
                    </InLine></Ad></VAST>
                    """, to: "v.xml")
                try Self.wrapper(dir)
                return ["render", "--session", try Self.session(dir, scene: #""banner": {"source": "vast:w.xml"}"#), "-o", dir.path("o.mp4"),
                        "--timeline", dir.path("v.xml")]
            }, message: { "pipctl render: --timeline \($0.path("v.xml")) is the same file as a VAST document of a screen ad \($0.path("v.xml"))" }),
            Collision(name: "--events is the document a full-screen ad's local VAST wrapper names", arguments: { dir in
                try Self.vast(dir)
                try Self.wrapper(dir)
                return ["render", "--session", try Self.session(dir, scene: #""interstitial": {"source": "vast:w.xml"}"#,
                                                               script: #", "script": ["present interstitial main@0.5"]"#), "-o", dir.path("o.mp4"),
                        "--events", dir.path("v.xml")]
            }, message: { "pipctl render: --events \($0.path("v.xml")) is the same file as a VAST document of a screen ad \($0.path("v.xml"))" }),
            Collision(name: "--events is a session's native source", arguments: { dir in
                try dir.write("{}", to: "n.json")
                return ["render", "--session", try Self.session(dir, scene: #""native": [{"id": "s", "source": "n.json"}]"#),
                        "-o", dir.path("o.mp4"), "--events", dir.path("n.json")]
            }, message: { "pipctl render: --events \($0.path("n.json")) is the same file as --session (native \"s\" in scene \"main\") \($0.path("n.json"))" }),
            Collision(name: "--framehash is a native card's image", arguments: { dir in
                try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=120x63", "-frames:v", "1", dir.path("card.png")])
                try dir.write(#"{"ver": "1.2", "ads": [{"adid": "a", "assets": [{"id": 1, "required": 1, "title": {"text": "Card"}}, "#
                    + #"{"id": 2, "required": 1, "img": {"type": 3, "url": "card.png", "w": 1200, "h": 628}}], "link": {"url": "https://shop.example/"}}]}"#,
                    to: "n.json")
                let session = try Self.session(dir, scene: #""native": [{"id": "s", "source": "n.json", "template": {"slots": ["title", "media"]}}]"#,
                                               script: #", "script": ["load slider@0"]"#)
                return ["render", "--session", session, "-o", dir.path("o.mp4"), "--framehash", dir.path("card.png")]
            }, message: { "pipctl render: --framehash \($0.path("card.png")) is the same file as a native card's image \($0.path("card.png"))" }),
            Collision(name: "play --record is a local VAST's media", arguments: { dir in
                try Self.vast(dir)
                return ["play", "--content", dir.path("c.mp4"), "--ads", dir.path("v.xml"), "--record", dir.path("ad1.mp4")]
            }, message: { "pipctl play: --record \($0.path("ad1.mp4")) is the same file as the media of ad 'a1' \($0.path("ad1.mp4"))" }),
        ]

        /// `v.xml`: a VAST pre-roll whose one MediaFile is `ad1.mp4` beside it (a copy of the content).
        static func vast(_ dir: ScratchDirectory) throws {
            try FileManager.default.copyItem(atPath: dir.path("c.mp4"), toPath: dir.path("ad1.mp4"))
            try dir.write("""
                <VAST version="4.2"><Ad id="a1"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle>
                  <Creatives><Creative><Linear><Duration>00:00:01</Duration>
                    <MediaFiles><MediaFile delivery="progressive" type="video/mp4">ad1.mp4</MediaFile></MediaFiles>
                  </Linear></Creative></Creatives>
                </InLine></Ad></VAST>
                """, to: "v.xml")
        }

        /// `w.xml`: a VAST wrapper whose next document is `v.xml` beside it.
        static func wrapper(_ dir: ScratchDirectory) throws {
            try dir.write("""
                <VAST version="4.2"><Ad id="w1"><Wrapper><AdSystem>t</AdSystem><VASTAdTagURI>v.xml</VASTAdTagURI></Wrapper></Ad></VAST>
                """, to: "w.xml")
        }

        /// `s.json`: a session on an iPhone whose one scene, `main`, plays `c.mp4` and has `scene`'s placements.
        static func session(_ dir: ScratchDirectory, scene: String, script: String = "") throws -> String {
            try dir.write(#"{"device": "iphone-15", "scenes": [{"id": "main", "player": {"content": "c.mp4"}, "# + scene + "}]" + script + "}",
                          to: "s.json")
        }

        /// Exit 2, one line naming both paths, and nothing written: the directory and the content are as they were.
        @Test(arguments: collisions)
        func anOutputThatIsAnInputOrAnotherOutputIsRefused(_ collision: Collision) async throws {
            let dir = try ScratchDirectory()
            try FileManager.default.copyItem(atPath: try await TestClip.content.path, toPath: dir.path("c.mp4"))
            let original = try Data(contentsOf: URL(fileURLWithPath: dir.path("c.mp4")))
            let arguments = try collision.arguments(dir)
            let before = dir.entries()
            let result = try await PipctlProcess.run(arguments)
            #expect(result.exitStatus == 2)
            #expect(result.errorLines.first == collision.message(dir) + "; nothing was written")
            #expect(result.errorLines.count == 2)
            #expect(dir.entries() == before)
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("c.mp4"))) == original)
        }

        /// `/dev/null` and `/dev/stdout` (a pipe here) are written through: the timeline arrives on standard
        /// output, and `/dev/null` is still the device (the test runs as root, so a rename over it would succeed).
        @Test func devicesAndPipesAreWrittenThroughNeverReplaced() async throws {
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "-o", "/dev/null",
                                                      "--events", "/dev/null", "--timeline", "/dev/stdout",
                                                      "--framehash", "/dev/null", "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("{"))
            #expect(result.standardOutput.contains("\"path\" : \"/dev/null\""))
            var info = stat()
            #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        }

        /// The MP4 lands at the symlink's target, in the target's directory; the link stays a link.
        @Test func aSymlinkOutputIsWrittenToItsTarget() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.subdirectory("real")
            try dir.write("old", to: "real/target.mp4")
            try FileManager.default.createSymbolicLink(atPath: dir.path("link.mp4"), withDestinationPath: "real/target.mp4")
            let result = try await PipctlProcess.run(["testsrc", "-o", dir.path("link.mp4"), "--duration", "1", "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.path("link.mp4")) == "real/target.mp4")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("real/target.mp4")))
            #expect(bytes.count > 1000 && bytes[4..<8] == Data("ftyp".utf8))
            #expect(dir.entries() == ["link.mp4", "real", "real/target.mp4"])
        }

        @Test func aDirectoryDestinationIsRefused() async throws {
            let dir = try ScratchDirectory()
            let events = try dir.subdirectory("events")
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "-o", dir.path("o.mp4"),
                                                      "--events", events])
            #expect(result.exitStatus == 2)
            #expect(result.errorLines.first == "pipctl render: --events \(events): it is a directory; nothing was written")
            #expect(dir.entries() == ["events"])
        }

        /// The render fails at its very end (the event log's directory was moved away while it ran): the MP4 that
        /// was at the destination before is still there, byte for byte, and no sidecar appears.
        @Test func aRenderThatFailsAtTheEndKeepsThePreviousOutput() async throws {
            let dir = try ScratchDirectory()
            try dir.write("the previous render", to: "out.mp4")
            let sub = try dir.subdirectory("sub")
            let job = try PipctlProcess(["render", "--content", try await TestClip.long.path, "-o", dir.path("out.mp4"),
                                         "--events", sub + "/ev.jsonl", "--preset", "medium"])
            try await waitUntil("pipctl render has started writing out.mp4") {
                dir.entries().contains { $0.hasPrefix(".out.mp4.pipctl-") && $0.hasSuffix(".tmp") }
            }
            // Stopped while the directory moves, so the swap surely happens before the render ends.
            job.send(SIGSTOP)
            try FileManager.default.moveItem(atPath: sub, toPath: dir.path("gone"))
            job.send(SIGCONT)
            let result = try await job.result()
            #expect(result.exitStatus == 1)
            #expect(result.errorLines.count == 1 && result.errorLines[0].contains(sub + "/ev.jsonl"))
            #expect(try dir.text("out.mp4") == "the previous render")
            #expect(dir.entries().filter { !$0.hasPrefix("gone") } == ["out.mp4"])
        }

        /// Every terminating signal a process can catch stops the render with 128 + N and leaves nothing; SIGQUIT
        /// prints no crash backtrace.
        @Test(arguments: [(SIGHUP, "hung up (SIGHUP)"), (SIGINT, "interrupted (SIGINT)"), (SIGQUIT, "quit (SIGQUIT)"),
                          (SIGTERM, "terminated (SIGTERM)"), (SIGPIPE, "broken pipe (SIGPIPE)"), (SIGUSR1, "stopped by SIGUSR1"),
                          (SIGUSR2, "stopped by SIGUSR2"), (SIGALRM, "alarm clock (SIGALRM)"),
                          (SIGXCPU, "CPU time limit exceeded (SIGXCPU)"), (SIGXFSZ, "file size limit exceeded (SIGXFSZ)")])
        func everyTerminatingSignalStopsTheRenderAndLeavesNothing(signal: Int32, words: String) async throws {
            let dir = try ScratchDirectory()
            let out = try dir.subdirectory("out") + "/out.mp4"
            let job = try PipctlProcess(["render", "--content", try await TestClip.long.path, "-o", out, "--preset", "medium",
                                         "--framehash", out + ".md5"])
            try await waitUntil("pipctl render has started writing out.mp4") {
                dir.entries(in: "out").contains { $0.hasPrefix(".out.mp4.pipctl-\(job.processIdentifier)-") && $0.hasSuffix(".tmp") }
            }
            job.send(signal)
            let result = try await job.result()
            #expect(!result.endedBySignal, "pipctl caught the signal and exited by itself")
            #expect(result.exitStatus == 128 + signal)
            #expect(result.errorLines == ["pipctl render: \(words)"])
            #expect(dir.entries(in: "out") == [])
        }

        /// `play` printing its events into a pipe whose reader has gone: the first write raises SIGPIPE, later ones
        /// fail with EPIPE instead of killing the process, so it stops by itself with 141 and leaves no recording.
        @Test func playWhoseReaderGoesAwayStopsWith141AndLeavesNothing() async throws {
            let dir = try ScratchDirectory()
            let pipctl = try PipctlProcess.executable().path
            let arguments = ["play", "--content", try await TestClip.long.path, "--break", "3=" + (try await TestClip.adA.path),
                             "--break", "8=" + (try await TestClip.adA.path), "--record", dir.path("r.mp4"), "--speed", "4"]
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            // head reads the first bytes and exits; bash reports how pipctl ended.
            shell.arguments = ["-c", "\"$0\" \"$@\" 2>/dev/null | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}", pipctl] + arguments
            let output = Pipe()
            shell.standardOutput = output
            try shell.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            #expect(String(decoding: printed, as: UTF8.self) == "141\n")
            #expect(dir.entries() == [])
        }

        /// A run removes the temporary files that a killed run left in its destination's directory, and never
        /// those of a process that is still running.
        @Test func aLaterRunRemovesTheTemporaryFilesOfADeadRun() async throws {
            let dir = try ScratchDirectory()
            let killed = try PipctlProcess(["testsrc", "-o", dir.path("out.mp4"), "--duration", "60", "--preset", "medium"])
            try await waitUntil("the first run has started writing out.mp4") {
                dir.entries().contains { $0.hasPrefix(".out.mp4.pipctl-") && $0.hasSuffix(".tmp") }
            }
            killed.send(SIGKILL)
            _ = try await killed.result()
            let stale = dir.entries()
            #expect(stale.count == 1 && stale[0].hasPrefix(".out.mp4.pipctl-\(killed.processIdentifier)-"))
            let live = ".out.mp4.pipctl-\(getpid())-0.tmp"
            try dir.write("a live run's file", to: live)
            let result = try await PipctlProcess.run(["testsrc", "-o", dir.path("out.mp4"), "--duration", "1", "--preset", "ultrafast"])
            #expect(result.exitStatus == 0)
            #expect(dir.entries() == [live, "out.mp4"])
        }
    }
}
