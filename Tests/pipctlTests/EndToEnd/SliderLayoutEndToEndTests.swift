import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// The bundled slider session (`media/`: its content, response, images and feed layout) rendered as a user would
    /// vary it: at other point scales, and turned to landscape and back. Each render verifies, every card lies
    /// inside the display, and the timeline of the old placement (the slider at x = 0 of the canvas) fails.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct SliderLayoutTests {
        typealias Layers = LayerVerifyTests

        /// A copy of `media/` in `dir` with the bundled session changed: `pointScale` set, its script replaced.
        static func session(in dir: ScratchDirectory, pointScale: String?, script: [String]) throws -> String {
            let media = PipctlProcess.repositoryRoot.appendingPathComponent("media").path
            try FileManager.default.copyItem(atPath: media, toPath: dir.path("media"))
            let path = dir.path("media/slider.session.json")
            var session = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            if let pointScale { session["pointScale"] = pointScale }
            session["script"] = script
            try JSONSerialization.data(withJSONObject: session).write(to: URL(fileURLWithPath: path))
            return path
        }

        static func render(_ session: String, in dir: ScratchDirectory) async throws -> String {
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--preset", "ultrafast"],
                                                     directory: dir.url, timeout: .seconds(600))
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return output
        }

        /// The drawn part (rect cut to clip) of every card of every segment, with the segment's display.
        static func cards(_ timeline: [String: Any]) throws -> [(frame: Int, drawn: PixelRect, display: PixelRect)] {
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            return try segments.flatMap { segment in
                let display = try DeviceRenderTests.rect(segment["display"])
                return try (segment["layers"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "card" }.map { card in
                    (segment["outStartFrame"] as? Int ?? -1, try DeviceRenderTests.rect(card["rect"]).intersection(DeviceRenderTests.rect(card["clip"])), display)
                }
            }
        }

        /// At 1/2 a card is 160 px wide and cards are 4 px apart; the one beside the viewport's edge shows a sliver.
        @Test(arguments: ["1/2", "1", "3"])
        func theBundledSliderSessionVerifiesAtPointScale(_ scale: String) async throws {
            let dir = try ScratchDirectory()
            let session = try Self.session(in: dir, pointScale: scale,
                                           script: ["load slider@0.3", "swipe left@0.8", "swipe left@1.4", "quit@2"])
            let output = try await Self.render(session, in: dir)
            let (result, report) = try await Layers.verify(output, sources: false)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            let layers = try #require(report?["layers"] as? [String: Any])
            #expect((layers["checked"] as? Int ?? 0) > 20, "\(layers)")
            #expect(try !Self.cards(try Layers.timeline(of: output)).isEmpty)
        }

        /// Turned to landscape and back: the canvas holds both, so the portrait display is centred in it; each card
        /// lies inside the display and the render verifies. The same timeline with the slider where the old
        /// placement drew it (x = 0 of the canvas) fails, naming the slider, the frame and both rectangles.
        @Test func aRotatingSliderRenderHasEveryCardInsideTheDisplayAndVerifies() async throws {
            let dir = try ScratchDirectory()
            let session = try Self.session(in: dir, pointScale: nil,
                                           script: ["load slider@0.2", "rotate landscape@0.8", "swipe left@1.2", "rotate portrait@1.8", "quit@2.4"])
            let output = try await Self.render(session, in: dir)
            let timeline = try Layers.timeline(of: output)
            let cards = try Self.cards(timeline)
            #expect(Set(cards.map(\.display.width)).count == 2, "cards shown in both orientations: \(cards.map(\.display))")
            #expect(cards.contains { $0.display.x > 0 }, "the portrait display is not at the canvas's left edge")
            for card in cards where card.drawn.width > 0 && card.drawn.height > 0 {
                #expect(card.display.contains(card.drawn), "frame \(card.frame): card at \(card.drawn) outside \(card.display)")
            }
            let (result, _) = try await Layers.verify(output, sources: false)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")

            // The old placement: each native layer moved left by its segment's display offset.
            var old = timeline
            var segments = try #require(old["segments"] as? [[String: Any]])
            for s in segments.indices {
                let dx = try DeviceRenderTests.rect(segments[s]["display"]).x
                var layers = segments[s]["layers"] as? [[String: Any]] ?? []
                for i in layers.indices where ["slider", "card"].contains(layers[i]["kind"] as? String) {
                    for key in ["rect", "clip", "image"] {
                        guard var r = layers[i][key] as? [String: Int] else { continue }
                        r["x"] = (r["x"] ?? 0) - dx
                        layers[i][key] = r
                    }
                }
                segments[s]["layers"] = layers
            }
            old["segments"] = segments
            let path = dir.path("old.timeline.json")
            try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path))
            let (failed, report) = try await Layers.verify(output, timeline: path, sources: false)
            #expect(failed.exitStatus == 1, "\(failed.standardOutput)")
            let problems = report?["problems"] as? [String] ?? []
            #expect(problems.contains { $0.hasPrefix("frame ") && $0.contains("slider \"feed-slider\" of scene \"feed\" at x=0,")
                && $0.contains("is not inside its scene's window at x=") }, "\(problems)")
        }
    }
}
