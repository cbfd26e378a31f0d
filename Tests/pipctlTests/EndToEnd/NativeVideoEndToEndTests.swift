import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render --session` with a slider whose cards carry a video asset (`video.vasttag`): the video, made by
    /// the `ffmpeg` command line (2 s, 320x180, one colour per second), plays inside its card's media frame on its
    /// own clock; a video that cannot play leaves the grey placeholder and a `LOG`, and the render succeeds.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct NativeVideoTests {
        typealias Device = DeviceRenderTests
        /// The video's colour in its first and in its second second.
        static let first = 0xCC3333, second = 0x3050E0
        static let placeholder = 0xB0B0B0

        /// Writes 4 s of flat content, `video.mp4` and a session with the slider `source` and `script`.
        static func media(_ dir: ScratchDirectory, source: String, script: [String]) throws -> String {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=4", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x\(String(first, radix: 16)):s=320x180:r=30:d=1",
                                   "-f", "lavfi", "-i", "color=c=0x\(String(second, radix: 16)):s=320x180:r=30:d=1",
                                   "-filter_complex", "[0][1]concat=n=2:v=1:a=0", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-pix_fmt", "yuv420p", dir.path("video.mp4")])
            let lines = script.map { "\"\($0)\"" }.joined(separator: ", ")
            return try dir.write("""
            {"device": "iphone-15",
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "s", "source": "\(source)", "template": {"slots": ["title", "media"]}}]}],
             "script": [\(lines)]}
            """, to: "session.json")
        }

        /// A VAST InLine ad playing `media`, its impression and linear trackers under `trackers`.
        static func vast(_ media: String, trackers: String) -> String {
            let events = ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                "<Tracking event=\"\($0)\"><![CDATA[\(trackers)/\($0)]]></Tracking>"
            }.joined()
            return """
                <VAST version="4.2"><Ad><InLine><AdSystem>e2e</AdSystem><AdTitle>card video</AdTitle>
                <Impression><![CDATA[\(trackers)/impression]]></Impression>
                <Creatives><Creative><Linear><Duration>00:00:02</Duration><TrackingEvents>\(events)</TrackingEvents>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(media)]]></MediaFile></MediaFiles>
                </Linear></Creative></Creatives></InLine></Ad></VAST>
                """
        }

        /// A slider of two cards whose media are the videos of `tags` (each a VAST URL or inline XML).
        static func slider(_ tags: [String]) throws -> String {
            let cards = try tags.enumerated().map { i, tag in
                let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [tag]), as: UTF8.self).dropFirst().dropLast()
                return """
                    {"adid": "ad\(i)", "assets": [{"id": 1, "required": 1, "title": {"text": "Card \(i)"}},
                                                 {"id": 2, "video": {"vasttag": \(escaped)}}],
                     "link": {"url": "https://shop.example/\(i)"}}
                    """
            }
            return #"{"ver": "1.2", "ads": ["# + cards.joined(separator: ",") + "]}"
        }

        /// The type, frame, card and beacon of slider `s`'s events, one line each.
        static func lines(_ render: Device.Render) -> [String] {
            render.events.filter { $0["placement"] as? String == "s" && ["BEACON", "LOG"].contains($0["type"] as? String) }.map { e in
                ["type", "frame", "card", "adId", "event", "reason"].compactMap { k in e[k].map { "\(k)=\($0)" } }.joined(separator: " ")
            }
        }

        /// Card `index`'s media frame at output frame `frame` (12 pt in, 40 pt down, 296 x 166 pt at 3/2 px per
        /// point: 444 x 249 px), 4 px inside its edges.
        static func mediaFrame(_ render: Device.Render, card index: Int, frame: Int) throws -> PixelRect {
            let segment = try #require(render.segments.first { ($0["outStartFrame"] as? Int ?? 0) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0) })
            let layers = try #require(segment["layers"] as? [[String: Any]])
            let card = try Device.rect(try #require(layers.first { $0["kind"] as? String == "card" && $0["index"] as? Int == index })["rect"])
            return PixelRect(x: card.x + 18 + 4, y: card.y + 60 + 4, width: 444 - 8, height: 249 - 8)
        }

        @Test func aCardVideoPlaysInItsMediaFrameFromItsFirstVisibleFrameAndFiresItsTrackers() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let trackers = server.baseURL.absoluteString
            _ = try dir.write(Self.vast("video.mp4", trackers: trackers), to: "vast.xml")
            _ = try dir.write("not a video", to: "broken.mp4")
            // Card 0 names a VAST file; card 1 holds its VAST inline, naming a file that is not media.
            _ = try dir.write(try Self.slider(["vast.xml", Self.vast("broken.mp4", trackers: trackers + "/broken")]), to: "slider.json")
            let session = try Self.media(dir, source: "slider.json", script: ["load slider@0.2", "swipe left@2.5"])
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--profile", "lossless",
                                                      "--send-beacons"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let render = try Device.Render(reading: output, in: dir)
            // Loaded at frame 6 (0.2 s), card 0's media frame in full view: its video starts there (impression and
            // start), its quartiles and completion at 0.5 s steps of its 2 s (15 frames each). Card 1's media frame
            // shows 41 of its 296 pt until the swipe at frame 75 moves the row 279 pt over 9 frames; half of it
            // shows at frame 79, when its video would start.
            #expect(Self.lines(render) == [
                "type=BEACON frame=6 card=0 adId=ad0 event=impression",
                "type=BEACON frame=6 card=0 adId=ad0 event=start",
                "type=BEACON frame=21 card=0 adId=ad0 event=firstQuartile",
                "type=BEACON frame=36 card=0 adId=ad0 event=midpoint",
                "type=BEACON frame=51 card=0 adId=ad0 event=thirdQuartile",
                "type=BEACON frame=66 card=0 adId=ad0 event=complete",
                "type=LOG frame=79 card=1 adId=ad1 reason=mediaUnavailable",
            ])
            let failure = try #require(render.events.first { $0["type"] as? String == "LOG" && $0["placement"] as? String == "s" })
            #expect((failure["message"] as? String)?.contains("broken.mp4") == true, "\(failure)")
            #expect(server.requests.map(\.target).sorted() == ["/complete", "/firstQuartile", "/impression", "/midpoint", "/start",
                                                              "/thirdQuartile"])

            // From the pixels: the first colour at ticks 4 and 29 (frames 10 and 35), the second from tick 30 (frame
            // 36, so the clock started at frame 6) and at tick 44 (frame 50), held past the video's end at tick 64
            // (frame 70); card 1's frame grey after the swipe.
            for (frame, colour) in [(10, Self.first), (35, Self.first), (36, Self.second), (50, Self.second), (70, Self.second)] {
                let picture = try RGBPicture(file: output, size: render.size, frame: frame)
                let media = try Self.mediaFrame(render, card: 0, frame: frame)
                #expect(picture.shows(colour, in: media, tolerance: 6), "frame \(frame): \(picture.mean(in: media))")
            }
            let after = try RGBPicture(file: output, size: render.size, frame: 100)
            let media = try Self.mediaFrame(render, card: 1, frame: 100)
            #expect(after.shows(Self.placeholder, in: media, tolerance: 4), "\(after.mean(in: media))")
        }

        @Test func twoCardsWithTheSameVideoEachPlayItOnTheirOwnClock() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.write(Self.vast("video.mp4", trackers: "https://t.example"), to: "vast.xml")
            _ = try dir.write(try Self.slider(["vast.xml", "vast.xml"]), to: "slider.json")
            let session = try Self.media(dir, source: "slider.json", script: ["load slider@0.2", "swipe left@1"])
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--profile", "lossless"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let render = try Device.Render(reading: output, in: dir)
            // Card 0 starts at frame 6, card 1 once the swipe at frame 30 shows half its media frame (frame 34). At
            // frame 60 card 0 is at tick 54 (the second colour), in the 41 pt (61 px) of it left on screen, and card
            // 1, in full view, at tick 26 (the first).
            #expect(Self.lines(render) == ["type=BEACON frame=6 card=0 adId=ad0 event=impression",
                                           "type=BEACON frame=6 card=0 adId=ad0 event=start",
                                           "type=BEACON frame=21 card=0 adId=ad0 event=firstQuartile",
                                           "type=BEACON frame=34 card=1 adId=ad1 event=impression",
                                           "type=BEACON frame=34 card=1 adId=ad1 event=start",
                                           "type=BEACON frame=36 card=0 adId=ad0 event=midpoint",
                                           "type=BEACON frame=49 card=1 adId=ad1 event=firstQuartile",
                                           "type=BEACON frame=51 card=0 adId=ad0 event=thirdQuartile",
                                           "type=BEACON frame=64 card=1 adId=ad1 event=midpoint",
                                           "type=BEACON frame=66 card=0 adId=ad0 event=complete",
                                           "type=BEACON frame=79 card=1 adId=ad1 event=thirdQuartile",
                                           "type=BEACON frame=94 card=1 adId=ad1 event=complete"])
            let picture = try RGBPicture(file: output, size: render.size, frame: 60)
            let second = try Self.mediaFrame(render, card: 1, frame: 60)
            let first = PixelRect(x: 4, y: second.y, width: 36, height: second.height)
            #expect(picture.shows(Self.second, in: first, tolerance: 6), "\(picture.mean(in: first))")
            #expect(picture.shows(Self.first, in: second, tolerance: 6), "\(picture.mean(in: second))")
        }

        @Test func aRemoteSliderPlaysItsRemoteVideoAndRefusesAVASTNamingALocalFileWithAWarning() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let session = try Self.media(dir, source: server.baseURL.absoluteString + "/slider.json", script: ["load slider@0"])
            let base = server.baseURL.absoluteString
            server.route("/slider.json", LoopbackHTTPServer.Response(contentType: "application/json",
                                                                     body: Data(try Self.slider(["vast.xml", "local.xml"]).utf8)))
            server.route("/vast.xml", LoopbackHTTPServer.Response(body: Data(Self.vast("video.mp4", trackers: base).utf8)))
            server.route("/local.xml", LoopbackHTTPServer.Response(body: Data(Self.vast("file://" + dir.path("video.mp4"), trackers: base).utf8)))
            server.route("/video.mp4", LoopbackHTTPServer.Response(contentType: "video/mp4",
                                                                   body: try Data(contentsOf: URL(fileURLWithPath: dir.path("video.mp4")))))
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--profile", "lossless",
                                                      "--media-cache", dir.path("cache")])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardError.contains("warning: \(base)/local.xml: "), "\(result.standardError)")
            #expect(server.requests(for: "/video.mp4").count == 1)
            let render = try Device.Render(reading: output, in: dir)
            let picture = try RGBPicture(file: output, size: render.size, frame: 45)
            let media = try Self.mediaFrame(render, card: 0, frame: 45)
            #expect(picture.shows(Self.second, in: media, tolerance: 6), "\(picture.mean(in: media))")
        }
    }
}
