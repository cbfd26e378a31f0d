import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `render --passthrough`: the content's own packets copied between the cuts, judged by ffmpeg (a silent
    /// `-xerror` decode, framemd5 against the source), by `verify --sources` and by a real browser's `<video>`.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct PassthroughTests {
        /// 20 s of 640x360 H.264 content with a 2 s GOP and B-frames, and a 3 s moving ad.
        static func media(_ dir: ScratchDirectory) throws {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=20", "-f", "lavfi", "-i", "sine=d=20",
                                   "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0",
                                   "-bf", "3", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=3,hue=h=90", "-f", "lavfi", "-i",
                                   "sine=f=880:d=3", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", dir.path("ad.mp4")])
        }

        /// A 3 s ad coded exactly as the content is (same x264 settings, size and rate, so the same SPS and PPS),
        /// which passthrough copies too.
        static func twinAd(_ dir: ScratchDirectory) throws {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=3,hue=h=180", "-f", "lavfi", "-i", "sine=f=660:d=3",
                                   "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0",
                                   "-bf", "3", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", dir.path("twin.mp4")])
        }

        /// A break mid-GOP at 5.5 s (frame 165 of the GOP 120–179) and one on an IDR at 12 s.
        static let breaks = ["--break", "5.5=ad.mp4", "--break", "12=ad.mp4"]

        @Test func onlyThePartialGOPsAndTheAdsAreEncodedAndTheRestIsTheSourcesOwnPictures() async throws {
            let dir = try ScratchDirectory()
            try Self.media(dir)
            let result = try await PipctlProcess.run(["render", "--content", "content.mp4"] + Self.breaks + ["-o", "out.mp4", "--passthrough", "on"],
                                                     directory: dir.url)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\n  passthrough: 540 of 780 frames copied in 3 runs, the rest encoded\n"))
            // The ad was coded by other settings than the content: it is encoded, and the summary says why.
            for b in 0..<2 {
                #expect(result.standardOutput.contains("\n  passthrough: ad 0 of break \(b) encoded: its parameter sets (SPS/PPS) are not the content's\n"),
                        "\(result.standardOutput)")
            }

            // The timeline's runs: content 0–119 copied; 120–164 (the cut GOP's start), the ad, content 165–179
            // (the rest of that GOP) encoded; 180–359 copied; the second ad encoded; 360–599 copied.
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out.mp4.timeline.json")))) as? [String: Any])
            #expect(try Self.videoRuns(dir.path("out.mp4.timeline.json"))
                == ["copied 0-120", "encoded 120-270", "copied 270-450", "encoded 450-540", "copied 540-780"])

            // ffmpeg decodes it all with -xerror and says nothing; the copied frames are the source's, bit for bit.
            let messages = try Self.strictDecode(dir.path("out.mp4"))
            #expect(messages.isEmpty, "\(messages)")
            let ours = try Self.pictures(dir.path("out.mp4"))
            let source = try Self.pictures(dir.path("content.mp4"))
            #expect(ours.count == 780)
            #expect(ours[0..<120] == source[0..<120])
            #expect(ours[270..<450] == source[180..<360])
            #expect(ours[540..<780] == source[360..<600])

            // verify matches every frame to its source by fingerprint, copied or encoded.
            let verify = try await PipctlProcess.run(["verify", "out.mp4", "--sources"], directory: dir.url, timeout: .seconds(300))
            #expect(verify.exitStatus == 0 && verify.standardOutput.hasPrefix("verify out.mp4 --sources: OK — 780 frames in 5 segments"),
                    "\(verify.standardOutput)")

            // The same render encoded throughout has the same segments: passthrough changes how, not what.
            let plain = try await PipctlProcess.run(["render", "--content", "content.mp4"] + Self.breaks + ["-o", "plain.mp4"], directory: dir.url)
            try #require(plain.exitStatus == 0)
            let plainTimeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("plain.mp4.timeline.json")))) as? [String: Any])
            #expect(plainTimeline["videoRuns"] == nil)
            // Only the sound of a resumed content run may be read up to half an AAC packet away, so that the
            // content's packets are copied too.
            func withoutSoundPlacement(_ timeline: [String: Any]) throws -> [NSDictionary] {
                try #require(timeline["segments"] as? [[String: Any]]).map { segment in
                    NSDictionary(dictionary: segment.filter { $0.key != "sourceAudioStart" && $0.key != "audioDrift" })
                }
            }
            #expect(try withoutSoundPlacement(plainTimeline) == withoutSoundPlacement(timeline))
            let shifts = zip(try #require(plainTimeline["segments"] as? [[String: Any]]), try #require(timeline["segments"] as? [[String: Any]]))
                .map { (($1["sourceAudioStart"] as? Int) ?? 0) - (($0["sourceAudioStart"] as? Int) ?? 0) }
            #expect(shifts.allSatisfy { abs($0) <= 512 } && shifts.contains { $0 != 0 }, "\(shifts)")
            #expect(result.standardOutput.contains(" AAC packets copied, the rest encoded\n"), "\(result.standardOutput)")
        }

        /// Ads coded with the content's own parameter sets are copied like the content: only the content's partial
        /// GOPs around the first cut are encoded, and every picture of both ads is the ad file's own.
        @Test func adsCodedLikeTheContentAreCopiedToo() async throws {
            let dir = try ScratchDirectory()
            try Self.media(dir)
            try Self.twinAd(dir)
            let result = try await PipctlProcess.run(["render", "--content", "content.mp4", "--break", "5.5=twin.mp4", "--break", "12=twin.mp4",
                                                      "-o", "out.mp4", "--passthrough", "on"], directory: dir.url)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\n  passthrough: 720 of 780 frames copied in 3 runs, the rest encoded\n"), "\(result.standardOutput)")
            #expect(!result.standardOutput.contains(" encoded: "), "\(result.standardOutput)")

            // Content 0–119 copied; 120–164 encoded (the cut GOP's start); the ad (90 frames, IDRs at 0 and 60)
            // copied; content 165–179 encoded; then content, the second ad and content copied to the end.
            #expect(try Self.videoRuns(dir.path("out.mp4.timeline.json"))
                == ["copied 0-120", "encoded 120-165", "copied 165-255", "encoded 255-270", "copied 270-780"])
            #expect(try Self.strictDecode(dir.path("out.mp4")).isEmpty)
            let ours = try Self.pictures(dir.path("out.mp4"))
            let content = try Self.pictures(dir.path("content.mp4"))
            let ad = try Self.pictures(dir.path("twin.mp4"))
            #expect(ours.count == 780 && ad.count == 90)
            #expect(ours[165..<255] == ad[0..<90])
            #expect(ours[450..<540] == ad[0..<90])
            #expect(ours[0..<120] == content[0..<120])
            #expect(ours[540..<780] == content[360..<600])

            let verify = try await PipctlProcess.run(["verify", "out.mp4", "--sources"], directory: dir.url, timeout: .seconds(300))
            #expect(verify.exitStatus == 0 && verify.standardOutput.hasPrefix("verify out.mp4 --sources: OK — 780 frames in 5 segments"),
                    "\(verify.standardOutput)")
        }

        /// Content with open GOPs (x264 `open-gop`: an IDR only at the start, recovery-point I-pictures every 2 s
        /// whose leading B-pictures refer back across them) is never cut at those I-pictures: the output still
        /// decodes cleanly and frame-exactly, and the summary says why so little was copied.
        @Test func openGOPContentIsCopiedOnlyFromIDRToIDRAndSaysSo() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=20", "-f", "lavfi", "-i", "sine=d=20",
                                   "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0",
                                   "-bf", "3", "-x264-params", "open-gop=1", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", dir.path("open.mp4")])
            try Self.twinAd(dir)
            let result = try await PipctlProcess.run(["render", "--content", "open.mp4", "--break", "5.5=twin.mp4", "-o", "out.mp4", "--passthrough", "on"],
                                                     directory: dir.url)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\n  passthrough: open.mp4: 9 of its keyframes are not IDRs (open GOPs), so its pictures are copied only from one IDR to the next\n"),
                    "\(result.standardOutput)")
            let messages = try Self.strictDecode(dir.path("out.mp4"))
            #expect(messages.isEmpty, "\(messages)")
            let verify = try await PipctlProcess.run(["verify", "out.mp4", "--sources"], directory: dir.url, timeout: .seconds(300))
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
        }

        /// `--hls` with `--passthrough`: the content's and the twin ad's own pictures in the segments, every break
        /// on a segment boundary (an IDR: copied from one, or forced in an encoded run), and the HLS render verified
        /// against its sources through its playlist.
        @Test(arguments: ["fmp4", "mpegts"])
        func anHLSRenderCopiesTooAndVerifiesAgainstItsSources(type: String) async throws {
            let dir = try ScratchDirectory()
            try Self.media(dir)
            try Self.twinAd(dir)
            let result = try await PipctlProcess.run(["render", "--content", "content.mp4", "--break", "5.5=twin.mp4", "--break", "12=ad.mp4",
                                                      "--hls", "hls", "--hls-segment-type", type, "--passthrough", "on"], directory: dir.url)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\n  passthrough: 630 of 780 frames copied in 4 runs, the rest encoded\n"), "\(result.standardOutput)")

            let playlist = dir.path("hls/media.m3u8")
            let messages = try Self.strictDecode(playlist)
            #expect(messages.isEmpty, "\(messages)")
            let ours = try Self.pictures(playlist)
            let content = try Self.pictures(dir.path("content.mp4"))
            let twin = try Self.pictures(dir.path("twin.mp4"))
            #expect(ours.count == 780)
            #expect(ours[0..<120] == content[0..<120])
            #expect(ours[165..<255] == twin[0..<90])
            #expect(ours[540..<780] == content[360..<600])

            let verify = try await PipctlProcess.run(["verify", "hls", "--sources"], directory: dir.url, timeout: .seconds(300))
            #expect(verify.exitStatus == 0 && verify.standardOutput.contains("OK — 780 frames in 5 segments"), "\(verify.standardOutput)")
            #expect(verify.standardOutput.contains("note: HLS: "), "\(verify.standardOutput)")
        }

        /// Content and ads made by `pipctl testsrc` (x264's own GOPs, a stamp on every frame): the passthrough render
        /// verifies from its stamps, copied frames and encoded ones alike.
        @Test func aPassthroughRenderOfStampedContentVerifiesFromItsStamps() async throws {
            let dir = try ScratchDirectory()
            for (name, seconds) in [("content", 20), ("ad", 3)] {
                let made = try await PipctlProcess.run(["testsrc", "-o", "\(name).mp4", "--duration", "\(seconds)"], directory: dir.url)
                try #require(made.exitStatus == 0, "\(made.standardError)")
            }
            let result = try await PipctlProcess.run(["render", "--content", "content.mp4"] + Self.breaks + ["-o", "out.mp4", "--passthrough", "on"],
                                                     directory: dir.url)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out.mp4.timeline.json")))) as? [String: Any])
            let runs = try #require(timeline["videoRuns"] as? [[String: Any]])
            #expect(runs.contains { $0["mode"] as? String == "copied" }, "\(runs)")
            let verify = try await PipctlProcess.run(["verify", "out.mp4"], directory: dir.url, timeout: .seconds(300))
            #expect(verify.exitStatus == 0 && verify.standardOutput.hasPrefix("verify out.mp4: OK — 780 frames"), "\(verify.standardOutput)")
        }

        /// `on` that cannot copy fails naming why and writes nothing; `auto` encodes every frame and says why.
        @Test func passthroughThatCannotCopyIsAnErrorWithOnAndANoteWithAuto() async throws {
            let dir = try ScratchDirectory()
            try Self.media(dir)
            let on = try await PipctlProcess.run(["render", "--content", "content.mp4"] + Self.breaks + ["-o", "out.mp4", "--fps", "25", "--passthrough", "on"],
                                                 directory: dir.url)
            #expect(on.exitStatus == 1)
            #expect(on.standardError.hasSuffix("--passthrough: content.mp4: its frame rate 30 is not the output's 25\n"), "\(on.standardError)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
            let auto = try await PipctlProcess.run(["render", "--content", "content.mp4"] + Self.breaks + ["-o", "out.mp4", "--fps", "25", "--passthrough", "auto"],
                                                   directory: dir.url)
            #expect(auto.exitStatus == 0)
            #expect(auto.standardOutput.contains("\n  passthrough not used: --passthrough: content.mp4: its frame rate 30 is not the output's 25\n"))
        }

        /// Headless Chromium (Debian's) plays the passthrough MP4 (content and one ad copied, the other ad
        /// encoded) in a `<video>` element from a loopback server, at 4x: it reaches the end, its clock passes every
        /// splice, and no `error` fires.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "needs Debian's chromium"))
        func aBrowserPlaysItThroughEverySplice() async throws {
            let dir = try ScratchDirectory()
            try Self.media(dir)
            try Self.twinAd(dir)
            // The first ad is copied, the second encoded: the browser crosses every kind of splice.
            let result = try await PipctlProcess.run(["render", "--content", "content.mp4", "--break", "5.5=twin.mp4", "--break", "12=ad.mp4",
                                                      "-o", "out.mp4", "--passthrough", "on"], directory: dir.url)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/out.mp4", .init(contentType: "video/mp4", body: try Data(contentsOf: URL(fileURLWithPath: dir.path("out.mp4"))), acceptsRanges: true))
            server.route("/play.html", .init(contentType: "text/html", body: Data(Self.page.utf8)))
            let browser = Process()
            browser.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
            browser.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
                                 "--user-data-dir=\(dir.path("profile"))", server.baseURL.appendingPathComponent("play.html").absoluteString]
            browser.standardOutput = FileHandle.nullDevice
            browser.standardError = FileHandle.nullDevice
            try browser.run()
            defer { browser.terminate() }
            try await waitUntil("the page has reported how it played", timeout: .seconds(300)) {
                server.requests.contains { $0.target.hasPrefix("/result?") }
            }
            let request = try #require(server.requests.first { $0.target.hasPrefix("/result?") })
            let json = try #require(String(request.target.dropFirst(8)).removingPercentEncoding)
            let played = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(played["error"] is NSNull, "\(played)")
            #expect(played["ended"] as? Bool == true)
            #expect(played["duration"] as? Double == 26)
            // The clock was seen inside every run: before the first cut, in each ad, between the breaks, after.
            let seen = try #require(played["seen"] as? [Double])
            for (from, to) in [(0.0, 5.5), (5.5, 8.5), (8.5, 12), (12, 15), (15, 26)] {
                #expect(seen.contains { $0 > from && $0 < to }, "no time seen in \(from)–\(to): \(seen)")
            }
        }

        static let page = """
        <!doctype html><html><body><video id="v" muted playsinline src="out.mp4"></video><script>
        const v = document.getElementById("v"), seen = [];
        const report = (r) => fetch("/result?" + encodeURIComponent(JSON.stringify(r)));
        v.addEventListener("timeupdate", () => seen.push(v.currentTime));
        v.addEventListener("error", () => report({error: String(v.error && v.error.code), ended: false, seen}));
        v.addEventListener("ended", () => report({error: null, ended: true, duration: v.duration, seen}));
        v.playbackRate = 4;
        v.play().catch((e) => report({error: "play: " + e, ended: false, seen}));
        </script></body></html>
        """

        /// The timeline's `videoRuns`, each as `MODE START-END` (output frames).
        static func videoRuns(_ timelinePath: String) throws -> [String] {
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: timelinePath))) as? [String: Any])
            let runs = try #require(timeline["videoRuns"] as? [[String: Any]])
            return runs.map { "\($0["mode"]!) \($0["outStartFrame"]!)-\($0["outEndFrame"]!)" }
        }

        /// What `ffmpeg -v error -xerror` says decoding `file` (nothing when it decodes cleanly).
        static func strictDecode(_ file: String) throws -> String {
            try shell("\(FFmpegCommand.path) -hide_banner -v error -xerror -i \(file) -f null - 2>&1")
        }

        /// The MD5 of each decoded picture of `file`, in order (ffmpeg's framemd5).
        static func pictures(_ file: String) throws -> [String] {
            try FFmpegCommand.frameMD5(file).filter { !$0.hasPrefix("#") }.map(md5)
        }

        static func md5(_ line: String) -> String { line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? line }

        static func shell(_ command: String) throws -> String { try standardOutput(of: "/bin/sh", ["-c", command]) }
    }
}
