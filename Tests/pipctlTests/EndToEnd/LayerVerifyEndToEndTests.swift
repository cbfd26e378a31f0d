import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl verify` on device renders checks every screen layer's rectangle from the pixels: a two-scene iPad
    /// session whose banner and interstitial are ffmpeg-made two-colour images (so a mirrored or shifted draw
    /// shows), rendered lossily by x264; the output decoded again by `ffmpeg` as RGB to check the same rectangles
    /// independently; and doctored timelines that each fail, naming the layer.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct LayerVerifyTests {
        /// The banner's halves (left, right) and the interstitial's (top, bottom), as RGB.
        static let red = 0xCC3333, blue = 0x3366CC, green = 0x33CC33, yellow = 0xEEEE22

        /// The session render, made once: moving content in the left scene with a split banner; the right scene's
        /// interstitial presented at 0.5 s (frame 15) and dismissed at 1.2 s (frame 36).
        static var render: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "layers/out.mp4") { output in
                    let dir = URL(fileURLWithPath: output).deletingLastPathComponent()
                    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-f", "lavfi", "-i", "sine=d=2",
                                           "-shortest", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                                           "-c:a", "aac", path("content.mp4")])
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xcc3333:s=200x60[a];color=c=0x3366cc:s=200x60[b];[a][b]hstack",
                                           "-frames:v", "1", path("banner.png")])
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x33cc33:s=200x300[a];color=c=0xeeee22:s=200x300[b];[a][b]vstack",
                                           "-frames:v", "1", path("interstitial.png")])
                    try """
                    {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2",
                     "scenes": [
                       {"id": "left", "state": "foregroundActive", "player": {"content": "content.mp4"}, "banner": {"source": "banner.png"}},
                       {"id": "right", "interstitial": {"source": "interstitial.png"}}
                     ],
                     "script": "present interstitial right@0.5; dismiss right@1.2"}
                    """.write(toFile: path("session.json"), atomically: true, encoding: .utf8)
                    let result = try await PipctlProcess.run(["render", "--session", path("session.json"), "-o", output,
                                                              "--preset", "ultrafast"])
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: result.standardError) }
                }
            }
        }

        static func timeline(of output: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
        }

        /// The rectangle of the layer of `kind` in `scene` during output frame `frame`.
        static func layer(_ timeline: [String: Any], _ kind: String, _ scene: String, frame: Int) throws -> PixelRect {
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            let segment = try #require(segments.first { ($0["outStartFrame"] as? Int ?? .max) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0) })
            let layers = try #require(segment["layers"] as? [[String: Any]])
            return try DeviceRenderTests.rect(try #require(layers.first { $0["kind"] as? String == kind && $0["scene"] as? String == scene })["rect"])
        }

        /// Verify's JSON report; `--sources` with fingerprints, else with stamps.
        static func verify(_ output: String, timeline: String? = nil, sources: Bool) async throws -> (PipctlResult, [String: Any]?) {
            let result = try await PipctlProcess.run(["verify", output, "--json"] + (sources ? ["--sources"] : [])
                                                     + (timeline.map { ["--timeline", $0] } ?? []), timeout: .seconds(300))
            return (result, try? JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
        }

        @Test func verifyChecksTheBannerInterstitialAndScenesOfASessionAndFFmpegSeesThemAtTheirRects() async throws {
            let output = try await Self.render
            let (result, report) = try await Self.verify(output, sources: true)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            let layers = try #require(report?["layers"] as? [String: Any])
            // Three segments (before, during and after the interstitial), three frames each, and three layers seen
            // on each: the player's window (its black bars), the banner, and the right scene's black or, over it,
            // the interstitial. (The display is the whole canvas, so there is no bezel; its divider is too thin
            // for a block of its own, so it is checked by ffmpeg below.)
            #expect(layers["frames"] as? Int == 9)
            #expect(layers["checked"] as? Int == 9 * 3, "\(layers)")
            #expect((layers["notVerifiable"] as? [String])?.isEmpty == true)
            let text = try await PipctlProcess.run(["verify", output, "--sources"], timeout: .seconds(300))
            #expect(text.standardOutput.contains("layers checked on 9 frames"), "\(text.standardOutput)")

            // Independently: ffmpeg's RGB of frame 20, while the interstitial is up.
            let timeline = try Self.timeline(of: output)
            let out = try #require(timeline["output"] as? [String: Any])
            let size = PixelSize(width: try #require(out["width"] as? Int), height: try #require(out["height"] as? Int))
            let picture = try RGBPicture(file: output, size: size, frame: 20)
            let banner = try Self.layer(timeline, "banner", "left", frame: 20)
            let half = banner.width / 2
            #expect(picture.shows(Self.red, in: PixelRect(x: banner.x + 8, y: banner.y + 8, width: half - 16, height: banner.height - 16)),
                    "the banner's left half: \(picture.mean(in: banner))")
            #expect(picture.shows(Self.blue, in: PixelRect(x: banner.x + half + 8, y: banner.y + 8, width: half - 16, height: banner.height - 16)),
                    "the banner's right half")
            // The 200x600 interstitial keeps its shape in the right scene's window: a centred column, black beside it.
            let window = try Self.layer(timeline, "fullscreen", "right", frame: 20)
            let column = window.fitting(aspect: Rational(200, 600))
            #expect(picture.shows(Self.green, in: PixelRect(x: column.x + 8, y: column.y + 8, width: column.width - 16, height: column.height / 2 - 16)))
            #expect(picture.shows(Self.yellow, in: PixelRect(x: column.x + 8, y: column.y + column.height / 2 + 8, width: column.width - 16,
                                                             height: column.height / 2 - 16)))
            #expect(picture.shows(0x000000, in: PixelRect(x: window.x + 8, y: window.y + 8, width: column.x - window.x - 16, height: window.height - 16)))
            // Before it is presented, the right scene (no player) is black, and the divider between the scenes is the
            // system's dark grey (#303032), so that one sees where each scene ends.
            let before = try RGBPicture(file: output, size: size, frame: 5)
            let right = try Self.layer(timeline, "content", "right", frame: 5), left = try Self.layer(timeline, "content", "left", frame: 5)
            #expect(before.shows(0x000000, in: PixelRect(x: right.x + 8, y: right.y + 8, width: right.width - 16, height: right.height - 16)))
            #expect(left.maxX < right.x)
            #expect(before.shows(0x303032, in: PixelRect(x: left.maxX + 2, y: 8, width: right.x - left.maxX - 4, height: size.height - 16),
                                 tolerance: 8))
            #expect(!before.shows(0x000000, in: PixelRect(x: left.maxX + 2, y: 8, width: right.x - left.maxX - 4, height: size.height - 16),
                                  tolerance: 8))
            #expect(!before.shows(Self.green, in: PixelRect(x: column.x + 8, y: column.y + 8, width: column.width - 16, height: column.height / 2 - 16)))
        }

        /// A change to the session's timeline, and the layer verify must name.
        struct Doctoring: CustomTestStringConvertible, Sendable {
            var name: String
            var layer: String
            /// What the problem says of it.
            var reason: String
            var change: @Sendable (inout [[String: Any]]) -> Void
            var testDescription: String { name }
        }

        static let doctorings: [Doctoring] = [
            Doctoring(name: "the banner moved down 8 px", layer: "banner of scene \"left\"",
                      reason: "its bottom edge differs inside") { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" { layers[i]["rect"] = moved(layers[i]["rect"], dy: 8) }
            },
            Doctoring(name: "the banner narrowed by 16 px on each side", layer: "banner of scene \"left\"",
                      reason: "it goes on past its left edge; it goes on past its right edge") { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" {
                    guard var r = layers[i]["rect"] as? [String: Int] else { continue }
                    r["x"] = (r["x"] ?? 0) + 16
                    r["width"] = (r["width"] ?? 0) - 32
                    layers[i]["rect"] = r
                }
            },
            Doctoring(name: "the two scenes' rectangles swapped", layer: "content of scene",
                      reason: "edge differs inside") { layers in
                let contents = layers.indices.filter { layers[$0]["kind"] as? String == "content" }
                let first = layers[contents[0]]["rect"]
                layers[contents[0]]["rect"] = layers[contents[1]]["rect"]
                layers[contents[1]]["rect"] = first
            },
            Doctoring(name: "the interstitial's source changed to the banner's image", layer: "fullscreen of scene \"right\"",
                      reason: "the inside differs") { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "fullscreen" { layers[i]["source"] = "banner.png" }
            },
        ]

        static func moved(_ rect: Any?, dy: Int) -> Any? {
            guard var r = rect as? [String: Int] else { return rect }
            r["y"] = (r["y"] ?? 0) + dy
            return r
        }

        /// Writes `output`'s timeline with `change` applied to every segment's layers (and the scenes swapped with
        /// their content layers, as a real swap would) into `dir`.
        static func doctor(_ output: String, in dir: ScratchDirectory, _ change: (inout [[String: Any]]) -> Void) throws -> String {
            var timeline = try timeline(of: output)
            var segments = try #require(timeline["segments"] as? [[String: Any]])
            for s in segments.indices {
                var layers = try #require(segments[s]["layers"] as? [[String: Any]])
                change(&layers)
                segments[s]["layers"] = layers
                var scenes = try #require(segments[s]["scenes"] as? [[String: Any]])
                for k in scenes.indices {
                    if let content = layers.first(where: { $0["kind"] as? String == "content" && $0["scene"] as? String == scenes[k]["id"] as? String }) {
                        scenes[k]["rect"] = content["rect"]
                    }
                }
                segments[s]["scenes"] = scenes
            }
            timeline["segments"] = segments
            let path = dir.path("doctored.timeline.json")
            try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: path))
            return path
        }

        @Test(arguments: doctorings)
        func aDoctoredTimelineFailsVerifyNamingTheLayer(_ doctoring: Doctoring) async throws {
            let output = try await Self.render
            let dir = try ScratchDirectory()
            let (result, report) = try await Self.verify(output, timeline: try Self.doctor(output, in: dir, doctoring.change), sources: true)
            #expect(result.exitStatus == 1, "\(result.standardOutput)\(result.standardError)")
            let problems = report?["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains(doctoring.layer) && $0.contains("not found there") && $0.contains(doctoring.reason) },
                    "\(problems)")
            // Each finding carries its code beside its sentence: the layer's is `layer.mismatch`, with its frame and name.
            let findings = report?["findings"] as? [[String: Any]] ?? []
            #expect(findings.map { $0["text"] as? String ?? "" } == problems)
            let layer = findings.first { ($0["text"] as? String ?? "").contains(doctoring.layer) && ($0["text"] as? String ?? "").contains("not found there") }
            #expect(layer?["code"] as? String == "layer.mismatch", "\(findings)")
            #expect((layer?["subject"] as? [String: Any])?["kind"] as? String == "layer", "\(findings)")
        }

        @Test func aLayerWhoseSourceCannotBeReadIsNotVerifiableNotAPass() async throws {
            let output = try await Self.render
            let dir = try ScratchDirectory()
            let timeline = try Self.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" { layers[i]["source"] = "no-such-banner.png" }
            }
            let result = try await PipctlProcess.run(["verify", output, "--sources", "--timeline", timeline], timeout: .seconds(300))
            #expect(result.exitStatus == 3, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("not verifiable: banner of scene \"left\": its source no-such-banner.png cannot be read"),
                    "\(result.standardOutput)")
        }

        /// A timeline may name any file as a creative: verify opens it as the render does, within
        /// `PictureLimit.creatives`, so a 16000x16000 RGBA image is not verifiable, found from its header, and the
        /// run stays small (it decoded it whole, 1.09 GB, then stopped on a zero-height aspect ratio).
        @Test func aLayerWhoseSourceIsOverThePictureLimitIsNotVerifiableFromItsHeader() async throws {
            let output = try await Self.render
            let dir = try ScratchDirectory()
            let big = try PictureBudgetTests.blackPNG(dir, "big.png", width: 16000, height: 16000, rgba: true)
            let timeline = try Self.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" { layers[i]["source"] = big }
            }
            let result = try await PeakMemory.run(["verify", output, "--sources", "--timeline", timeline], in: dir)
            #expect(result.exitStatus == 3, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("not verifiable: banner of scene \"left\": its source \(big) cannot be read ("
                        + "\(big): 16000x16000 is over the picture limit of 4096 pixels a side)"),
                    "\(result.standardOutput)")
            #expect(result.peakBytes < PictureBudgetTests.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        @Test func onARotatedDeviceADisplayMovedIntoTheBezelFailsNamingTheBezelAndTheScene() async throws {
            let dir = try ScratchDirectory()
            let output = dir.path("out.mp4")
            let render = try await PipctlProcess.run(["render", "--content", try await TestClip.adA.path, "-o", output, "--device", "iphone-15",
                                                      "--script", "rotate landscape@0.5", "--preset", "ultrafast"])
            try #require(render.exitStatus == 0, "\(render.standardError)")
            let (result, _) = try await Self.verify(output, sources: false)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            // Everything on screen 8 px to the right of where it was drawn.
            var timeline = try Self.timeline(of: output)
            var segments = try #require(timeline["segments"] as? [[String: Any]])
            func moved(_ rect: Any?) -> Any? {
                guard var r = rect as? [String: Int] else { return rect }
                r["x"] = (r["x"] ?? 0) + 8
                return r
            }
            for s in segments.indices {
                segments[s]["display"] = moved(segments[s]["display"])
                segments[s]["layers"] = (segments[s]["layers"] as? [[String: Any]] ?? []).map { var l = $0; l["rect"] = moved(l["rect"]); return l }
            }
            timeline["segments"] = segments
            let doctored = dir.path("moved.timeline.json")
            try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: doctored))
            let (failed, report) = try await Self.verify(output, timeline: doctored, sources: false)
            #expect(failed.exitStatus == 1, "\(failed.standardOutput)\(failed.standardError)")
            let problems = report?["problems"] as? [String] ?? []
            // Portrait (to 0.5 s): the display at x 344 → 352; landscape: at x 0 → 8, its left edge in the bezel.
            #expect(problems.contains { $0.hasPrefix("frame 0: content of scene \"main\" expected at x=352, y=0, 590x1278, not found there (it goes on past its left edge") },
                    "\(problems)")
            #expect(problems.contains { $0.contains(": bezel expected at x=0, y=0, 1278x1278, not found there (its left edge differs inside)") },
                    "\(problems)")
        }

        @Test func verifyWithStampsChecksTheBannerNamesAMirroredCreativeAndCannotVerifyARemoteOne() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xcc3333:s=200x60[a];color=c=0x3366cc:s=200x60[b];[a][b]hstack",
                                   "-frames:v", "1", dir.path("banner.png")])
            let output = dir.path("out.mp4")
            // Overlay: `doctor` takes the content layer for the scene's window, which `below` (the default) shortens.
            let render = try await PipctlProcess.run(["render", "--content", try await TestClip.adA.path, "-o", output, "--device", "iphone-15",
                                                      "--banner", dir.path("banner.png"), "--banner-layout", "overlay", "--preset", "ultrafast"])
            try #require(render.exitStatus == 0, "\(render.standardError)")
            let (result, report) = try await Self.verify(output, sources: false)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            let layers = try #require(report?["layers"] as? [String: Any])
            #expect((layers["checked"] as? Int ?? 0) >= 3, "\(layers)")
            // Mirrored: the halves swapped in the banner's image is a different picture at the same rectangle.
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=200x60[a];color=c=0xcc3333:s=200x60[b];[a][b]hstack",
                                   "-frames:v", "1", dir.path("mirrored.png")])
            let mirrored = try Self.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" { layers[i]["source"] = dir.path("mirrored.png") }
            }
            let (failed, failure) = try await Self.verify(output, timeline: mirrored, sources: false)
            #expect(failed.exitStatus == 1, "\(failed.standardOutput)\(failed.standardError)")
            let problems = failure?["problems"] as? [String] ?? []
            #expect(problems.contains { $0.hasPrefix("frame 0: banner of scene \"main\" expected at x=") }, "\(problems)")
            // A remote creative is not fetched again: the banner is not verifiable, exit 3, not a pass.
            let remote = try Self.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "banner" { layers[i]["source"] = "https://example.invalid/b.png" }
            }
            let unverified = try await PipctlProcess.run(["verify", output, "--timeline", remote], timeout: .seconds(300))
            #expect(unverified.exitStatus == 3, "\(unverified.standardOutput)\(unverified.standardError)")
            #expect(unverified.standardOutput.contains("NOT VERIFIABLE"), "\(unverified.standardOutput)")
            #expect(unverified.standardOutput.contains("not verifiable: banner of scene \"main\": its source https://example.invalid/b.png cannot be read (verify reads local files only)"),
                    "\(unverified.standardOutput)")
        }
    }
}
