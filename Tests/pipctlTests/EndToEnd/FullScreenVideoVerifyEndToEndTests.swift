import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl verify` on a render with a presented full-screen video ad (the VAST interstitial of
    /// `FullScreenVideoTests`, over the player's scene from frame 15 to 60): the ad's window is checked against the
    /// ad's own frame at the tick its layer gives (by stamps when `pipctl testsrc` made it, else by the colours of
    /// the predicted frame), the paused player under it is not expected on screen, and doctored timelines fail
    /// naming the layer, or are not verifiable, never a pass.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct FullScreenVideoVerifyTests {
        typealias Video = FullScreenVideoTests
        typealias Layers = LayerVerifyTests

        /// Runs `verify` (`--sources` with fingerprints) on `render`, with `change` applied to the fullscreen
        /// layers of its timeline when given; the exit status and the report's problems and not-verifiable list.
        static func verify(_ render: DeviceRenderTests.Render, sources: Bool,
                           change: ((inout [String: Any]) -> Void)? = nil) async throws -> (status: Int32, problems: [String], notVerifiable: [String], text: String) {
            let timeline = try change.map { change in
                try Layers.doctor(render.output, in: render.dir) { layers in
                    for i in layers.indices where layers[i]["kind"] as? String == "fullscreen" { change(&layers[i]) }
                }
            }
            let (result, report) = try await Layers.verify(render.output, timeline: timeline, sources: sources)
            let layers = report?["layers"] as? [String: Any]
            return (result.exitStatus, report?["problems"] as? [String] ?? [],
                    layers?["notVerifiable"] as? [String] ?? [], result.standardOutput + result.standardError)
        }

        static func shift(_ layer: inout [String: Any], by ticks: Int) {
            layer["srcStartTick"] = (layer["srcStartTick"] as? Int ?? 0) + ticks
        }

        @Test func anUnstampedVideoInterstitialIsCheckedFrameByFrameFromItsPredictedColours() async throws {
            let dir = try ScratchDirectory()
            // The red-then-blue ad, over moving content (a still one could not be told from its own frames).
            try Video.makeMedia(in: dir)
            try FFmpegCommand.run(["-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            let render = try await Video.render(in: dir, media: "ad.mp4")
            // The layer says which tick of the ad is on screen: 0 at the frame it presented on.
            let covered = try #require(render.segments.first { $0["outStartFrame"] as? Int == 15 })
            let layer = try #require((covered["layers"] as? [[String: Any]])?.first { $0["kind"] as? String == "fullscreen" })
            #expect(layer["srcStartTick"] as? Int == 0)
            #expect(layer["source"] as? String == dir.path("ad.mp4"))

            let passed = try await Self.verify(render, sources: true)
            #expect(passed.status == 0, "\(passed.text)")
            #expect(passed.notVerifiable.isEmpty)
            #expect(passed.text.contains("covered by scene left's full-screen ad"), "\(passed.text)")

            // Half a second late, its first sampled frame would be blue where the output is red.
            let late = try await Self.verify(render, sources: true) { Self.shift(&$0, by: 15) }
            #expect(late.status == 1, "\(late.text)")
            #expect(late.problems.contains { $0.contains("fullscreen of scene \"left\"") && $0.contains("not found there") }, "\(late.problems)")

            let narrowed = try await Self.verify(render, sources: true) { layer in
                guard var r = layer["rect"] as? [String: Int] else { return }
                r["x"] = (r["x"] ?? 0) + 32
                r["width"] = (r["width"] ?? 0) - 64
                layer["rect"] = r
            }
            #expect(narrowed.status == 1, "\(narrowed.text)")
            #expect(narrowed.problems.contains { $0.contains("fullscreen of scene \"left\"") && $0.contains("not found there") },
                    "\(narrowed.problems)")

            // A timeline that names another video for it fails too.
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x22cc22:s=320x180:r=30:d=1", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("green.mp4")])
            let swapped = try await Self.verify(render, sources: true) { $0["source"] = dir.path("green.mp4") }
            #expect(swapped.status == 1, "\(swapped.text)")
            #expect(swapped.problems.contains { $0.contains("fullscreen of scene \"left\"") && $0.contains("the inside differs") }, "\(swapped.problems)")

            // Without the tick (a timeline written before layers carried it) any of its frames could be on screen:
            // not verifiable, not a guess.
            let old = try await Self.verify(render, sources: true) { $0["srcStartTick"] = nil }
            #expect(old.status == 3, "\(old.text)")
            #expect(old.notVerifiable.contains { $0.contains("fullscreen of scene \"left\"") && $0.contains("srcStartTick") }, "\(old.notVerifiable)")
        }

        @Test func aStampedVideoInterstitialIsCheckedByItsStampsAtTheTickItsLayerGives() async throws {
            let dir = try ScratchDirectory()
            for (id, seconds, name) in [("main", "3", "content.mp4"), ("fsad", "1", "ad.mp4")] {
                let made = try await PipctlProcess.run(["testsrc", "-o", dir.path(name), "--duration", seconds, "--size", "320x180",
                                                        "--id", id, "--preset", "ultrafast"])
                try #require(made.exitStatus == 0, "\(made.standardError)")
            }
            let render = try await Video.render(in: dir, media: "ad.mp4")
            let passed = try await Self.verify(render, sources: false)
            #expect(passed.status == 0, "\(passed.text)")
            #expect(passed.text.contains("is a full-screen video ad's: not checked"), "the sound under it: \(passed.text)")

            // Five frames off: the stamps in its window say which frame it really shows.
            let off = try await Self.verify(render, sources: false) { Self.shift(&$0, by: 5) }
            #expect(off.status == 1, "\(off.text)")
            #expect(off.problems.contains("output frame 15: scene left's full-screen ad (fullscreen layer) shows fsad frame 0, the timeline says fsad frame 5"),
                    "\(off.problems)")
        }
    }
}
