import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl verify` checks a slider's cards from the pixels: a session whose five cards' main images are
    /// solid colours made by the `ffmpeg` command line (card 2's image is missing, so it shows the grey
    /// placeholder), swiped left twice, rendered lossily by x264; then doctored timelines (a card moved, two cards
    /// swapped, the placeholder given an image, an image that cannot be read) that each fail or cannot be verified,
    /// naming the card.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct NativeVerifyTests {
        typealias Layers = LayerVerifyTests
        /// Each card's main image, as RGB; `nil` for card 2, whose image file does not exist.
        static let colours: [Int?] = [0xCC3333, 0x3366CC, nil, 0x33CC33, 0xEEEE22]
        /// The placeholder's grey (`Stitcher.nativePlaceholderColor`).
        static let placeholder = 0xB0B0B0

        /// The render, made once: 2.5 s of moving content on an iPhone 15 (3/2 px per point), the slider at the
        /// top of the feed (above the letterboxed picture: cards of the main image alone), loaded at 0.2 s and
        /// swiped left at 1 s and 1.6 s.
        static var render: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "native-verify/out.mp4") { output in
                    let dir = URL(fileURLWithPath: output).deletingLastPathComponent()
                    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2.5", "-f", "lavfi", "-i", "sine=d=2.5",
                                           "-shortest", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                                           "-c:a", "aac", dir.appendingPathComponent("content.mp4").path])
                    try await Self.render(session(in: dir, top: 0), to: output)
                }
            }
        }

        /// Writes the slider's response, its images and a session with the slider `top` points into the feed, with
        /// `content.mp4` (made by the caller) as its player; `single`: the response's first ad alone, as a single
        /// native ad `n`, loaded at 0.2 s.
        static func session(in dir: URL, top: Int, single: Bool = false) throws -> String {
            func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
            var ads: [String] = []
            for (i, colour) in colours.enumerated() {
                if let colour {
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x\(String(colour, radix: 16)):s=320x180", "-frames:v", "1",
                                           path("main\(i).png")])
                }
                ads.append("""
                {"adid": "ad\(i)", "assets": [{"id": 1, "title": {"text": "Card \(i)"}},
                                              {"id": 2, "img": {"type": 3, "url": "main\(i).png", "w": 16, "h": 9}}],
                 "link": {"url": "https://shop.example/\(i)"}}
                """)
            }
            try (#"{"ver": "1.2", "assets": [{"id": 100, "required": 1, "data": {"type": 1, "value": "Ads"}}], "ads": ["#
                 + ads.joined(separator: ",") + "]}").write(toFile: path("slider.json"), atomically: true, encoding: .utf8)
            try """
            {"device": "iphone-15",
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "\(single ? "n" : "s")", "source": "slider.json", "style": "\(single ? "single" : "slider")",
                                     "top": \(top), "template": {"slots": ["media"]}}]}],
             "script": ["load slider@0.2"\(single ? "" : #", "swipe left@1", "swipe left@1.6""#)]}
            """.write(toFile: path("session.json"), atomically: true, encoding: .utf8)
            return path("session.json")
        }

        static func render(_ session: String, to output: String) async throws {
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--preset", "ultrafast"])
            guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: result.standardError) }
        }

        /// The card layer of ad `ad` during output frame `frame`, if it is on screen then.
        static func card(_ timeline: [String: Any], _ ad: String, frame: Int) throws -> [String: Any]? {
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            let segment = try #require(segments.first { ($0["outStartFrame"] as? Int ?? .max) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0) })
            return (segment["layers"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "card" && $0["adId"] as? String == ad }
        }

        @Test func verifyFindsEachCardWhereTheTimelineSaysThroughTwoSwipesAndFFmpegSeesItsImageThere() async throws {
            let output = try await Self.render
            let (result, report) = try await Layers.verify(output, sources: true)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            let layers = try #require(report?["layers"] as? [String: Any])
            // Every frame of each 0.3 s swipe moves the cards, so each is a segment of its own and is sampled.
            #expect((layers["frames"] as? Int ?? 0) >= 2 * 8, "\(layers)")
            #expect((layers["notVerifiable"] as? [String])?.isEmpty == true, "\(layers)")
            // Scrolled off to the left, a sliver of the first two cards is left: named, not checked.
            #expect(layers["skipped"] as? [String] == ["card 0 (\"ad0\") of slider \"s\": under 24 px visible",
                                                       "card 1 (\"ad1\") of slider \"s\": under 24 px visible"], "\(layers)")

            // The timeline says where each card's image is and where it was read; card 2's was not, so it has none.
            let timeline = try Layers.timeline(of: output)
            let out = try #require(timeline["output"] as? [String: Any])
            let last = try #require(out["frames"] as? Int) - 1
            let green = try #require(try Self.card(timeline, "ad3", frame: last))
            #expect((green["source"] as? String)?.hasSuffix("/main3.png") == true, "\(green)")
            let grey = try #require(try Self.card(timeline, "ad2", frame: last))
            #expect(grey["source"] == nil && grey["image"] != nil, "\(grey)")
            // Independently, ffmpeg's RGB of the last frame: card 2's image is the placeholder, card 3's (cut by the
            // viewport) green, both where the timeline says.
            let size = PixelSize(width: try #require(out["width"] as? Int), height: try #require(out["height"] as? Int))
            let picture = try RGBPicture(file: output, size: size, frame: last)
            let clip = try DeviceRenderTests.rect(green["clip"])
            for (card, colour) in [(grey, Self.placeholder), (green, 0x33CC33)] {
                let image = try DeviceRenderTests.rect(card["image"]).intersection(clip)
                let inner = PixelRect(x: image.x + 8, y: image.y + 8, width: image.width - 16, height: image.height - 16)
                #expect(picture.shows(colour, in: inner), "\(card["adId"] ?? ""): \(picture.mean(in: inner))")
            }
        }

        static let doctorings: [Layers.Doctoring] = [
            // Only where it stays on screen (before the first swipe): over card 0, whose red shows where blue should.
            Layers.Doctoring(name: "card 1 moved left by its width", layer: "card 1 (\"ad1\") of slider \"s\" expected at",
                             reason: "the inside differs") { layers in
                for i in layers.indices where layers[i]["adId"] as? String == "ad1" {
                    guard var rect = layers[i]["rect"] as? [String: Int], var image = layers[i]["image"] as? [String: Int],
                          let width = rect["width"], let x = rect["x"], x - width >= 0 else { continue }
                    rect["x"] = x - width
                    image["x"] = (image["x"] ?? 0) - width
                    layers[i]["rect"] = rect
                    layers[i]["image"] = image
                }
            },
            // Card 0's place (its image 12 pt into a card 12 pt into the slider: x = 36 px) named as card 1.
            Layers.Doctoring(name: "cards 0 and 1 swapped", layer: "image of card 1 (\"ad1\") of slider \"s\" expected at x=36,",
                             reason: "the inside differs") { layers in
                guard let a = layers.firstIndex(where: { $0["adId"] as? String == "ad0" }),
                      let b = layers.firstIndex(where: { $0["adId"] as? String == "ad1" }) else { return }
                for key in ["adId", "index", "source"] { (layers[a][key], layers[b][key]) = (layers[b][key], layers[a][key]) }
            },
            Layers.Doctoring(name: "the loaded slider said to be loading", layer: "loading placeholder of slider \"s\" of scene \"feed\"",
                             reason: "the inside differs") { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "slider" { layers[i]["placeholder"] = true }
            },
            Layers.Doctoring(name: "card 2's placeholder given card 0's image", layer: "image of card 2 (\"ad2\") of slider \"s\"",
                             reason: "the inside differs") { layers in
                let red = layers.first { $0["adId"] as? String == "ad0" }?["source"]
                for i in layers.indices where layers[i]["adId"] as? String == "ad2" && red != nil { layers[i]["source"] = red }
            },
        ]

        @Test(arguments: doctorings)
        func aDoctoredCardFailsVerifyNamingIt(_ doctoring: Layers.Doctoring) async throws {
            let output = try await Self.render
            let dir = try ScratchDirectory()
            let (result, report) = try await Layers.verify(output, timeline: try Layers.doctor(output, in: dir, doctoring.change), sources: true)
            #expect(result.exitStatus == 1, "\(result.standardOutput)\(result.standardError)")
            let problems = report?["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains(doctoring.layer) && $0.contains("not found there") && $0.contains(doctoring.reason) },
                    "\(problems)")
        }

        @Test func aCardImageThatCannotBeReadIsNotVerifiableNotAPass() async throws {
            let output = try await Self.render
            let dir = try ScratchDirectory()
            let timeline = try Layers.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["adId"] as? String == "ad0" { layers[i]["source"] = "no-such-image.png" }
            }
            let result = try await PipctlProcess.run(["verify", output, "--sources", "--timeline", timeline], timeout: .seconds(300))
            #expect(result.exitStatus == 3, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("not verifiable: image of card 0 (\"ad0\") of slider \"s\": its source no-such-image.png cannot be read"),
                    "\(result.standardOutput)")
        }

        /// A single native ad is checked as a card is: its body and image where the timeline says, and 8 px lower
        /// it is not found.
        @Test func aSingleNativeAdIsCheckedAndOneMovedDownFailsNamingIt() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            let output = dir.path("out.mp4")
            try await Self.render(try Self.session(in: dir.url, top: 0, single: true), to: output)
            let (result, report) = try await Layers.verify(output, sources: true)
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
            // From the load on: the player's window, the ad's body and its image.
            #expect(((report?["layers"] as? [String: Any])?["checked"] as? Int ?? 0) >= 3 * 3, "\(report ?? [:])")
            let moved = try Layers.doctor(output, in: dir) { layers in
                for i in layers.indices where layers[i]["kind"] as? String == "native" { layers[i]["rect"] = Layers.moved(layers[i]["rect"], dy: 8) }
            }
            let (failed, failure) = try await Layers.verify(output, timeline: moved, sources: true)
            #expect(failed.exitStatus == 1, "\(failed.standardOutput)\(failed.standardError)")
            let problems = failure?["problems"] as? [String] ?? []
            #expect(problems.contains { $0.contains("native ad 0 (\"ad0\") of placement \"n\" expected at") && $0.contains("its bottom edge differs inside") },
                    "\(problems)")
        }

        /// A slider laid over the whole of the player's letterboxed picture (as the bundled feed does) hides it:
        /// from the load on, the player is not looked for there, by stamps or by fingerprints, and the slider is
        /// checked as its layer instead; before the load the picture is checked as ever.
        @Test func aSliderOverTheWholePictureCoversThePlayerWhoseStampsAreNotLookedFor() async throws {
            let dir = try ScratchDirectory()
            let made = try await PipctlProcess.run(["testsrc", "-o", dir.path("content.mp4"), "--duration", "2.5", "--size", "320x180",
                                                    "--id", "feed", "--preset", "ultrafast"])
            try #require(made.exitStatus == 0, "\(made.standardError)")
            // The 590x332 px picture lies at y 473–805; the 370 px slider at 88 + 250 × 3/2 = 463 px covers it.
            let output = dir.path("out.mp4")
            try await Self.render(try Self.session(in: dir.url, top: 250), to: output)
            let segments = try #require(try Layers.timeline(of: output)["segments"] as? [[String: Any]])
            let last = try #require(segments.last)
            let picture = try DeviceRenderTests.rect(last["picture"])
            let slider = try #require((last["layers"] as? [[String: Any]])?.first { $0["kind"] as? String == "slider" })
            #expect(try DeviceRenderTests.rect(slider["rect"]).contains(picture), "\(slider) over \(picture)")
            for sources in [false, true] {
                let (result, report) = try await Layers.verify(output, sources: sources)
                #expect(result.exitStatus == 0, "\(sources): \(result.standardOutput)\(result.standardError)")
                #expect((report?["layers"] as? [String: Any])?["checked"] as? Int ?? 0 > 0)
            }
            let text = try await PipctlProcess.run(["verify", output, "--sources"], timeout: .seconds(300))
            #expect(text.standardOutput.contains("of content are covered by slider \"s\" of scene feed, which is checked as its layer"),
                    "\(text.standardOutput)")
        }
    }
}
