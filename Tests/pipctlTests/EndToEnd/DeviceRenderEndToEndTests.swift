import AdPlayback
import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render --device … --banner …`: inputs made by the `ffmpeg` command line (a flat yellow content, a
    /// flat blue 640x100 banner), rendered losslessly, and the output decoded again by `ffmpeg` to check that each
    /// layer of the timeline is where its colour is, at the size the banner rule gives by hand.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct DeviceRenderTests {
        /// Luma of the colours, BT.601 limited range: content 0xdddd22, banner 0x3366cc, the bezel 0x404040, the
        /// picture-in-picture slate 0x1c2028, black bars.
        static let contentY = 188, bannerY = 100, bezelY = 71, slateY = 43, blackY = 16

        /// A rectangle of the timeline's JSON.
        static func rect(_ value: Any?) throws -> PixelRect {
            let r = try #require(value as? [String: Int])
            return PixelRect(x: try #require(r["x"]), y: try #require(r["y"]), width: try #require(r["width"]),
                             height: try #require(r["height"]))
        }

        /// A render's inputs and result: the timeline's JSON and the events' lines.
        struct Render {
            var dir: ScratchDirectory
            var output: String
            var timeline: [String: Any]
            var segments: [[String: Any]]
            var events: [[String: Any]]
            var size: PixelSize

            /// The render written at `output`: its timeline and event log read back.
            init(reading output: String, in dir: ScratchDirectory) throws {
                let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
                let out = try #require(timeline["output"] as? [String: Any])
                self.dir = dir
                self.output = output
                self.timeline = timeline
                segments = try #require(timeline["segments"] as? [[String: Any]])
                events = try String(contentsOfFile: output + ".events.jsonl", encoding: .utf8).split(separator: "\n")
                    .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
                size = PixelSize(width: try #require(out["width"] as? Int), height: try #require(out["height"] as? Int))
            }

            func picture(frame: Int) throws -> DecodedPicture { try DecodedPicture(file: output, size: size, frame: frame) }

            /// What the screen reported in the event log, typed as the log's reader reads it, each at its frame.
            func screenEvents() throws -> [ScreenEventAt] {
                try EventLogReader.read(contentsOf: URL(fileURLWithPath: output + ".events.jsonl")).compactMap {
                    if case .screen(let event) = $0.kind { ScreenEventAt(frame: $0.frame, event: event) } else { nil }
                }
            }

            /// The screen's taps of the event log (`screenEvents`).
            func taps() throws -> [ScreenEventAt] {
                try screenEvents().filter { if case .tapped = $0.event { true } else { false } }
            }

            /// The rectangle of the first layer of `kind` in segment `segment`.
            func layer(_ kind: String, segment: Int = 0) throws -> PixelRect {
                let layers = try #require(segments[segment]["layers"] as? [[String: Any]])
                return try DeviceRenderTests.rect(try #require(layers.first { $0["kind"] as? String == kind })["rect"])
            }
        }

        /// A screen event of a render's log and its output frame.
        struct ScreenEventAt: Equatable, CustomStringConvertible {
            var frame: Int64?
            var event: SessionEvent.ScreenEventKind

            var description: String { "\(frame.map(String.init) ?? "-") \(event)" }
        }

        /// Makes the content (1 s, 320x180, flat yellow or ffmpeg's `testsrc2`) and the banner with ffmpeg, then
        /// renders them losslessly with `arguments`.
        static func render(_ arguments: [String], moving: Bool = false, seconds: Int = 1) async throws -> Render {
            let dir = try ScratchDirectory()
            let video = moving ? "testsrc2=s=320x180:r=30:d=\(seconds)" : "color=c=0xdddd22:s=320x180:r=30:d=\(seconds)"
            try FFmpegCommand.run(["-f", "lavfi", "-i", video, "-f", "lavfi", "-i", "sine=d=\(seconds)", "-shortest",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                   dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            let output = dir.path(moving ? "out.mp4" : "out.mkv")
            let result = try await PipctlProcess.run(
                ["render", "--content", dir.path("content.mp4"), "-o", output, "--banner", dir.path("banner.png")]
                    + (moving ? ["--preset", "ultrafast"] : ["--profile", "lossless"]) + arguments)
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return try Render(reading: output, in: dir)
        }

        /// Every luma sample of `rect` is within 3 of `y`.
        static func expectFlat(_ picture: DecodedPicture, _ rect: PixelRect, _ y: Int, _ what: String) {
            let off = picture.luma(in: rect).filter { abs(Int($0) - y) > 3 }
            #expect(off.isEmpty, "\(what): \(off.count) of \(rect.width * rect.height) samples are not \(y): \(off.prefix(8))")
        }

        @Test func theBannerOnAnIPhone15InPortraitIsWhereTheTimelineSaysAndSizedByTheRule() async throws {
            let render = try await Self.render(["--device", "iphone-15"])
            // 393x852 pt at the default 3/2 (852 × 3/2 = 1278 ≤ 1280): 589.5 → the even 590, 1278.
            #expect(render.size == PixelSize(width: 590, height: 1278))
            #expect((render.timeline["output"] as? [String: Any])?["pointScale"] as? String == "3/2")
            // The banner: the safe area's width (393 pt, no side insets in portrait), max(50, min(90, ⌊15% × 852⌋ =
            // 127)) = 90 pt high, its bottom on the safe area's (852 − 34 = 818 pt): top 728 pt → 1092 px, bottom
            // 818 × 3/2 = 1227 → the even 1228.
            let banner = PixelRect(x: 0, y: 1092, width: 590, height: 136)
            #expect(try render.layer("banner") == banner)
            let scene = try #require((render.segments[0]["scenes"] as? [[String: Any]])?.first)
            #expect(scene["id"] as? String == "main" && scene["state"] as? String == "foregroundActive")
            #expect(try Self.rect(scene["rect"]) == PixelRect(x: 0, y: 0, width: 590, height: 1278))
            // Safe area: top 59 pt → 88.5 → 88, bottom 818 pt → 1228.
            #expect(try Self.rect(scene["safeArea"]) == PixelRect(x: 0, y: 88, width: 590, height: 1140))
            let picture = try render.picture(frame: 10)
            Self.expectFlat(picture, banner, Self.bannerY, "banner")
            Self.expectFlat(picture, PixelRect(x: 0, y: 1090, width: 590, height: 2), Self.blackY, "above the banner")
            Self.expectFlat(picture, PixelRect(x: 0, y: 1228, width: 590, height: 50), Self.blackY, "below the banner")
            // --banner lays the banner out below the content: the player's window ends where the banner begins, and
            // the content, 16:9 across its width, is 590x332 at y (1092 − 332) / 2 = 380.
            #expect(try render.layer("content") == PixelRect(x: 0, y: 0, width: 590, height: 1092))
            let content = try Self.rect(render.segments[0]["picture"])
            #expect(content == PixelRect(x: 0, y: 380, width: 590, height: 332))
            Self.expectFlat(picture, content, Self.contentY, "content")
            #expect(render.events.allSatisfy { $0["scene"] as? String == "main" })
        }

        /// The AdMob banner guide puts the banner below the content: in landscape, where the banner would cover the
        /// bottom of the letterboxed picture, `--banner` ends the player's window at the banner.
        @Test func theBannerInLandscapeIsBelowTheContentByDefaultAndOverItWithBannerLayoutOverlay() async throws {
            let render = try await Self.render(["--device", "iphone-15", "--orientation", "landscape"])
            // 852x393 pt at 3/2 → 1278x590; the banner 734x58 pt from x 59, its bottom on 393 − 21 = 372 pt: 88, 472, 1102x86.
            let banner = PixelRect(x: 88, y: 472, width: 1102, height: 86)
            #expect(try render.layer("banner") == banner)
            #expect(try render.layer("content") == PixelRect(x: 0, y: 0, width: 1278, height: 472))
            let content = try Self.rect(render.segments[0]["picture"])
            #expect(content.maxY <= banner.y, "the picture \(content) reaches under the banner \(banner)")
            let picture = try render.picture(frame: 10)
            Self.expectFlat(picture, content, Self.contentY, "the whole content")
            Self.expectFlat(picture, banner, Self.bannerY, "banner")
            // The old layout on request: the window keeps the whole scene and the banner covers the picture's bottom.
            let over = try await Self.render(["--device", "iphone-15", "--orientation", "landscape", "--banner-layout", "overlay"])
            #expect(try over.layer("content") == PixelRect(x: 0, y: 0, width: 1278, height: 590))
            #expect(try Self.rect(over.segments[0]["picture"]).maxY > banner.y)
            Self.expectFlat(try over.picture(frame: 10), banner, Self.bannerY, "banner over the content")
        }

        @Test func bannerLayoutNeedsABannerOnTheCommandLine() async throws {
            let noBanner = try await PipctlProcess.run(["render", "--content", "x.mp4", "--device", "iphone-15", "--banner-layout", "overlay"])
            #expect(noBanner.exitStatus == 2 && noBanner.standardError.contains("--banner-layout needs --banner"), "\(noBanner.standardError)")
            let noDevice = try await PipctlProcess.run(["render", "--content", "x.mp4", "--banner-layout", "below"])
            #expect(noDevice.exitStatus == 2 && noDevice.standardError.contains("--banner-layout needs --device"), "\(noDevice.standardError)")
            let bad = try await PipctlProcess.run(["render", "--content", "x.mp4", "--device", "iphone-15", "--banner", "b.png",
                                                   "--banner-layout", "under"])
            #expect(bad.exitStatus == 2 && bad.standardError.contains("under"), "\(bad.standardError)")
        }

        @Test func theBannerOnAnIPad11InLandscapeSpansTheSafeAreaAtTheBottom() async throws {
            let render = try await Self.render(["--device", "ipad-11", "--orientation", "landscape", "--banner-layout", "overlay"])
            // 1194x834 pt at scale 1 (1194 ≤ 1280, and the iPad's own scale is 2).
            #expect(render.size == PixelSize(width: 1194, height: 834))
            // 1194 pt wide (no side insets), max(50, min(90, ⌊15% × 834⌋ = 125)) = 90 pt, bottom on 834 − 20 = 814.
            let banner = PixelRect(x: 0, y: 724, width: 1194, height: 90)
            #expect(try render.layer("banner") == banner)
            let picture = try render.picture(frame: 0)
            Self.expectFlat(picture, banner, Self.bannerY, "banner")
            Self.expectFlat(picture, PixelRect(x: 0, y: 814, width: 1194, height: 20), Self.blackY, "home indicator area")
            let content = try Self.rect(render.segments[0]["picture"])
            let window = try render.layer("content")
            #expect(window == PixelRect(x: 0, y: 0, width: 1194, height: 834))
            #expect(content.x >= window.x && content.maxX <= window.maxX && content.y >= window.y && content.maxY <= window.maxY)
            // Above the banner the content shows (its bottom rows, 749 and on, are under the banner).
            Self.expectFlat(picture, PixelRect(x: content.x, y: content.y, width: content.width, height: banner.y - content.y),
                            Self.contentY, "content")
        }

        @Test func aRotationTurnsTheDisplayInsideASquareCanvasWithTheBezelAround() async throws {
            let render = try await Self.render(["--device", "iphone-15", "--script", "rotate landscape@0.5"])
            // Both orientations fit in 1278x1278; the portrait display at x 344, the landscape one at y 344.
            #expect(render.size == PixelSize(width: 1278, height: 1278))
            #expect(render.segments.count == 2 && render.segments[1]["outStartFrame"] as? Int == 15)
            #expect(try Self.rect(render.segments[0]["display"]) == PixelRect(x: 344, y: 0, width: 590, height: 1278))
            #expect(try Self.rect(render.segments[1]["display"]) == PixelRect(x: 0, y: 344, width: 1278, height: 590))
            // Landscape banner: 852 − 2 × 59 = 734 pt, ⌊15% × 393⌋ = 58 pt, bottom on 393 − 21 = 372 pt: x 59 → 88,
            // right 793 → 1190, top 314 → 472, bottom 558; moved down by 344.
            let banner = PixelRect(x: 88, y: 816, width: 1102, height: 86)
            #expect(try render.layer("banner", segment: 1) == banner)
            let portrait = try render.picture(frame: 5), landscape = try render.picture(frame: 20)
            Self.expectFlat(portrait, PixelRect(x: 0, y: 0, width: 344, height: 1278), Self.bezelY, "bezel left of the portrait display")
            Self.expectFlat(portrait, try render.layer("banner"), Self.bannerY, "portrait banner")
            Self.expectFlat(landscape, PixelRect(x: 0, y: 0, width: 1278, height: 344), Self.bezelY, "bezel above the landscape display")
            Self.expectFlat(landscape, PixelRect(x: 0, y: 934, width: 1278, height: 344), Self.bezelY, "bezel below the landscape display")
            Self.expectFlat(landscape, banner, Self.bannerY, "landscape banner")
            Self.expectFlat(landscape, try Self.rect(render.segments[1]["picture"]).clipped(above: banner.y), Self.contentY, "landscape content")
            // The width changed: the banner needs a new request, logged for the scene.
            #expect(try render.screenEvents().contains { $0.event == .bannerNeedsReload(scene: "main", size: PointSize(width: 734, height: 58)) })
        }

        @Test func aFoldedFoldableShowsItsOuterDisplayWithTheBezelAround() async throws {
            let render = try await Self.render(["--device", "foldable", "--script", "fold@0.3; unfold@0.6"])
            // Inner display 700x841 pt at 3/2: 1050x1262; the outer 411x796 pt is 616x1194, centred at (216, 34).
            #expect(render.size == PixelSize(width: 1050, height: 1262))
            #expect(render.segments.map { $0["outStartFrame"] as? Int } == [0, 9, 18])
            let outer = PixelRect(x: 216, y: 34, width: 616, height: 1194)
            #expect(try Self.rect(render.segments[1]["display"]) == outer)
            // The player's window is the outer display down to the banner (laid out below the content).
            let bannerTop = try render.layer("banner", segment: 1).y
            #expect(try render.layer("content", segment: 1) == PixelRect(x: outer.x, y: outer.y, width: outer.width, height: bannerTop - outer.y))
            let folded = try render.picture(frame: 12)
            Self.expectFlat(folded, PixelRect(x: 0, y: 0, width: 216, height: 1262), Self.bezelY, "bezel left")
            Self.expectFlat(folded, PixelRect(x: 832, y: 0, width: 218, height: 1262), Self.bezelY, "bezel right")
            Self.expectFlat(folded, PixelRect(x: 216, y: 0, width: 616, height: 34), Self.bezelY, "bezel above")
            Self.expectFlat(folded, try render.layer("banner", segment: 1), Self.bannerY, "folded banner")
            Self.expectFlat(try render.picture(frame: 20), PixelRect(x: 0, y: 0, width: 1050, height: 60), Self.blackY,
                            "the unfolded display's top")
        }

        @Test func pictureInPictureFloatsInsideTheDeviceScene() async throws {
            let render = try await Self.render(["--device", "ipad-11", "--orientation", "landscape", "--script", "pip@0.3"])
            #expect(render.segments.count == 2)
            let pip = try render.layer("pip", segment: 1), window = try render.layer("content", segment: 1)
            // A third of the scene's width, 16 px from the right of its safe area and from the top of its banner.
            let bannerTop = try render.layer("banner", segment: 1).y
            #expect(pip.width == 398 && pip.maxX <= window.maxX - 16 && pip.maxY <= bannerTop - 16)
            let layers = try #require(render.segments[1]["layers"] as? [[String: Any]])
            #expect(layers.map { $0["kind"] as? String } == ["content", "banner", "pip"])
            #expect(try Self.rect(render.segments[1]["picture"]) == pip)
            let picture = try render.picture(frame: 20)
            Self.expectFlat(picture, pip, Self.contentY, "the picture-in-picture window")
            Self.expectFlat(picture, PixelRect(x: 0, y: 0, width: 600, height: 700), Self.slateY, "the scene behind it")
            let banner = try render.layer("banner", segment: 1)
            Self.expectFlat(picture, PixelRect(x: 0, y: banner.y, width: pip.x, height: banner.height), Self.bannerY,
                            "the banner beside the window")
        }

        @Test func verifyChecksADeviceRenderAgainstItsSources() async throws {
            let render = try await Self.render(["--device", "iphone-15", "--script", "pip@1"], moving: true, seconds: 2)
            let result = try await PipctlProcess.run(["verify", render.output, "--sources"], timeout: .seconds(300))
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
        }

        @Test func withoutADeviceTheTimelineAndEventsKeepTheirFormerShape() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=1", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            let result = try await PipctlProcess.run(["render", "--content", dir.path("content.mp4"), "-o", dir.path("out.mp4"),
                                                      "--preset", "ultrafast", "--script", "pip@0.5"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try dir.text("out.mp4.timeline.json"), events = try dir.text("out.mp4.events.jsonl")
            for key in ["\"pointScale\"", "\"display\"", "\"scenes\"", "\"layers\""] {
                #expect(!timeline.contains(key), "\(key) in a render without a device")
            }
            #expect(!events.contains("\"scene\""))
            // The player is the whole canvas, as before devices: 320x180, the picture-in-picture window in it.
            #expect(timeline.contains("\"width\" : 320") && events.contains("PIP_DID_START"))
        }

        @Test func screenOptionsNeedADeviceAndAnUnknownDeviceIsNamed() async throws {
            let noDevice = try await PipctlProcess.run(["render", "--content", "x.mp4", "--banner", "b.png"])
            #expect(noDevice.exitStatus == 2 && noDevice.standardError.contains("--banner needs --device"))
            let unknown = try await PipctlProcess.run(["render", "--device", "pixel-9"])
            #expect(unknown.exitStatus == 2)
            #expect(unknown.standardError.contains("--device: device \"pixel-9\": unknown; use iphone-15, ipad-11, foldable or WxH[@scale]"))
        }
    }
}

private extension PixelRect {
    /// The part of the rectangle above row `y`.
    func clipped(above y: Int) -> PixelRect { PixelRect(x: x, y: self.y, width: width, height: min(maxY, y) - self.y) }
}
