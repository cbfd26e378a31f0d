import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl verify --sources` checks the other scenes' players by fingerprints: an iPad split in halves, each
    /// scene playing its own unstamped ffmpeg-made clip (testsrc2, and testsrc2 mirrored and recoloured); the
    /// right player's window must show its clip's frame at its layer's tick, and doctored timelines fail in words.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct ScenePlayerFingerprintVerifyTests {
        /// Makes both clips and the session in `dir` with the ffmpeg tool and renders it; the output's path.
        static func render(in dir: ScratchDirectory) async throws -> String {
            for (filter, name) in [("testsrc2=s=320x180:r=30:d=3", "main.mp4"), ("testsrc2=s=320x180:r=30:d=3,hflip,hue=h=120", "side.mp4")] {
                try FFmpegCommand.run(["-f", "lavfi", "-i", filter, "-c:v", "libx264", "-preset", "ultrafast",
                                       "-pix_fmt", "yuv420p", dir.path(name)])
            }
            let session = try dir.write("""
                {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2",
                 "scenes": [{"id": "left", "state": "foregroundActive", "player": {"content": "main.mp4"}},
                            {"id": "right", "player": {"content": "side.mp4"}}]}
                """, to: "session.json")
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--preset", "ultrafast"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return output
        }

        /// `verify --sources` on the render, with `change` applied to the right scene's player layer when given.
        static func verify(_ output: String, in dir: ScratchDirectory,
                           change: ((inout [String: Any]) -> Void)? = nil) async throws
            -> (status: Int32, problems: [String], codes: [String], text: String) {
            let timeline = try change.map { change in
                try LayerVerifyTests.doctor(output, in: dir) { layers in
                    for i in layers.indices where layers[i]["scene"] as? String == "right" && layers[i]["srcStartTick"] != nil { change(&layers[i]) }
                }
            }
            let (result, report) = try await LayerVerifyTests.verify(output, timeline: timeline, sources: true)
            let codes = (report?["findings"] as? [[String: Any]] ?? []).map { $0["code"] as? String ?? "" }
            return (result.exitStatus, report?["problems"] as? [String] ?? [], codes, result.standardOutput + result.standardError)
        }

        @Test func theRightScenesPlayerMatchesItsSourceAtItsTick() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.render(in: dir)
            let timeline = try LayerVerifyTests.timeline(of: output)
            let layers = try #require((timeline["segments"] as? [[String: Any]])?.first?["layers"] as? [[String: Any]])
            let side = try #require(layers.first { $0["scene"] as? String == "right" })
            #expect(side["srcStartTick"] as? Int == 0 && (side["source"] as? String)?.hasSuffix("side.mp4") == true)
            let passed = try await Self.verify(output, in: dir)
            #expect(passed.status == 0, "\(passed.text)")
        }

        @Test func aWrongTickSourceOrWindowForTheRightScenesPlayerFailsInWords() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.render(in: dir)
            let late = try await Self.verify(output, in: dir) { $0["srcStartTick"] = ($0["srcStartTick"] as? Int ?? 0) + 10 }
            #expect(late.status == 1, "\(late.text)")
            #expect(late.problems.contains { $0.hasPrefix("output frame 0: scene right's player (content layer) shows its frame 0, the timeline says 10 of ") },
                    "\(late.problems)")
            #expect(late.codes.contains("player.mismatch"), "\(late.codes)")

            let main = dir.path("main.mp4")
            let swapped = try await Self.verify(output, in: dir) { $0["source"] = main }
            #expect(swapped.status == 1, "\(swapped.text)")
            #expect(swapped.problems.contains { $0.hasPrefix("output frame 0: scene right's player (content layer) does not show \(main) near its frame 0") },
                    "\(swapped.problems)")

            let moved = try await Self.verify(output, in: dir) { layer in
                guard var r = layer["rect"] as? [String: Int] else { return }
                r["x"] = (r["x"] ?? 0) - 300
                layer["rect"] = r
            }
            #expect(moved.status == 1, "\(moved.text)")
            #expect(moved.problems.contains { $0.contains("scene right's player (content layer) does not show") }, "\(moved.problems)")
        }
    }
}
