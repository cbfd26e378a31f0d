import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// The timeline names each banner and full-screen image by where the render read it (an absolute path), so
    /// verify opens that file wherever the session file, the content and the output are.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct CreativeSourceVerifyTests {
        @Test func aCreativeNamedRelativeToASessionFileAwayFromTheContentAndOutputIsVerified() async throws {
            let dir = try ScratchDirectory()
            for folder in ["app", "media", "out"] {
                try FileManager.default.createDirectory(atPath: dir.path(folder), withIntermediateDirectories: true)
            }
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-pix_fmt", "yuv420p", dir.path("media/content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xcc3333:s=200x60[a];color=c=0x3366cc:s=200x60[b];[a][b]hstack",
                                   "-frames:v", "1", dir.path("app/banner.png")])
            // Portrait: the banner lies below the letterboxed picture rather than over part of it.
            _ = try dir.write("""
                {"device": "ipad-11", "orientation": "portrait",
                 "scenes": [{"id": "main", "player": {"content": "\(dir.path("media/content.mp4"))"}, "banner": {"source": "banner.png"}}]}
                """, to: "app/session.json")
            let output = dir.path("out/out.mp4")
            let render = try await PipctlProcess.run(["render", "--session", dir.path("app/session.json"), "-o", output,
                                                      "--preset", "ultrafast"])
            try #require(render.exitStatus == 0, "\(render.standardError)")
            let timeline = try LayerVerifyTests.timeline(of: output)
            let layers = try #require((timeline["segments"] as? [[String: Any]])?.first?["layers"] as? [[String: Any]])
            #expect(layers.first { $0["kind"] as? String == "banner" }?["source"] as? String == dir.path("app/banner.png"))

            let (result, report) = try await LayerVerifyTests.verify(output, sources: true)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(((report?["layers"] as? [String: Any])?["notVerifiable"] as? [String])?.isEmpty == true, "\(report ?? [:])")

            // The request as written, as older timelines name it, is found beside neither the content nor the output.
            let old = try LayerVerifyTests.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" { layers[i]["source"] = "banner.png" }
            }
            let (guessed, _) = try await LayerVerifyTests.verify(output, timeline: old, sources: true)
            #expect(guessed.exitStatus == 3, "\(guessed.standardOutput)\(guessed.standardError)")
        }
    }
}
