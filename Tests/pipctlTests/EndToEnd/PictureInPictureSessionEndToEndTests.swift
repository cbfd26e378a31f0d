import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// The bundled picture-in-picture session: `media/pip.session.json` plays the content on an iPhone, goes to
    /// picture-in-picture at 3 s, reaches the mid-roll cue at 6 s in it (the break waits, `pipActive`), comes back at
    /// 9 s (the break plays), and quits at 16 s. It renders, its floating window stays in the scene's safe area, and
    /// the render verifies against its stamps and against its sources.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct PictureInPictureSessionTests {
        @Test func theBundledPictureInPictureSessionRendersItsHeldBreakAndVerifies() async throws {
            let dir = try ScratchDirectory()
            let media = PipctlProcess.repositoryRoot.appendingPathComponent("media").path
            try FileManager.default.copyItem(atPath: media, toPath: dir.path("media"))
            try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: false)
            let render = try await PipctlProcess.run(["render", "--session", "media/pip.session.json", "-o", "out/pip.mp4"],
                                                     directory: dir.url, timeout: .seconds(600))
            try #require(render.exitStatus == 0, "\(render.standardError)")
            #expect(render.standardOutput.hasPrefix("out/pip.mp4: 480 frames (0:16) 590x1278 at 30 fps"), "\(render.standardOutput)")
            let result = try DeviceRenderTests.Render(reading: dir.path("out/pip.mp4"), in: dir)

            let story = result.events.compactMap { event -> String? in
                guard let type = event["type"] as? String, let frame = event["frame"] as? Int,
                      ["COMMAND", "PIP_DID_START", "AD_BREAK_DEFERRED", "PIP_DID_STOP", "AD_BREAK_STARTED", "AD_BREAK_ENDED",
                       "SESSION_ENDED"].contains(type) else { return nil }
                return "\(frame) \(type)" + ((event["message"] ?? event["reason"]).map { " \($0)" } ?? "")
            }
            #expect(story == [
                "90 COMMAND pip on", "90 PIP_DID_START", "180 AD_BREAK_DEFERRED pipActive", "270 COMMAND pip off",
                "270 PIP_DID_STOP", "270 AD_BREAK_STARTED", "420 AD_BREAK_ENDED", "480 COMMAND quit", "480 SESSION_ENDED quit",
            ])
            // While in picture-in-picture the content plays in a floating window inside the scene's safe area; the ad
            // plays in the player's window.
            let floating = result.segments.filter { $0["pip"] is [String: Any] }
            #expect(floating.map { $0["outStartFrame"] as? Int } == [90] && floating.map { $0["outEndFrame"] as? Int } == [270])
            for segment in floating {
                let pip = try DeviceRenderTests.rect(segment["pip"])
                let scenes = try #require(segment["scenes"] as? [[String: Any]])
                let safe = try DeviceRenderTests.rect(try #require(scenes.first)["safeArea"])
                #expect(safe.contains(pip) && pip.width < safe.width / 2, "\(pip) in \(safe)")
            }
            #expect(result.segments.first { $0["kind"] as? String == "ad" }?["pip"] is NSNull)

            for arguments in [["verify", "out/pip.mp4"], ["verify", "out/pip.mp4", "--sources"]] {
                let verify = try await PipctlProcess.run(arguments, directory: dir.url, timeout: .seconds(300))
                #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
                #expect(verify.standardOutput.contains(": OK — "), "\(verify.standardOutput)")
            }
        }
    }
}
