import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl play --session`: a full-screen ad driven by commands typed while it plays (a split that makes it too
    /// large, so it is reloaded in the background; present; tap; dismiss) gives the Google Mobile Ads events a
    /// script gives, draws its creative in its scene's window over the paused content, and its command log
    /// replayed by `render` gives the same events.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct PlayLiveFullScreenTests {
        typealias Device = DeviceRenderTests

        /// The events a live session and its replay must share: presents, clicks, dismisses, the pauses they cause
        /// and the re-check after the split, as `time type scene reason`. (A live reload's `adDidLoad` is logged
        /// when its answer arrives, a batch one's at its request: those differ by design.)
        static func fullScreenLines(_ events: [[String: Any]]) -> [String] {
            let ours: Set<String> = ["adWillPresentFullScreenContent", "ad:didFailToPresentFullScreenContentWithError",
                                     "adDidRecordImpression", "adDidRecordClick", "adWillDismissFullScreenContent",
                                     "adDidDismissFullScreenContent", "CONTENT_PAUSE_REQUESTED", "CONTENT_RESUME_REQUESTED"]
            return events.compactMap { event in
                guard let type = event["type"] as? String, let time = event["time"] as? Double else { return nil }
                let reason = event["reason"] as? String
                guard ours.contains(type) || reason == "adTooLargeForWindow" && type == "LOG" else { return nil }
                return "\(time) \(type) \(event["scene"] as? String ?? "-") \(reason ?? "-")"
            }
        }

        @Test func liveCommandsPresentTapAndDismissAReloadedInterstitialAsTheScriptWould() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=30", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            // An iPad in landscape at half a pixel per point: "left" is 592x834 pt at Split View 1/2, 375x834 at 1/3.
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xcc3333:s=592x834", "-frames:v", "1", dir.path("half.png")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3333cc:s=376x834", "-frames:v", "1", dir.path("third.png")])
            let server = try LoopbackHTTPServer()
            server.route("/fs/592x834.png", .file(URL(fileURLWithPath: dir.path("half.png")), contentType: "image/png"))
            var slow = LoopbackHTTPServer.Response.file(URL(fileURLWithPath: dir.path("third.png")), contentType: "image/png")
            slow.delay = .milliseconds(300)
            server.route("/fs/375x834.png", slow)
            let template = server.baseURL.absoluteString + "/fs/[WIDTH]x[HEIGHT].png"
            var session: [String: Any] = [
                "device": "ipad-11", "orientation": "landscape", "pointScale": 0.5,
                "scenes": [["id": "left", "player": ["content": "content.mp4"], "interstitial": ["source": template]],
                           ["id": "right"]],
            ]
            try JSONSerialization.data(withJSONObject: session).write(to: URL(fileURLWithPath: dir.path("live.json")))

            let recording = dir.path("rec.mkv")
            // --step: the content waits for the test's commands however busy the machine.
            let play = try SteppedPlay(["play", "--session", dir.path("live.json"), "--record", recording, "--profile", "lossless"])
            try await play.advance(untilShown: #""type":"adDidLoad""#)
            try play.type("split 1/3\n")
            try await play.advance(untilShown: "375x834 pt: image")
            try play.type("present interstitial left\n")
            try await play.advance(untilShown: #""type":"adDidRecordImpression""#)
            // Half a pixel per point: a tap is in points, and 100,400 pt (50,200 px) is inside "left" (0…375 pt,
            // 0…187 px, wide at 1/3).
            try play.type("tap 100,400\n")
            try await play.advance(untilShown: #""type":"adDidRecordClick""#)
            try play.type("dismiss left\n")
            try await play.advance(untilShown: #""type":"adDidDismissFullScreenContent""#)
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(server.requests.map(\.target) == ["/fs/592x834.png", "/fs/375x834.png"])

            let live = try Device.Render(reading: recording, in: dir)
            let lines = Self.fullScreenLines(live.events)
            #expect(lines.map { $0.split(separator: " ").dropFirst().joined(separator: " ") } == [
                "LOG left adTooLargeForWindow",
                "adWillPresentFullScreenContent left -", "CONTENT_PAUSE_REQUESTED left -", "adDidRecordImpression left -",
                "adDidRecordClick left -",
                "adWillDismissFullScreenContent left -", "adDidDismissFullScreenContent left -", "CONTENT_RESUME_REQUESTED left -",
            ])
            let reloaded = try #require(live.events.first { $0["type"] as? String == "adDidLoad" && $0["reason"] as? String == "adTooLargeForWindow" })
            #expect((reloaded["url"] as? String)?.hasSuffix("/fs/375x834.png") == true)

            // The recording: from the present, the third-width creative fills the window of "left", and the content
            // under it is paused.
            let covered = try #require(live.segments.firstIndex { ($0["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "fullscreen" } ?? false })
            let window = try live.layer("fullscreen", segment: covered)
            #expect(live.segments[covered]["paused"] as? Bool == true)
            let creative = try DecodedPicture(file: dir.path("third.png"), size: PixelSize(width: 376, height: 834), frame: 0)
            let picture = try live.picture(frame: try #require(live.segments[covered]["outStartFrame"] as? Int))
            Device.expectFlat(picture, PixelRect(x: window.x + 4, y: window.y + 8, width: window.width - 8, height: window.height - 16),
                              Int(creative.y(100, 400)), "the reloaded creative over the window of \"left\"")

            // Its command log, replayed as the session file's script, gives the same events at the same times.
            let log = try String(contentsOfFile: recording + ".commands.txt", encoding: .utf8)
            session["script"] = log.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "; ")
            try JSONSerialization.data(withJSONObject: session).write(to: URL(fileURLWithPath: dir.path("replay.json")))
            let output = dir.path("replay.mkv")
            let replay = try await PipctlProcess.run(["render", "--session", dir.path("replay.json"), "-o", output, "--profile", "lossless"])
            try #require(replay.exitStatus == 0, "\(replay.standardError)")
            let replayed = Self.fullScreenLines(try Device.Render(reading: output, in: dir).events)
            #expect(replayed == lines, "replayed \(replayed), live \(lines)")
        }
    }
}
