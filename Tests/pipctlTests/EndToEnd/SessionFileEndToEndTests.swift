import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render --session FILE.json`: a two-scene iPad session whose inputs are made by the `ffmpeg`
    /// command line, the output decoded again by `ffmpeg` to check each scene's banner where the timeline says.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct SessionFileTests {
        typealias Device = DeviceRenderTests
        /// Luma (BT.601 limited range) of the left banner 0x3366cc and the right one 0x33cc33.
        static let blueY = 100, greenY = 137

        /// Writes `json` as `session.json` beside ffmpeg-made content and two banners, and renders it losslessly.
        static func render(_ json: String, in dir: ScratchDirectory, expecting status: Int32 = 0) async throws -> (Device.Render?, PipctlResult) {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=1", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=400x60", "-frames:v", "1", dir.path("left.png")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x33cc33:s=400x60", "-frames:v", "1", dir.path("right.png")])
            try json.write(toFile: dir.path("session.json"), atomically: true, encoding: .utf8)
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", output, "--profile", "lossless"])
            try #require(result.exitStatus == status, "\(result.standardError)")
            guard status == 0 else { return (nil, result) }
            return (try Device.Render(reading: output, in: dir), result)
        }

        /// The rectangles of the layers of `kind`, by scene, in segment `segment`.
        static func layers(_ render: Device.Render, _ kind: String, segment: Int = 0) throws -> [String: PixelRect] {
            let layers = try #require(render.segments[segment]["layers"] as? [[String: Any]])
            var found: [String: PixelRect] = [:]
            for layer in layers where layer["kind"] as? String == kind {
                found[try #require(layer["scene"] as? String)] = try Device.rect(layer["rect"])
            }
            return found
        }

        @Test func twoScenesSideBySideEachDrawTheirBannerAndThePlayerPlaysInItsScene() async throws {
            let dir = try ScratchDirectory()
            let (rendered, _) = try await Self.render("""
            {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2",
             "scenes": [
               {"id": "left", "state": "foregroundActive", "player": {"content": "content.mp4"}, "banner": {"source": "left.png"}},
               {"id": "right", "banner": {"source": "right.png"}, "interstitial": {"source": "right.png"}}
             ]}
            """, in: dir)
            let render = try #require(rendered)
            let banners = try Self.layers(render, "banner"), contents = try Self.layers(render, "content")
            let left = try #require(banners["left"]), right = try #require(banners["right"])
            // Split 1/2: each scene is half the display less the divider; the right one starts after it.
            #expect(left.maxX < right.x && left.y == right.y)
            let leftScene = try #require(contents["left"]), rightScene = try #require(contents["right"])
            #expect(leftScene.x == 0 && rightScene.maxX == render.size.width)
            let picture = try render.picture(frame: 10)
            Device.expectFlat(picture, left, Self.blueY, "left scene's banner")
            Device.expectFlat(picture, right, Self.greenY, "right scene's banner")
            // The player's picture, letterboxed inside the left scene's window.
            let player = try Device.rect(render.segments[0]["picture"])
            #expect(player.x >= leftScene.x && player.maxX <= leftScene.maxX)
            Device.expectFlat(picture, PixelRect(x: player.x + 4, y: player.y + 4, width: 40, height: 40),
                              Device.contentY, "the player in the left scene")
            let received = render.events.filter { $0["type"] as? String == "bannerViewDidReceiveAd" }.compactMap { $0["scene"] as? String }
            #expect(received.sorted() == ["left", "right"])
            #expect(render.events.contains { $0["type"] as? String == "adDidLoad" && $0["scene"] as? String == "right" })
        }

        @Test func aPresentedInterstitialShowsTheCreativeItLoadedFittedToItsWindow() async throws {
            let dir = try ScratchDirectory()
            let (rendered, _) = try await Self.render("""
            {"device": "ipad-11", "orientation": "landscape",
             "scenes": [{"id": "left", "player": {"content": "content.mp4"}}, {"id": "right", "interstitial": {"source": "right.png"}}],
             "script": "present interstitial right@0.5"}
            """, in: dir)
            let render = try #require(rendered)
            let segment = try #require(render.segments.firstIndex { segment in
                (segment["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "fullscreen" } ?? false
            })
            #expect(render.segments[segment]["outStartFrame"] as? Int == 15)
            let window = try #require(Self.layers(render, "fullscreen", segment: segment)["right"])
            let layers = try #require(render.segments[segment]["layers"] as? [[String: Any]])
            #expect(layers.first { $0["kind"] as? String == "fullscreen" }?["source"] as? String == dir.path("right.png"), "the file read, by its absolute path")
            // The 400x60 creative keeps its shape: a band across the window's middle, black above it.
            let picture = try render.picture(frame: 20)
            Device.expectFlat(picture, PixelRect(x: window.x + 4, y: window.y + window.height / 2 - 10, width: window.width - 8, height: 20),
                              Self.greenY, "the interstitial's creative")
            Device.expectFlat(picture, PixelRect(x: window.x + 4, y: window.y + 4, width: window.width - 8, height: 20),
                              Device.blackY, "above the creative")
            #expect(render.events.contains { $0["type"] as? String == "adWillPresentFullScreenContent" && $0["time"] as? Double == 0.5 })
        }

        @Test func inTestModeABannerWhoseRequestDoesNotSetItsSceneFailsWithSceneNotSet() async throws {
            let dir = try ScratchDirectory()
            let (rendered, _) = try await Self.render("""
            {"device": "ipad-11", "orientation": "landscape", "testMode": true,
             "scenes": [
               {"id": "left", "player": {"content": "content.mp4"}, "banner": {"source": "left.png"}},
               {"id": "right", "banner": {"source": "right.png", "setsScene": false}}
             ]}
            """, in: dir)
            let render = try #require(rendered)
            let failed = try #require(render.events.first { $0["type"] as? String == "bannerView:didFailToReceiveAdWithError" })
            #expect(failed["scene"] as? String == "right" && failed["reason"] as? String == "sceneNotSet")
            // Nothing of the ad's is drawn in the right scene's banner slot: its (player-less) content is black.
            let picture = try render.picture(frame: 10)
            Device.expectFlat(picture, try #require(Self.layers(render, "banner")["right"]), Device.blackY, "the failed banner's slot")
            Device.expectFlat(picture, try #require(Self.layers(render, "banner")["left"]), Self.blueY, "the left banner")
        }

        @Test func aWrongValueIsNamedByItsJSONPath() async throws {
            let dir = try ScratchDirectory()
            let (_, result) = try await Self.render("""
            {"device": "ipad-11", "scenes": [{"id": "a", "player": {"content": "content.mp4"}}, {"id": "b", "banner": {"source": 3}}]}
            """, in: dir, expecting: 2)
            #expect(result.standardError.contains("--session: \(dir.path("session.json")): scenes[1].banner.source: not a string"))
            let conflict = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "--device", "ipad-11"])
            #expect(conflict.exitStatus == 2 && conflict.standardError.contains("--device: the --session file says this"))
        }

        /// `--script` with `--session` replaces the file's script (how `play`'s command log replays); a script that
        /// cannot be read is one line naming it, before anything is read or written.
        @Test func aScriptGivenWithASessionFileReplacesItsScriptAndABadOneIsNamed() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.write(#"{"device": "iphone-15", "scenes": [{"id": "main", "player": {"content": "nope.mp4"}}], "script": "quit@1"}"#,
                              to: "s.json")
            let missing = try await PipctlProcess.run(["render", "--session", dir.path("s.json"), "--script", "@" + dir.path("log.txt"),
                                                       "-o", dir.path("o.mp4")])
            #expect(missing.exitStatus == 2)
            // The one line, then usage errors' pointer to the help.
            #expect(missing.errorLines.first?.hasPrefix("pipctl render: --script: \(dir.path("log.txt")): ") == true, "\(missing.errorLines)")
            #expect(missing.errorLines.dropFirst() == ["See 'pipctl render --help'."])
            let bad = try await PipctlProcess.run(["render", "--session", dir.path("s.json"), "--script", "pip on", "-o", dir.path("o.mp4")])
            #expect(bad.exitStatus == 2)
            #expect(bad.errorLines == [#"pipctl render: --script: script command "pip on": needs exactly one "@time" on the output clock, as in "pip on@12.5""#,
                                       "See 'pipctl render --help'."])
            #expect(dir.entries() == ["s.json"])
        }
    }
}
