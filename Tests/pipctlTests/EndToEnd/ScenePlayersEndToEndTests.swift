import AdDecisioning
import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render --session` with two scenes side by side, each with its own player and ad plan: a pre-roll in
    /// the left one, a mid-roll in the right one, whose player then goes into picture-in-picture. Checked from the
    /// events, the timeline, an ffmpeg decode of the output and `pipctl verify` (stamps inside each window).
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct ScenePlayersTests {
        typealias Device = DeviceRenderTests
        /// The right scene's content: 4 s, so that its player ends first and holds its last frame.
        static let side = TestClip(id: "side", seconds: 4, width: 320, height: 180, fps: 30, sampleRate: 48000,
                                   channels: 2, tone: 660)

        /// An inline VAST ad of `seconds` whose media is `https://cdn.example/NAME`, mapped to the clips' directory.
        static func vastAd(_ name: String, seconds: Int) -> String {
            """
            <VAST version="4.2"><Ad id="\(name)"><InLine><AdSystem>e2e</AdSystem><AdTitle>\(name)</AdTitle>
              <Impression><![CDATA[https://track.example/\(name)/impression]]></Impression>
              <Creatives><Creative><Linear><Duration>00:00:0\(seconds).000</Duration><MediaFiles>
                <MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[https://cdn.example/\(name)]]></MediaFile>
              </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        }

        /// The two-player session rendered losslessly, shared by the tests that only read it.
        static func render() async throws -> Device.Render {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, sideContent = try await side.path
            let ada = try await TestClip.adA.path, adb = try await TestClip.adB.path
            _ = try dir.write("https://cdn.example/\t\(URL(fileURLWithPath: ada).deletingLastPathComponent().path)/\n", to: "map.txt")
            _ = try dir.write(vastAd(URL(fileURLWithPath: ada).lastPathComponent, seconds: 2), to: "pre.xml")
            _ = try dir.write("""
                <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
                <vmap:AdBreak timeOffset="00:00:01.000" breakType="linear" breakId="mid">
                <vmap:AdSource id="mid"><vmap:VASTAdData>\(vastAd(URL(fileURLWithPath: adb).lastPathComponent, seconds: 1))</vmap:VASTAdData></vmap:AdSource>
                </vmap:AdBreak></vmap:VMAP>
                """, to: "vmap.xml")
            _ = try dir.write("""
                {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2", "urlMap": "map.txt",
                 "scenes": [
                   {"id": "left", "state": "foregroundActive", "player": {"content": "\(content)", "ads": "pre.xml"}},
                   {"id": "right", "player": {"content": "\(sideContent)", "ads": "vmap.xml"}}
                 ],
                 "script": ["pip on in right@3", "pip on in left@3.5", "pip off in right@4.5"]}
                """, to: "session.json")
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", output,
                                                      "--profile", "lossless"], timeout: .seconds(300))
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return try Device.Render(reading: output, in: dir)
        }

        /// The segment holding output frame `frame`, and its layer of `scene` other than a `content` backdrop.
        static func layer(_ render: Device.Render, scene: String, frame: Int) throws -> (segment: [String: Any], layer: [String: Any]) {
            let segment = try #require(render.segments.first {
                ($0["outStartFrame"] as? Int ?? .max) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0)
            })
            let layers = try #require(segment["layers"] as? [[String: Any]])
            return (segment, try #require(layers.first { $0["scene"] as? String == scene && $0["srcStartTick"] != nil }))
        }

        @Test func twoScenesEachPlayTheirOwnPlanAndThePictureInPictureComesFromTheSecond() async throws {
            let render = try await Self.render()
            // The primary (left) player sets the length: a 2 s pre-roll and 6 s of content.
            #expect(render.segments.last?["outEndFrame"] as? Int == 240)

            // Events: one log in time order, each with its player's scene.
            let frames = render.events.compactMap { $0["frame"] as? Int }
            #expect(frames == frames.sorted())
            let breaks = render.events.filter { $0["type"] as? String == "AD_BREAK_STARTED" }
            #expect(breaks.map { $0["scene"] as? String } == ["left", "right"])
            #expect(breaks.map { $0["frame"] as? Int } == [0, 30])
            let refused = try #require(render.events.first { $0["reason"] as? String == "refused" })
            #expect(refused["scene"] as? String == "left" && refused["frame"] as? Int == 105)
            #expect((refused["message"] as? String)?.contains("the player of scene \"right\" is in picture-in-picture") == true)
            #expect(render.events.filter { $0["type"] as? String == "COMMAND" }.map { $0["scene"] as? String }
                == ["right", "left", "right"])

            // The timeline: the right player's layer says what it shows at each segment's first frame.
            let (_, ad) = try Self.layer(render, scene: "right", frame: 45)
            #expect(ad["kind"] as? String == "ad" && ad["break"] as? Int == 0 && ad["ad"] as? Int == 0)
            #expect((ad["source"] as? String)?.hasSuffix("adb.mp4") == true)
            let (later, content) = try Self.layer(render, scene: "right", frame: 70)
            #expect(content["kind"] as? String == "content" && (content["source"] as? String)?.hasSuffix("side.mp4") == true)
            #expect(content["srcStartTick"] as? Int == 30 + (later["outStartFrame"] as? Int ?? 0) - 60)
            let (_, pip) = try Self.layer(render, scene: "right", frame: 100)
            #expect(pip["kind"] as? String == "pip" && pip["paused"] as? Bool == false)
            let (_, held) = try Self.layer(render, scene: "right", frame: 200)
            #expect(held["paused"] as? Bool == true && held["srcStartTick"] as? Int == Int(Self.side.frames) - 1)
            let starts = Set(render.segments.compactMap { $0["outStartFrame"] as? Int })
            #expect(starts.isSuperset(of: [30, 60, 90, 135, 150]), "a segment starts wherever the right player's run breaks")

            // The pixels, decoded by ffmpeg: the right scene's window shows the slate around its floating window,
            // the left one its own player.
            let picture = try render.picture(frame: 100)
            let window = try Device.rect(try #require((try Self.layer(render, scene: "right", frame: 100).segment["layers"] as? [[String: Any]])?
                .first { $0["scene"] as? String == "right" && $0["kind"] as? String == "content" })["rect"])
            let floating = try Device.rect(pip["rect"])
            #expect(window.x > render.size.width / 2 && floating.x > window.x && floating.maxX <= window.maxX)
            Device.expectFlat(picture, PixelRect(x: window.x + 8, y: window.y + 8, width: window.width - 16, height: floating.y - window.y - 16),
                              Device.slateY, "the right scene behind its picture-in-picture window")
            let left = try Device.rect(try Self.layer(render, scene: "right", frame: 100).segment["picture"])
            #expect(left.maxX < window.x, "the primary player's picture is in the left scene")

            // verify reads each player's stamps inside its own window.
            let verified = try await PipctlProcess.run(["verify", render.output], timeout: .seconds(300))
            #expect(verified.exitStatus == 0, "\(verified.standardOutput)\(verified.standardError)")

            // A timeline that moves the right player's ticks fails, naming its scene.
            var timeline = render.timeline
            var segments = render.segments
            let index = try #require(segments.firstIndex { ($0["outStartFrame"] as? Int ?? 0) <= 70 && 70 < ($0["outEndFrame"] as? Int ?? 0) })
            var layers = try #require(segments[index]["layers"] as? [[String: Any]])
            let j = try #require(layers.firstIndex { $0["scene"] as? String == "right" && $0["srcStartTick"] != nil })
            layers[j]["srcStartTick"] = (layers[j]["srcStartTick"] as? Int ?? 0) + 10
            segments[index]["layers"] = layers
            timeline["segments"] = segments
            let doctored = try render.dir.write(String(decoding: try JSONSerialization.data(withJSONObject: timeline), as: UTF8.self),
                                                to: "doctored.json")
            let failed = try await PipctlProcess.run(["verify", render.output, "--timeline", doctored], timeout: .seconds(300))
            #expect(failed.exitStatus != 0)
            #expect((failed.standardOutput + failed.standardError).contains("scene right's player (content layer) shows side frame"),
                    "\(failed.standardOutput)\(failed.standardError)")
        }

        @Test func aCommandNamingASceneWithoutAPlayerIsAnErrorNamingIt() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path
            _ = try dir.write("""
                {"device": "ipad-11", "scenes": [{"id": "left", "player": {"content": "\(content)"}}, {"id": "right"}],
                 "script": "pause in right@1"}
                """, to: "session.json")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", dir.path("out.mp4")])
            #expect(result.exitStatus != 0)
            #expect(result.standardError.contains("script command \"pause in right@1\": scene \"right\" has no player"),
                    "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        }
    }
}
