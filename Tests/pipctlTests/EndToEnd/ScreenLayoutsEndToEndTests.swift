import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// Issue 25's screen layouts, rendered and read back from the pixels by ffmpeg, and proved by `pipctl verify`:
    /// a banner `below` the content in both orientations, Split View's divider, a Slide Over window's edge, and a
    /// mid-roll played inside the picture-in-picture window under `--pip-ad-policy play`.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct ScreenLayoutsTests {
        typealias Device = DeviceRenderTests
        /// Short content, so that each render is quick: 2 s, 320x180 at 30 fps.
        static let short = TestClip(id: "layouts", seconds: 2, width: 320, height: 180, fps: 30, sampleRate: 48000,
                                    channels: 2, tone: 770)
        /// The divider's dark grey #303032 and the edge's #8E8E93 in BT.601 limited range:
        /// 16 + (65.481 R + 128.553 G + 24.966 B) / 255.
        static let dividerY = 57, edgeY = 138

        /// Renders `session` (its `CONTENT` replaced by the short clip's path) losslessly, then verifies it.
        static func render(_ session: String, _ extra: [String] = [], in dir: ScratchDirectory? = nil) async throws -> Device.Render {
            let dir = try dir ?? ScratchDirectory()
            _ = try dir.write(session.replacingOccurrences(of: "CONTENT", with: try await Self.short.path), to: "session.json")
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", output,
                                                      "--profile", "lossless"] + extra, timeout: .seconds(300))
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let verified = try await PipctlProcess.run(["verify", output], timeout: .seconds(300))
            #expect(verified.exitStatus == 0, "\(verified.standardOutput)\(verified.standardError)")
            return try Device.Render(reading: output, in: dir)
        }

        static func layers(_ render: Device.Render, frame: Int) throws -> [[String: Any]] {
            let segment = try #require(render.segments.first {
                ($0["outStartFrame"] as? Int ?? .max) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0)
            })
            return try #require(segment["layers"] as? [[String: Any]])
        }

        static func rect(_ render: Device.Render, _ kind: String, frame: Int) throws -> PixelRect {
            try Device.rect(try #require(try layers(render, frame: frame).first { $0["kind"] as? String == kind })["rect"])
        }

        /// iPhone 15, landscape then portrait at 1 s, the banner `below`: in each orientation the player's window
        /// (and its picture) ends where the banner begins, and the banner's colour is not under the picture.
        @Test func aBannerBelowTheContentEndsThePlayersWindowInBothOrientations() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            let render = try await Self.render("""
                {"device": "iphone-15", "orientation": "landscape",
                 "scenes": [{"id": "main", "player": {"content": "CONTENT"}, "banner": {"source": "banner.png", "layout": "below"}}],
                 "script": "rotate portrait@1"}
                """, in: dir)
            for frame in [15, 45] {
                let content = try Self.rect(render, "content", frame: frame), banner = try Self.rect(render, "banner", frame: frame)
                #expect(content.maxY <= banner.y, "frame \(frame): \(content) reaches into the banner \(banner)")
                let segment = try #require(render.segments.first { ($0["outStartFrame"] as? Int ?? .max) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0) })
                let picture = try Device.rect(segment["picture"])
                #expect(picture.maxY <= banner.y)
                let decoded = try render.picture(frame: frame)
                Device.expectFlat(decoded, PixelRect(x: banner.x + 4, y: banner.y + 4, width: banner.width - 8, height: banner.height - 8),
                                  Device.bannerY, "banner at frame \(frame)")
            }
        }

        /// iPad 11" landscape (1194x834 at 1 px per point), Split View 1/2: the divider's 10 px at x 592 are the dark
        /// grey, the windows beside them black.
        @Test func splitViewShowsItsDividerAndVerifyPasses() async throws {
            let render = try await Self.render("""
                {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2",
                 "scenes": [{"id": "left", "player": {"content": "CONTENT"}}, {"id": "right"}]}
                """)
            let divider = try Self.rect(render, "divider", frame: 10)
            #expect(divider == PixelRect(x: 592, y: 0, width: 10, height: 834))
            // It lies between the scenes, in neither: a screen-level layer, without a scene (it named "right").
            let layer = try #require(try Self.layers(render, frame: 10).first { $0["kind"] as? String == "divider" })
            #expect(layer["scene"] == nil, "\(layer)")
            let picture = try render.picture(frame: 10)
            Device.expectFlat(picture, PixelRect(x: 594, y: 4, width: 6, height: 826), Self.dividerY, "the divider")
            Device.expectFlat(picture, PixelRect(x: 604, y: 4, width: 40, height: 826), Device.blackY, "the right scene beside it")
            Device.expectFlat(picture, PixelRect(x: 550, y: 4, width: 40, height: 60), Device.blackY, "the left scene's bar beside it")
        }

        /// Slide Over: the floating window at x 874 has its 8 px rim at x 866, the system grey, over the primary's
        /// picture.
        @Test func slideOverShowsTheFloatingWindowsEdgeAndVerifyPasses() async throws {
            let render = try await Self.render("""
                {"device": "ipad-11", "orientation": "landscape", "layout": "slide-over",
                 "scenes": [{"id": "main", "player": {"content": "CONTENT"}}, {"id": "side"}]}
                """)
            let edge = try Self.rect(render, "edge", frame: 10)
            #expect(edge == PixelRect(x: 866, y: 0, width: 8, height: 834))
            let picture = try render.picture(frame: 10)
            // Away from its rounded ends, the rim is flat.
            Device.expectFlat(picture, PixelRect(x: 866, y: 20, width: 8, height: 794), Self.edgeY, "the edge")
            Device.expectFlat(picture, PixelRect(x: 876, y: 4, width: 40, height: 826), Device.blackY, "the floating window")
        }

        /// Slide Over's soft shadow: cast by the floating window with its edge (x 866 on), 32 px out, over the primary
        /// scene's banner (a flat blue): the banner is untouched beyond the shadow's reach, darker the nearer the
        /// edge; verify redraws it and passes.
        @Test func slideOverCastsASoftShadowOverTheSceneBelowAndVerifyPasses() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            let render = try await Self.render("""
                {"device": "ipad-11", "orientation": "landscape", "layout": "slide-over",
                 "scenes": [{"id": "main", "player": {"content": "CONTENT"}, "banner": {"source": "banner.png", "layout": "overlay"}},
                            {"id": "side"}]}
                """, in: dir)
            let layers = try Self.layers(render, frame: 10)
            #expect(layers.map { $0["kind"] as? String ?? "" } == ["content", "banner", "shadow", "edge", "content"])
            let shadow = try #require(layers.first { $0["kind"] as? String == "shadow" })
            #expect(try Device.rect(shadow["rect"]) == PixelRect(x: 834, y: 0, width: 360, height: 834))
            #expect(try Device.rect(shadow["caster"]) == PixelRect(x: 866, y: 0, width: 328, height: 834))
            #expect(shadow["reach"] as? Int == 32 && shadow["radius"] as? Int == 4)
            let banner = try Self.rect(render, "banner", frame: 10)
            let picture = try render.picture(frame: 10), row = banner.y + banner.height / 2
            let luma = (810..<866).map { Int(picture.y($0, row)) }
            // Beyond the reach (x < 834) the banner's own blue; then darker towards the edge, strongest beside it.
            #expect(luma[0..<10].allSatisfy { abs($0 - Device.bannerY) <= 2 }, "\(luma)")
            #expect(zip(luma, luma.dropFirst()).allSatisfy { $0 + 1 >= $1 }, "\(luma)")
            #expect(luma.last! < Device.bannerY - 12, "\(luma)")

            // Verify (which passed in `render`) redraws the shadow under the layers it darkens, and says that it does
            // not judge it alone.
            let verified = try await PipctlProcess.run(["verify", render.output], timeout: .seconds(300))
            #expect(verified.exitStatus == 0)
            #expect(verified.standardOutput.contains("skipped: shadow of scene \"side\": a soft shadow is redrawn under the layers it darkens"),
                    "\(verified.standardOutput)")
        }

        /// `--pip-ad-policy play`: the mid-roll cued at 1 s while the window is up (from 0.5 s) plays inside it at its
        /// cue: its frames are in the floating window, verify reads its stamps there, and its impression and start
        /// reach the ad server.
        @Test func aMidrollCuedInPictureInPicturePlaysInsideTheWindow() async throws {
            let dir = try ScratchDirectory()
            let server = try LoopbackHTTPServer()
            for name in ["impression", "start", "complete"] { server.route("/\(name)", LoopbackHTTPServer.Response(status: 204)) }
            let base = server.baseURL.absoluteString
            let ad = URL(fileURLWithPath: try await TestClip.adB.path)
            _ = try dir.write("https://cdn.example/\t\(ad.deletingLastPathComponent().path)/\n", to: "map.txt")
            _ = try dir.write("""
                <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
                <vmap:AdBreak timeOffset="00:00:01.000" breakType="linear" breakId="mid">
                <vmap:AdSource id="mid"><vmap:VASTAdData><VAST version="4.2"><Ad id="m"><InLine><AdSystem>e2e</AdSystem><AdTitle>m</AdTitle>
                  <Impression><![CDATA[\(base)/impression]]></Impression>
                  <Creatives><Creative><Linear><Duration>00:00:01.000</Duration>
                    <TrackingEvents><Tracking event="start"><![CDATA[\(base)/start]]></Tracking><Tracking event="complete"><![CDATA[\(base)/complete]]></Tracking></TrackingEvents>
                    <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="180" height="320"><![CDATA[https://cdn.example/\(ad.lastPathComponent)]]></MediaFile></MediaFiles>
                  </Linear></Creative></Creatives></InLine></Ad></VAST></vmap:VASTAdData></vmap:AdSource>
                </vmap:AdBreak></vmap:VMAP>
                """, to: "vmap.xml")
            let render = try await Self.render("""
                {"device": "ipad-11", "orientation": "landscape", "urlMap": "map.txt",
                 "scenes": [{"id": "main", "player": {"content": "CONTENT", "ads": "vmap.xml"}}],
                 "script": "pip on@0.5"}
                """, ["--pip-ad-policy", "play", "--send-beacons"], in: dir)
            // The break starts at its cue (frame 30), in the window: the ad's layer is the floating one.
            let started = try #require(render.events.first { $0["type"] as? String == "AD_BREAK_STARTED" })
            #expect(started["frame"] as? Int == 30)
            #expect(!render.events.contains { $0["type"] as? String == "AD_BREAK_DEFERRED" })
            for type in ["STARTED", "IMPRESSION", "COMPLETE"] {
                #expect(render.events.contains { $0["type"] as? String == type && $0["break"] as? Int == 0 }, "\(type)")
            }
            let segment = try #require(render.segments.first { ($0["outStartFrame"] as? Int ?? .max) <= 45 && 45 < ($0["outEndFrame"] as? Int ?? 0) })
            #expect(segment["kind"] as? String == "ad")
            let pip = try Self.rect(render, "pip", frame: 45)
            let picture = try Device.rect(segment["picture"])
            #expect(pip.contains(picture) && pip.width < render.size.width / 2, "the ad is drawn in the floating window \(pip)")
            // The ad's frames are in the window: output frame 45 is 0.5 s into the 24 fps ad, its frame 12; the mean
            // luma there is that frame's, not the slate behind it.
            let decoded = try render.picture(frame: 45)
            let expected = try DecodedPicture(file: ad.path, size: PixelSize(width: 180, height: 320), frame: 12)
            let shown = decoded.luma(in: picture).map(Int.init).reduce(0, +) / max(1, picture.width * picture.height)
            let own = expected.luma(in: PixelRect(x: 0, y: 0, width: 180, height: 320)).map(Int.init).reduce(0, +) / (180 * 320)
            #expect(abs(shown - own) < 8, "window mean \(shown), the ad's frame \(own)")
            // Its beacons reached the ad server, once each.
            #expect(server.requests.map(\.target).sorted() == ["/complete", "/impression", "/start"])
        }
    }
}
