import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render --device … --banner URL|VAST`: the banner loaded for real from a loopback ad server that
    /// answers with an ffmpeg-made creative of the requested size and counts the requests, and the output decoded
    /// again by `ffmpeg` to check which creative is drawn where.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct ScreenAdsRenderTests {
        typealias Device = DeviceRenderTests
        /// Luma (BT.601 limited range) of the portrait creative 0x3366cc and the landscape one 0x33cc33.
        static let blueY = 100, greenY = 137

        /// A loopback server with a `size` PNG of `color` at `/b/WxH.png`, made by ffmpeg.
        static func serveImage(_ server: LoopbackHTTPServer, _ dir: ScratchDirectory, _ size: String, _ color: String) throws {
            let file = dir.path("\(size).png")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=\(color):s=\(size)", "-frames:v", "1", file])
            server.route("/b/\(size).png", .file(URL(fileURLWithPath: file), contentType: "image/png"))
        }

        /// Renders a flat yellow second of content made by ffmpeg losslessly on an iPhone 15 with `arguments`.
        static func render(_ dir: ScratchDirectory, _ arguments: [String]) async throws -> Device.Render {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=1", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--content", dir.path("content.mp4"), "-o", output,
                                                      "--profile", "lossless", "--device", "iphone-15"] + arguments)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return try Device.Render(reading: output, in: dir)
        }

        @Test func aRotationThatChangesTheWidthMakesOneNewRequestAndDrawsTheNewCreative() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            // Portrait: 393 pt wide, max(50, min(90, 127)) = 90 high; landscape: 852 − 2 × 59 = 734 wide, 58 high.
            try Self.serveImage(server, dir, "393x90", "0x3366cc")
            try Self.serveImage(server, dir, "734x58", "0x33cc33")
            let render = try await Self.render(dir, ["--banner", server.baseURL.absoluteString + "/b/[WIDTH]x[HEIGHT].png?scene=[SCENE]",
                                                     "--script", "rotate landscape@0.5"])
            #expect(server.requests.map(\.target) == ["/b/393x90.png?scene=main", "/b/734x58.png?scene=main"])
            Device.expectFlat(try render.picture(frame: 5), try render.layer("banner"), Self.blueY, "portrait banner")
            let landscape = try render.layer("banner", segment: 1)
            #expect(landscape == PixelRect(x: 88, y: 816, width: 1102, height: 86))
            Device.expectFlat(try render.picture(frame: 15), landscape, Self.greenY, "landscape banner from the frame the reload lands")
            let received = render.events.filter { $0["type"] as? String == "bannerViewDidReceiveAd" }
            #expect(received.map { $0["time"] as? Double } == [0, 0.5])
            #expect(received.allSatisfy { $0["scene"] as? String == "main" })
            let layers = try #require(render.segments[1]["layers"] as? [[String: Any]])
            #expect(layers.first { $0["kind"] as? String == "banner" }?["source"] as? String
                == server.baseURL.absoluteString + "/b/734x58.png?scene=main")
            // The log stays in time order with the loader's events placed among the session's.
            let times = render.events.compactMap { $0["time"] as? Double }
            #expect(times == times.sorted())
        }

        @Test func aVASTBannerLogsItsImpressionAndATapItsClickAndLandingScreen() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            try Self.serveImage(server, dir, "393x90", "0x3366cc")
            let base = server.baseURL.absoluteString
            try """
            <VAST version="4.1"><Ad id="b"><InLine><AdSystem>t</AdSystem><AdTitle>b</AdTitle>
            <Impression><![CDATA[\(base)/imp]]></Impression>
            <Creatives><Creative><NonLinearAds><NonLinear width="393" height="90">
            <StaticResource creativeType="image/png"><![CDATA[\(base)/b/393x90.png]]></StaticResource>
            <NonLinearClickThrough><![CDATA[https://example.com/landing]]></NonLinearClickThrough>
            <NonLinearClickTracking><![CDATA[\(base)/click]]></NonLinearClickTracking>
            </NonLinear></NonLinearAds></Creative></Creatives></InLine></Ad></VAST>
            """.write(toFile: dir.path("banner.xml"), atomically: true, encoding: .utf8)
            // The banner is 590x136 px at the bottom of the portrait display (1092 to 1228): 728 to 818 pt, where a tap is.
            let render = try await Self.render(dir, ["--banner", dir.path("banner.xml"), "--script", "tap 197,767@0.4; dismiss main@0.7"])
            Device.expectFlat(try render.picture(frame: 5), try render.layer("banner"), Self.blueY, "VAST banner")
            let ads = render.events.filter { ($0["type"] as? String).map { $0.hasPrefix("banner") || $0 == "BEACON" } ?? false }
            #expect(ads.map { $0["type"] as? String } == [
                "bannerViewDidReceiveAd", "bannerViewDidRecordImpression", "BEACON", "bannerViewDidRecordClick", "BEACON",
                "bannerViewWillPresentScreen", "bannerViewWillDismissScreen", "bannerViewDidDismissScreen",
            ])
            #expect(ads[2]["url"] as? String == base + "/imp" && ads[4]["url"] as? String == base + "/click")
            #expect(ads[3]["url"] as? String == "https://example.com/landing" && ads[3]["time"] as? Double == 0.4)
            // The landing screen covers the scene until the dismiss.
            let overlay = try #require(render.segments.first { segment in
                (segment["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "overlay" } ?? false
            })
            #expect(overlay["outStartFrame"] as? Int == 12)
        }

        /// A banner's landing screen covers the player's scene: verify checks the landing screen there, not the
        /// content's stamps under it (it used to fail such a render: "output frames … show no stamp").
        @Test func aRenderWithABannersLandingScreenOverThePlayerVerifies() async throws {
            let dir = try ScratchDirectory()
            let made = try await PipctlProcess.run(["testsrc", "-o", dir.path("content.mp4"), "--duration", "3", "--size", "320x180",
                                                     "--fps", "30", "--id", "landing", "--preset", "ultrafast"])
            try #require(made.exitStatus == 0, "\(made.standardError)")
            let banner = PipctlProcess.repositoryRoot.appendingPathComponent("media/banner.png").path
            // The banner is 590x136 px at the bottom of the portrait display (1092 to 1228): 728 to 818 pt, where a tap is.
            let result = try await PipctlProcess.run(["render", "--content", dir.path("content.mp4"), "--device", "iphone-15",
                                                      "--banner", banner, "--script", "tap 197,767@1; dismiss main@2",
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let events = try String(contentsOfFile: dir.path("out.mp4.events.jsonl"), encoding: .utf8)
            try #require(events.contains("bannerViewWillPresentScreen"), "the tap opened no landing screen")
            // The screen ad's events carry their output frame, as every other event does.
            let click = try #require(events.split(separator: "\n").first { $0.contains(#""type":"bannerViewDidRecordClick""#) })
            #expect(click.contains(#""time":1,"frame":30,"#), "\(click)")
            let verify = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
            #expect(verify.standardOutput.contains("OK"), "\(verify.standardOutput)")
        }

        /// A present that fails leaves nothing presented: the next present is heard (and fails too, no ad being
        /// loaded), and a dismiss of the ad never shown is refused.
        @Test func aFailedPresentLeavesTheSceneFreeForTheNextPresentAndRefusesTheDismiss() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            let render = try await Self.render(dir, ["--banner", dir.path("banner.png"),
                                                     "--script", "present interstitial main@0.2; present interstitial main@0.5; dismiss main@0.8"])
            let failed = render.events.filter { $0["type"] as? String == "ad:didFailToPresentFullScreenContentWithError" }
            #expect(failed.map { $0["frame"] as? Int } == [6, 15], "\(render.events)")
            #expect(failed.allSatisfy { $0["reason"] as? String == "adNotLoaded" })
            // Each carries the content time of its frame, as the COMMAND that caused it does, not the next frame's.
            for event in failed {
                let command = render.events.first { $0["type"] as? String == "COMMAND" && $0["frame"] as? Int == event["frame"] as? Int }
                #expect(command != nil && event["contentTime"] as? Double == command?["contentTime"] as? Double, "\(event) \(String(describing: command))")
            }
            #expect(failed.map { $0["contentTime"] as? Double } == [0.2, 0.5])
            #expect(render.events.first { $0["type"] as? String == "bannerViewDidReceiveAd" }?["contentTime"] as? Double == 0)
            let messages = render.events.compactMap { $0["message"] as? String }
            #expect(!messages.contains { $0.contains("already presents") }, "\(messages)")
            let screen = try render.screenEvents().map(\.event)
            #expect(!screen.contains(.presented(scene: "main", .interstitial)) && !screen.contains(.dismissed(scene: "main", .interstitial)),
                    "\(screen)")
            let refused = render.events.first { $0["reason"] as? String == "refused" }
            #expect(refused?["frame"] as? Int == 24 && (refused?["message"] as? String)?.contains("presents nothing") == true, "\(render.events)")
        }

        @Test func testModeNeedsADevice() async throws {
            let result = try await PipctlProcess.run(["render", "--content", "x.mp4", "--test-mode"])
            #expect(result.exitStatus == 2 && result.standardError.contains("--test-mode needs --device"))
        }
    }
}
