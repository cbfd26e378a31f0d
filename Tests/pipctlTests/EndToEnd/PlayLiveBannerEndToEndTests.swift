import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl play --device … --banner URL`: screen commands typed while it plays request the banner again when,
    /// and only when, its width changes, in the background, from a loopback ad server that answers with a creative
    /// of the requested size (made by the ffmpeg tool) and counts the requests.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct PlayLiveBannerTests {
        typealias Device = DeviceRenderTests

        /// The rectangle of the banner layer in `segment` and the source it shows.
        static func banner(_ segment: [String: Any]) throws -> (rect: PixelRect, source: String?)? {
            guard let layer = (segment["layers"] as? [[String: Any]])?.first(where: { $0["kind"] as? String == "banner" }) else { return nil }
            return (try Device.rect(layer["rect"]), layer["source"] as? String)
        }

        @Test func liveScreenCommandsRequestTheBannerAgainOnlyForANewWidthWithoutHoldingFrames() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=20", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            // A 400x300 pt device in landscape: a 400x50 pt banner; in portrait 300x60 pt (15% of 400).
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=400x50", "-frames:v", "1", dir.path("wide.png")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x33cc33:s=300x60", "-frames:v", "1", dir.path("narrow.png")])
            let server = try LoopbackHTTPServer()
            server.route("/banner/400x50.png", .file(URL(fileURLWithPath: dir.path("wide.png")), contentType: "image/png"))
            // The portrait creative takes half a second: the frames go on meanwhile.
            var slow = LoopbackHTTPServer.Response.file(URL(fileURLWithPath: dir.path("narrow.png")), contentType: "image/png")
            slow.delay = .milliseconds(500)
            server.route("/banner/300x60.png", slow)
            let template = server.baseURL.absoluteString + "/banner/[WIDTH]x[HEIGHT].png"
            let recording = dir.path("rec.mkv")
            // --step: the content waits for the test's commands however busy the machine.
            let play = try SteppedPlay(["play", "--content", dir.path("content.mp4"), "--device", "400x300", "--banner", template,
                                        "--record", recording, "--profile", "lossless"])
            try await play.advance(untilShown: #""type":"bannerViewDidReceiveAd""#)
            try await play.advance(untilShown: #""type":"bannerViewDidRecordImpression""#)
            try play.type("rotate portrait\n")
            try await play.advance(untilShown: "300x60 pt: image 300x60 png")
            // 200 pt wide: a request the server has no creative for.
            try play.type("resize main 200x400\n")
            try await play.advance(untilShown: #""type":"bannerView:didFailToReceiveAdWithError""#)
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")

            // One request per width, none more.
            #expect(server.requests.map(\.target) == ["/banner/400x50.png", "/banner/300x60.png", "/banner/200x60.png"])
            let events = try result.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("stepped to ") }.map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            func time(_ type: String, _ message: String? = nil) throws -> Double {
                try #require(events.first { event in
                    event["type"] as? String == type && message.map { (event["message"] as? String)?.contains($0) == true } ?? true
                }?["time"] as? Double)
            }
            let rotated = try time("COMMAND", "rotate portrait"), received = try time("bannerViewDidReceiveAd", "300x60")
            #expect(received > rotated, "the answer came while frames went on, and shows from a later frame")
            let refused = try #require(events.first { $0["type"] as? String == "bannerView:didFailToReceiveAdWithError" })
            #expect(refused["scene"] as? String == "main")
            #expect((refused["url"] as? String)?.hasSuffix("/banner/200x60.png") == true)
            #expect(try time("bannerViewDidRecordImpression") <= rotated)

            // The recording: the wide creative, then the old one stretched to the new slot until the answer, then
            // the narrow one, drawn where the timeline puts the banner.
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: recording + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            let output = try #require(timeline["output"] as? [String: Any])
            let size = PixelSize(width: try #require(output["width"] as? Int), height: try #require(output["height"] as? Int))
            let sources = try segments.compactMap { try Self.banner($0)?.source }
            let firstNarrow = try #require(sources.firstIndex { $0.hasSuffix("300x60.png") })
            #expect(sources[..<firstNarrow].allSatisfy { $0.hasSuffix("400x50.png") })
            let shown = try #require(segments.first { (try? Self.banner($0)?.source?.hasSuffix("300x60.png")) == true })
            let start = try #require(shown["outStartFrame"] as? Int), slot = try #require(try Self.banner(shown)).rect
            // The event log writes times to the microsecond.
            #expect(Double(start) / 30 >= received - 1e-6)
            let picture = try DecodedPicture(file: recording, size: size, frame: start)
            let creative = try DecodedPicture(file: dir.path("narrow.png"), size: PixelSize(width: 300, height: 60), frame: 0)
            Device.expectFlat(picture, PixelRect(x: slot.x + 2, y: slot.y + 2, width: slot.width - 4, height: slot.height - 4),
                              Int(creative.y(150, 30)), "the narrow creative in the portrait slot")
        }
    }
}
