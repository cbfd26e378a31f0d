import Foundation
import Testing

extension EndToEnd {
    /// `pipctl report` of real renders, opened in headless Chromium (Debian's): the page runs without an error,
    /// draws what the timeline holds, and a screenshot of it is a picture.
    @Suite struct ReportTests {
        static let chromium = "/usr/bin/chromium"
        static var hasChromium: Bool { FileManager.default.isExecutableFile(atPath: chromium) }

        /// A pre-roll (ad B), the content going to picture in picture at 1.5 s and back at 3 s, a mid-roll (ad A) at 4 s.
        static func renderWithAdsAndPiP(_ dir: ScratchDirectory) async throws -> String {
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path,
                                                      "--break", "pre=\(try await TestClip.adB.path)", "--break", "4=\(try await TestClip.adA.path)",
                                                      "--script", "pip on@1.5; pip off@3", "-o", output, "--preset", "ultrafast"],
                                                     timeout: .seconds(300))
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return output
        }

        /// What the timeline holds, counted here from its JSON: ad segments, picture-in-picture windows (runs of
        /// touching segments with a `pip`), and scenes (distinct ids).
        static func expected(_ timelinePath: String) throws -> (ads: Int, pip: Int, scenes: Int) {
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: timelinePath))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            let ads = segments.filter { $0["kind"] as? String == "ad" }.count
            var pip = 0, previous = false
            for segment in segments {
                let on = segment["pip"] is [String: Any] || ((segment["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "pip" } ?? false)
                if on && !previous { pip += 1 }
                previous = on
            }
            let scenes = Set(segments.flatMap { ($0["scenes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }).count
            return (ads, pip, scenes)
        }

        static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

        /// Runs Chromium headless on `page` with `arguments`, waiting for it to end; its standard output and error.
        static func chromium(_ arguments: [String], page: String, in dir: ScratchDirectory) async throws -> (output: String, errors: String) {
            let out = dir.path("chromium.stdout"), err = dir.path("chromium.stderr")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = FileManager.default.createFile(atPath: err, contents: nil)
            let browser = Process()
            browser.executableURL = URL(fileURLWithPath: chromium)
            browser.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(dir.path("profile"))",
                                 "--enable-logging=stderr", "--v=0", "--allow-file-access-from-files"] + arguments
                + [URL(fileURLWithPath: page).absoluteString]
            browser.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            browser.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
            let ended = AsyncStream<Void> { continuation in
                browser.terminationHandler = { _ in continuation.yield(); continuation.finish() }
            }
            try browser.run()
            for await _ in ended { break }
            return (try String(contentsOfFile: out, encoding: .utf8), try String(contentsOfFile: err, encoding: .utf8))
        }

        /// The console's messages in Chromium's log (`INFO:CONSOLE`): an uncaught exception, or a load the page's
        /// Content-Security-Policy blocked ("violates the following Content Security Policy directive"). The page
        /// itself logs nothing, so any message is an error.
        static func consoleErrors(_ log: String) -> [String] {
            log.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") || $0.contains("Content Security Policy") }
        }

        /// Opens `report` in Chromium: the DOM after its script ran, and a screenshot checked to be a PNG.
        static func open(_ report: String, in dir: ScratchDirectory) async throws -> String {
            let dumped = try await chromium(["--dump-dom"], page: report, in: dir)
            #expect(consoleErrors(dumped.errors).isEmpty, "\(consoleErrors(dumped.errors))")
            #expect(dumped.output.contains("data-ready=\"1\""), "the page's script did not finish")
            #expect(dumped.output.contains("data-errors=\"0\""), "script errors: \(dumped.output.suffix(500))")
            let shot = dir.path("shot.png")
            let screenshot = try await chromium(["--screenshot=\(shot)", "--window-size=1200,1600", "--hide-scrollbars"], page: report, in: dir)
            #expect(consoleErrors(screenshot.errors).isEmpty)
            let png = try Data(contentsOf: URL(fileURLWithPath: shot))
            #expect(png.count > 10_000, "screenshot of \(png.count) bytes")
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            return dumped.output
        }

        @Test(.enabled(if: hasChromium, "needs Debian's chromium"))
        func aReportOfAdsAndPictureInPictureOpensInChromiumAndDrawsTheTimeline() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.renderWithAdsAndPiP(dir)
            let report = try await PipctlProcess.run(["report", output, "--verify"], timeout: .seconds(300))
            try #require(report.exitStatus == 0, "\(report.standardError)")
            let page = output + ".report.html"
            #expect(report.standardOutput.hasPrefix("\(page): report of \(output), "))
            let expected = try Self.expected(output + ".timeline.json")
            #expect(expected.ads == 2 && expected.pip == 1)
            let dom = try await Self.open(page, in: dir)
            #expect(Self.count("data-kind=\"ad\"", in: dom) == expected.ads)
            #expect(Self.count("data-pip=\"1\"", in: dom) == expected.pip)
            #expect(Self.count("data-lane=\"scene\"", in: dom) == 0)
            // Verify passed, run by run, and every run has its first and last frame.
            #expect(dom.contains("data-verdict=\"passed\""))
            let segments = Self.count("data-run-kind=", in: dom)
            #expect(Self.count("data-run-verdict=\"ok\"", in: dom) == segments)
            #expect(Self.count("data-thumb=", in: dom) == 2 * segments)
            #expect(dom.contains("data-segment-loudness="))
            let events = try String(contentsOfFile: output + ".events.jsonl", encoding: .utf8).split(separator: "\n").count
            #expect(Self.count("data-event=", in: dom) == events)
        }

        @Test(.enabled(if: hasChromium && FFmpegCommand.isAvailable, "needs Debian's chromium and ffmpeg"))
        func aReportOfASplitViewSessionDrawsEachSceneAndTheBanner() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            let session = """
                {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2",
                 "scenes": [{"id": "main", "player": {"content": "\(try await TestClip.content.path)"}, "banner": {"source": "banner.png", "layout": "below"}},
                            {"id": "side"}],
                 "script": "pip@2"}
                """
            _ = try dir.write(session, to: "session.json")
            let output = dir.path("split.mp4")
            let render = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", output, "--preset", "ultrafast"],
                                                     timeout: .seconds(300))
            try #require(render.exitStatus == 0, "\(render.standardError)")
            let report = try await PipctlProcess.run(["report", output, "-o", dir.path("r.html"), "--png", dir.path("sheet.png")],
                                                     timeout: .seconds(300))
            try #require(report.exitStatus == 0, "\(report.standardError)")
            let expected = try Self.expected(output + ".timeline.json")
            #expect(expected.scenes == 2)
            let dom = try await Self.open(dir.path("r.html"), in: dir)
            #expect(Self.count("data-lane=\"scene\"", in: dom) == expected.scenes)
            #expect(dom.contains("data-scene=\"main\"") && dom.contains("data-scene=\"side\""))
            #expect(Self.count("data-layer=\"banner\"", in: dom) == 1)
            #expect(Self.count("data-pip=\"1\"", in: dom) == expected.pip)
            // The contact sheet is the size pipctl said, 1600 wide.
            let said = try #require(report.standardOutput.split(separator: "\n").last { $0.contains("contact sheet") })
            let size = try #require(said.split(separator: " ").last)
            #expect(size.hasPrefix("1600x"))
            let probed = try standardOutput(of: "/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                     "stream=codec_name,width,height", "-of", "csv=p=0", dir.path("sheet.png")])
            #expect(probed.trimmingCharacters(in: .whitespacesAndNewlines) == "png," + size.replacingOccurrences(of: "x", with: ","))
        }

        /// An HLS render's directory: the report lands beside it as DIR.report.html, read from its playlist,
        /// `timeline.json` and `events.jsonl`, with verify's verdict from the HLS verifier.
        @Test func aReportOfAnHLSRenderLandsBesideItsDirectory() async throws {
            let dir = try ScratchDirectory()
            let render = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path,
                                                      "--break", "pre=\(try await TestClip.adB.path)", "--hls", dir.path("hls"),
                                                      "--preset", "ultrafast"], timeout: .seconds(300))
            try #require(render.exitStatus == 0, "\(render.standardError)")
            // What a report killed by SIGKILL left in $TMPDIR (a process that has ended, and been waited for), and a
            // live process's: the first is cleared, the second kept.
            let tmp = dir.path("tmp")
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
            let ended = Process()
            ended.executableURL = URL(fileURLWithPath: "/bin/true")
            try ended.run()
            ended.waitUntilExit()
            let abandoned = "pipctl-report-\(ended.processIdentifier)-0.mp4", live = "pipctl-report-\(getpid())-0.mp4"
            for name in [abandoned, live] { _ = FileManager.default.createFile(atPath: tmp + "/" + name, contents: Data([0])) }
            let report = try await PipctlProcess.run(["report", dir.path("hls"), "--verify"], environment: ["TMPDIR": tmp],
                                                     timeout: .seconds(300))
            try #require(report.exitStatus == 0, "\(report.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [live])
            let html = try String(contentsOfFile: dir.path("hls.report.html"), encoding: .utf8)
            let segments = Self.count("data-run-kind=", in: html)
            #expect(segments == 2)
            #expect(Self.count("data-kind=\"ad\"", in: html) == 1)
            #expect(Self.count("data-thumb=", in: html) == 2 * segments)
            #expect(html.contains("data-verdict=\"passed\""))
        }

        @Test func aMissingTimelineIsAUsageErrorNamingIt() async throws {
            let dir = try ScratchDirectory()
            try FileManager.default.copyItem(atPath: try await TestClip.content.path, toPath: dir.path("lonely.mp4"))
            let result = try await PipctlProcess.run(["report", dir.path("lonely.mp4")])
            #expect(result.exitStatus == 2)
            #expect(result.standardError == "pipctl report: \(dir.path("lonely.mp4.timeline.json")): no such file (the render's timeline)\n")
            #expect(!FileManager.default.fileExists(atPath: dir.path("lonely.mp4.report.html")))
        }

        @Test func aHostileTimelineOrEventLogIsRefusedWithItsPath() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.renderWithAdsAndPiP(dir)
            let original = try String(contentsOfFile: output + ".timeline.json", encoding: .utf8)
            // A segment claiming far more frames than the file has.
            var timeline = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
            var segments = try #require(timeline["segments"] as? [[String: Any]])
            segments[1]["outEndFrame"] = 1_000_000_000_000
            timeline["segments"] = segments
            try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: output + ".timeline.json"))
            let bounds = try await PipctlProcess.run(["report", output])
            #expect(bounds.exitStatus == 2)
            #expect(bounds.standardError.hasPrefix("pipctl report: \(output).timeline.json: segments[1].outEndFrame: "), "\(bounds.standardError)")
            // Not JSON at all.
            try "{\"version\": 1, \"output\": [".write(toFile: output + ".timeline.json", atomically: true, encoding: .utf8)
            let garbage = try await PipctlProcess.run(["report", output])
            #expect(garbage.exitStatus == 2)
            #expect(garbage.standardError.hasPrefix("pipctl report: \(output).timeline.json: not a pipctl timeline"), "\(garbage.standardError)")
            // A good timeline, an event log with a bad line.
            try original.write(toFile: output + ".timeline.json", atomically: true, encoding: .utf8)
            let events = try String(contentsOfFile: output + ".events.jsonl", encoding: .utf8)
            try (events + "{\"type\": \"<script>\", \"time\": 1}\n").write(toFile: output + ".events.jsonl", atomically: true, encoding: .utf8)
            let badEvent = try await PipctlProcess.run(["report", output])
            #expect(badEvent.exitStatus == 2)
            let line = events.split(separator: "\n").count + 1
            #expect(badEvent.standardError.hasPrefix("pipctl report: \(output).events.jsonl: line \(line): "), "\(badEvent.standardError)")
            // More lines than an event log may have (newlines only): refused while read, one line.
            try Data(repeating: UInt8(ascii: "\n"), count: 200_001).write(to: URL(fileURLWithPath: output + ".events.jsonl"))
            let newlines = try await PipctlProcess.run(["report", output])
            #expect(newlines.exitStatus == 2)
            #expect(newlines.errorLines == ["pipctl report: \(output).events.jsonl: more than 200000 lines, more than an event log is read"])
            #expect(!FileManager.default.fileExists(atPath: output + ".report.html"))
            // An event at 1e16 s (once a trap converting it to Int64): the report is written.
            try (events + "{\"type\":\"LOG\",\"time\":1e16,\"contentTime\":1e300,\"message\":\"far\"}\n")
                .write(toFile: output + ".events.jsonl", atomically: true, encoding: .utf8)
            let far = try await PipctlProcess.run(["report", output], timeout: .seconds(300))
            #expect(far.exitStatus == 0, "\(far.standardError)")
            #expect(!far.endedBySignal)
            #expect(try String(contentsOfFile: output + ".report.html", encoding: .utf8).contains("<td>1e+16 s</td>"))
        }

        @Test func aReportNeverReplacesTheRendersFiles() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.renderWithAdsAndPiP(dir)
            let before = try Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))
            for (flag, target) in [("-o", output), ("-o", output + ".timeline.json"), ("--png", output + ".events.jsonl")] {
                let result = try await PipctlProcess.run(["report", output, flag, target])
                #expect(result.exitStatus == 2, "\(flag) \(target)")
                #expect(result.standardError.contains("is the same file as"), "\(result.standardError)")
                #expect(result.standardError.contains("nothing was written"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json")) == before)
            let same = try await PipctlProcess.run(["report", output, "-o", dir.path("a.html"), "--png", dir.path("a.html")])
            #expect(same.exitStatus == 2)
        }
    }
}
