import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// A VAST interstitial whose MediaFile is an ffmpeg-made video (red for 0.5 s, then blue, with a 1 kHz tone),
    /// presented over the player's scene of a two-scene iPad session: its window shows the video from its first
    /// frame, the content is paused under it and the sound is the ad's; its tracking goes to the log and, with
    /// `--send-beacons`, to the ad server.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct FullScreenVideoTests {
        typealias Device = DeviceRenderTests
        typealias Session = SessionFileTests

        /// Makes the content (3 s, no sound) and the ad's video `ad.mp4` in `dir` with the ffmpeg tool.
        static func makeMedia(in dir: ScratchDirectory) throws {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=3", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xcc2222:s=320x180:r=30:d=0.5",
                                   "-f", "lavfi", "-i", "color=c=0x2233cc:s=320x180:r=30:d=0.5",
                                   "-f", "lavfi", "-i", "sine=f=1000:d=1:r=48000",
                                   "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v]", "-map", "[v]", "-map", "2:a",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                   dir.path("ad.mp4")])
        }

        /// Writes a VAST naming `media` and a session presenting it over "left" at 0.5 s and dismissing it at 2 s (or
        /// playing `script`), with the media of `makeMedia(in:)` unless already made, and renders it losslessly.
        static func render(in dir: ScratchDirectory, media: String, kind: String = "interstitial",
                           tracking: String = "http://127.0.0.1:9", extra: [String] = [],
                           script: [String] = ["present interstitial left@0.5", "dismiss left@2"]) async throws -> Device.Render {
            if !FileManager.default.fileExists(atPath: dir.path("ad.mp4")) { try makeMedia(in: dir) }
            let events = ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                "<Tracking event=\"\($0)\"><![CDATA[\(tracking)/\($0)]]></Tracking>"
            }.joined()
            _ = try dir.write("""
                <VAST version="4.2"><Ad><InLine><AdSystem>e2e</AdSystem><AdTitle>video interstitial</AdTitle>
                <Impression><![CDATA[\(tracking)/impression]]></Impression>
                <Creatives><Creative><Linear><Duration>00:00:01</Duration><TrackingEvents>\(events)</TrackingEvents>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(media)]]></MediaFile></MediaFiles>
                </Linear></Creative></Creatives></InLine></Ad></VAST>
                """, to: "vast.xml")
            _ = try dir.write("""
                {"device": "ipad-11", "orientation": "landscape",
                 "scenes": [{"id": "left", "player": {"content": "content.mp4"}, "interstitial": {"source": "vast:vast.xml", "kind": "\(kind)"}},
                            {"id": "right"}],
                 "script": [\(script.map { "\"\($0)\"" }.joined(separator: ", "))]}
                """, to: "session.json")
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", output,
                                                      "--profile", "lossless", "--media-cache", dir.path("cache")] + extra)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return try Device.Render(reading: output, in: dir)
        }

        /// The full-screen ad's and the content's events, as `type` or `BEACON:event`, with their times.
        static func fullScreenLines(_ render: Device.Render) -> [String] {
            let ours: Set<String> = ["adWillPresentFullScreenContent", "ad:didFailToPresentFullScreenContentWithError",
                                     "adDidRecordImpression", "CONTENT_PAUSE_REQUESTED", "STARTED", "FIRST_QUARTILE", "MIDPOINT",
                                     "THIRD_QUARTILE", "COMPLETE", "userDidEarnReward", "adWillDismissFullScreenContent",
                                     "adDidDismissFullScreenContent", "CONTENT_RESUME_REQUESTED", "BEACON"]
            return render.events.compactMap { event in
                guard let type = event["type"] as? String, ours.contains(type), let time = event["time"] as? Double else { return nil }
                return "\(time) \(type)\((event["event"] as? String).map { ":\($0)" } ?? "")"
            }
        }

        /// The mean luma of the middle of decoded picture `picture` in `rect`, a margin of 8 px kept from its edges.
        static func meanLuma(_ picture: DecodedPicture, in rect: PixelRect) -> Double {
            let inner = picture.luma(in: PixelRect(x: rect.x + 8, y: rect.y + 8, width: rect.width - 16, height: rect.height - 16))
            return Double(inner.reduce(0) { $0 + Int($1) }) / Double(inner.count)
        }

        /// The RMS of the output's mono sound in `[from, to)` seconds, decoded by ffmpeg.
        static func loudness(_ file: String, from: Double, to: Double) throws -> Double {
            let data = try FFmpegCommand.run(["-v", "error", "-i", file, "-ss", "\(from)", "-t", "\(to - from)", "-vn",
                                              "-ac", "1", "-f", "s16le", "-acodec", "pcm_s16le", "-"])
            let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            guard !samples.isEmpty else { return 0 }
            return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        }

        @Test func aPresentedVideoInterstitialPlaysFromItsFirstFrameOverThePausedContentWithItsSoundAndTracking() async throws {
            let dir = try ScratchDirectory()
            try Self.makeMedia(in: dir)
            let server = try LoopbackHTTPServer()
            for name in ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
                server.route("/\(name)", LoopbackHTTPServer.Response(status: 204))
            }
            // The MediaFile is remote: downloaded through the media cache before the render starts.
            server.route("/ad.mp4", .file(URL(fileURLWithPath: dir.path("ad.mp4")), contentType: "video/mp4"))
            let base = server.baseURL.absoluteString
            let render = try await Self.render(in: dir, media: "\(base)/ad.mp4", tracking: base, extra: ["--send-beacons"])

            // Presented at 0.5 s = frame 15: a segment starts there with the video as the fullscreen layer's source.
            let covered = try #require(render.segments.firstIndex { ($0["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "fullscreen" } ?? false })
            #expect(render.segments[covered]["outStartFrame"] as? Int == 15)
            let layers = try #require(render.segments[covered]["layers"] as? [[String: Any]])
            let fullscreen = try #require(layers.first { $0["kind"] as? String == "fullscreen" })
            #expect((fullscreen["source"] as? String)?.hasPrefix(dir.path("cache")) == true, "the cached download")
            let window = try #require(Session.layers(render, "fullscreen", segment: covered)["left"])

            // The window shows the ad's own frames, tick 0 at frame 15: red through its frame 14, blue from its frame
            // 15, and its last frame held after its end (frame 45) until the dismiss at frame 60. Each is compared
            // with the ad's frame as ffmpeg decodes it.
            let red = try DecodedPicture(file: dir.path("ad.mp4"), size: PixelSize(width: 320, height: 180), frame: 14)
            let blue = try DecodedPicture(file: dir.path("ad.mp4"), size: PixelSize(width: 320, height: 180), frame: 29)
            let whole = PixelRect(x: 0, y: 0, width: 320, height: 180)
            for (frame, expected) in [(15, red), (29, red), (30, blue), (44, blue), (55, blue)] {
                let shown = Self.meanLuma(try render.picture(frame: frame), in: PixelRect(x: window.x, y: window.y + window.height / 3,
                                                                                           width: window.width, height: window.height / 3))
                #expect(abs(shown - Self.meanLuma(expected, in: whole)) < 2, "output frame \(frame)")
            }
            #expect(Self.meanLuma(red, in: whole) - Self.meanLuma(blue, in: whole) > 10, "the two halves differ")

            // The content is paused under it: one content tick held from frame 15 to the dismiss, then it goes on.
            let under = render.segments.filter { ($0["outStartFrame"] as? Int ?? 0) >= 15 && ($0["outEndFrame"] as? Int ?? 0) <= 60 }
            #expect(!under.isEmpty && under.allSatisfy { $0["paused"] as? Bool == true && $0["srcStartTick"] as? Int == 14 })
            let after = try #require(render.segments.first { $0["outStartFrame"] as? Int == 60 })
            #expect(after["paused"] as? Bool == false && after["srcStartTick"] as? Int == 15)

            // The sound: the content's silence, then the ad's tone while it plays, silence while its last frame
            // holds, then the content's silence again.
            #expect(try Self.loudness(render.output, from: 0.1, to: 0.45) < 10)
            #expect(try Self.loudness(render.output, from: 0.6, to: 1.4) > 1000)
            #expect(try Self.loudness(render.output, from: 1.6, to: 1.95) < 10)
            #expect(try Self.loudness(render.output, from: 2.1, to: 2.9) < 10)

            #expect(Self.fullScreenLines(render) == [
                "0.5 adWillPresentFullScreenContent", "0.5 CONTENT_PAUSE_REQUESTED", "0.5 adDidRecordImpression",
                "0.5 BEACON:impression", "0.5 STARTED", "0.5 BEACON:start", "0.75 FIRST_QUARTILE", "0.75 BEACON:firstQuartile",
                "1.0 MIDPOINT", "1.0 BEACON:midpoint", "1.25 THIRD_QUARTILE", "1.25 BEACON:thirdQuartile",
                "1.5 COMPLETE", "1.5 BEACON:complete",
                "2.0 adWillDismissFullScreenContent", "2.0 adDidDismissFullScreenContent", "2.0 CONTENT_RESUME_REQUESTED",
            ])
            // Every beacon reached the ad server (sent once each).
            let beacons = server.requests.map(\.target).filter { $0 != "/ad.mp4" }
            #expect(beacons.sorted() == ["/complete", "/firstQuartile", "/impression", "/midpoint", "/start", "/thirdQuartile"])
        }

        @Test func aVideoInterstitialWhoseMediaIsMissingFailsToPresentAndTheContentPlaysOn() async throws {
            let dir = try ScratchDirectory()
            let render = try await Self.render(in: dir, media: "missing.mp4")
            let failed = try #require(render.events.first { $0["type"] as? String == "ad:didFailToPresentFullScreenContentWithError" })
            #expect(failed["reason"] as? String == "mediaUnavailable")
            #expect(failed["time"] as? Double == 0.5 && failed["scene"] as? String == "left")
            #expect((failed["message"] as? String)?.contains("missing.mp4") == true)
            #expect(!render.events.contains { $0["type"] as? String == "adWillPresentFullScreenContent" })
            // Nothing covers the scene and the content never pauses.
            #expect(render.segments.allSatisfy { segment in
                segment["paused"] as? Bool == false
                    && !((segment["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "fullscreen" } ?? false)
            })
            Device.expectFlat(try render.picture(frame: 30), try Device.rect(render.segments.last?["picture"]).insetForTest,
                              Device.contentY, "the content, still playing")
        }

        @Test func aRewardedVideoEarnsItsRewardWhenItsVideoEnds() async throws {
            let dir = try ScratchDirectory()
            let render = try await Self.render(in: dir, media: "ad.mp4", kind: "rewarded")
            let lines = Self.fullScreenLines(render)
            let complete = try #require(lines.firstIndex(of: "1.5 COMPLETE"))
            #expect(lines[complete...].prefix(3) == ["1.5 COMPLETE", "1.5 BEACON:complete", "1.5 userDidEarnReward"])
            #expect(lines.last == "2.0 CONTENT_RESUME_REQUESTED")
        }
    }
}

private extension PixelRect {
    /// The rectangle less 4 px on every side, away from scaled edges.
    var insetForTest: PixelRect { PixelRect(x: x + 4, y: y + 4, width: width - 8, height: height - 8) }
}
