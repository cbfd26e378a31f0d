import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl render --session` with a native slider: a response of three cards (the second requires a rating,
    /// which no card template shows) and its images made by the `ffmpeg` command line, rendered losslessly on an
    /// iPhone 15 (3/2 px per point), the output decoded again by `ffmpeg`.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct NativeSliderTests {
        typealias Device = DeviceRenderTests
        /// The main images' colours, one per card.
        static let colours = [0xCC3333, 0x30A0E0, 0x208040]

        /// Writes the response (its trackers at `trackers`), its images and a session playing `seconds` of flat
        /// content with `script`, its slider loading `source` (the response's file by default) with `placement`'s
        /// other keys (JSON members, as `"latencyMs": 500`).
        static func session(_ dir: ScratchDirectory, script: [String], trackers: String, seconds: Int = 3,
                            source: String = "slider.json", placement: String = "") throws -> String {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=\(seconds)", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            var ads: [String] = []
            for (i, colour) in colours.enumerated() {
                try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x\(String(colour, radix: 16)):s=1200x628", "-frames:v", "1",
                                       dir.path("main\(i).png")])
                let rating = i == 1 ? #", {"id": 3, "required": 1, "data": {"type": 3, "value": "4.5"}}"# : ""
                ads.append("""
                {"adid": "ad\(i)", "crid": "c\(i)",
                 "assets": [{"id": 1, "required": 1, "title": {"text": "Card \(i)"}},
                            {"id": 2, "img": {"type": 3, "url": "main\(i).png", "w": 1200, "h": 628}}\(rating)],
                 "link": {"url": "https://shop.example/\(i)", "clicktrackers": ["\(trackers)/click\(i)"]},
                 "imptrackers": ["\(trackers)/imp\(i)"]}
                """)
            }
            _ = try dir.write(#"{"ver": "1.2", "assets": [{"id": 100, "required": 1, "data": {"type": 1, "value": "Ads"}}], "ads": ["#
                              + ads.joined(separator: ",") + "]}", to: "slider.json")
            let lines = script.map { "\"\($0)\"" }.joined(separator: ", ")
            return try dir.write("""
            {"device": "iphone-15",
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "s", "source": "\(source)", "template": {"slots": ["title", "media"]}\(placement)}]}],
             "script": [\(lines)]}
            """, to: "session.json")
        }

        @Test func aSliderLogsItsPhasesImpressionsBindingFailureAndClickAndDrawsItsCardsWhereTheTimelineSays() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let session = try Self.session(dir, script: ["load slider@0.2", "swipe left@1.6", "tap 200,200@2.5"],
                                           trackers: server.baseURL.absoluteString)
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--profile", "lossless",
                                                      "--send-beacons"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let render = try Device.Render(reading: output, in: dir)
            let native = render.events.filter { $0["placement"] as? String == "s" }
            func line(_ e: [String: Any]) -> String {
                ["type", "frame", "phase", "card", "adId", "event"].compactMap { k in e[k].map { "\(k)=\($0)" } }.joined(separator: " ")
            }
            // Loaded at frame 6 (0.2 s); the block counts at once; card 0 after one second at least half visible
            // (frame 36). The swipe at frame 48 moves the row linearly over 9 frames by 279 pt (the row is 12 + 320
            // + 8 + 320 + 12 = 672 pt in a 393 pt viewport): card 2, at 340 pt before, is half visible once 107 pt
            // have gone, 0.115 s in, at frame 52, and counts at frame 82. The tap at 2.5 s (frame 75) hits it.
            #expect(native.map(line) == [
                "type=onAdLoadPhase frame=0 phase=idle",
                "type=onAdLoadPhase frame=6 phase=loading",
                "type=onAdLoadPhase frame=6 phase=loaded",
                "type=onAdLoad frame=6",
                "type=onAdBindingFailure frame=6 card=1 adId=ad1",
                "type=onAdImpression frame=6",
                "type=onAdImpression frame=36 card=0 adId=ad0",
                "type=BEACON frame=36 card=0 adId=ad0 event=impression",
                "type=onAdClick frame=75 card=2 adId=ad2",
                "type=BEACON frame=75 card=2 adId=ad2 event=clickTracking",
                "type=onAdImpression frame=82 card=2 adId=ad2",
                "type=BEACON frame=82 card=2 adId=ad2 event=impression",
            ])
            #expect(native.first { $0["type"] as? String == "onAdClick" }?["url"] as? String == "https://shop.example/2")
            let frames = render.events.compactMap { $0["frame"] as? Int }
            #expect(frames == frames.sorted())
            // The trackers went out over HTTP, once each.
            #expect(server.requests.map(\.target).sorted() == ["/click2", "/imp0", "/imp2"])

            // The timeline at frame 20: the slider across the safe area from its top (59 pt → 88.5 px, to the even
            // 88), card 0 12 pt in and 36 pt down (header: 12 + 16 + 8), 320 x 206 pt (12 + 20 title + 8 + 154
            // media + 12): from 95 pt (142.5 → 142) to 301 pt (451.5 → 452), 480 x 310 px; card 2 (the next bound
            // one) 8 pt after it.
            let segment = try #require(render.segments.first { ($0["outStartFrame"] as? Int ?? 0) <= 20 && 20 < ($0["outEndFrame"] as? Int ?? 0) })
            let layers = try #require(segment["layers"] as? [[String: Any]])
            let cards = layers.filter { $0["kind"] as? String == "card" }
            #expect(cards.map { $0["index"] as? Int } == [0, 2])
            #expect(cards.map { $0["adId"] as? String } == ["ad0", "ad2"])
            let slider = try Device.rect(layers.first { $0["kind"] as? String == "slider" }?["rect"])
            let card = try Device.rect(cards[0]["rect"])
            #expect(slider.x == 0 && slider.y == 88 && slider.width == 590)
            #expect(card == PixelRect(x: 18, y: 142, width: 480, height: 310))
            #expect(try Device.rect(cards[1]["rect"]).x == 510)

            // From the pixels: card 0's main image (12 pt in, 40 pt down, 296 x 154 pt) shows main0.png's colour as
            // ffmpeg decodes it; the title's ink lies inside its frame (12 pt in and down, 296 x 20 pt).
            let picture = try RGBPicture(file: output, size: render.size, frame: 20)
            let image = try RGBPicture(file: dir.path("main0.png"), size: PixelSize(width: 1200, height: 628), frame: 0)
            let media = PixelRect(x: card.x + 18 + 4, y: card.y + 60 + 4, width: 444 - 8, height: 231 - 8)
            let expected = image.mean(in: PixelRect(x: 0, y: 0, width: 1200, height: 628))
            #expect(zip(picture.mean(in: media), expected).allSatisfy { abs($0 - $1) <= 4 }, "\(picture.mean(in: media)) vs \(expected)")
            let title = PixelRect(x: card.x + 18, y: card.y + 18, width: 444, height: 30)
            let luma = try DecodedPicture(file: output, size: render.size, frame: 20)
            var ink: [(Int, Int)] = []
            for y in card.y..<(card.y + 60) {
                for x in card.x..<card.maxX where luma.y(x, y) < 128 { ink.append((x, y)) }
            }
            #expect(!ink.isEmpty, "no title drawn")
            let outside = ink.filter { !title.contains(PixelRect(x: $0.0, y: $0.1, width: 1, height: 1)) }
            #expect(outside.isEmpty, "\(outside.count) ink pixels outside the title's frame \(title): \(outside.prefix(5))")
        }

        @Test func anImageThatCannotBeFetchedIsAWarningAndItsFrameStaysGrey() async throws {
            let dir = try ScratchDirectory()
            let session = try Self.session(dir, script: ["load slider@0"], trackers: "https://t.example")
            try FileManager.default.removeItem(atPath: dir.path("main0.png"))
            let output = dir.path("out.mkv")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--profile", "lossless"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardError.contains("warning: \(dir.path("main0.png"))"), "\(result.standardError)")
            #expect(!result.standardError.contains("VAST error"), "a native image is not VAST: \(result.standardError)")
            let render = try Device.Render(reading: output, in: dir)
            let card = try Device.rect(try #require((render.segments[0]["layers"] as? [[String: Any]])?.first { $0["kind"] as? String == "card" })["rect"])
            // The placeholder's grey (0xB0B0B0) where main0.png would be.
            let picture = try RGBPicture(file: output, size: render.size, frame: 5)
            #expect(picture.shows(0xB0B0B0, in: PixelRect(x: card.x + 22, y: card.y + 64, width: 436, height: 223), tolerance: 4))
        }

        @Test func aBadNativePlacementIsAnErrorNamingItsJSONPath() async throws {
            let dir = try ScratchDirectory()
            let session = try dir.write("""
            {"device": "iphone-15",
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "s", "source": "slider.json", "style": "carousel"}]}]}
            """, to: "session.json")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", dir.path("out.mp4")])
            #expect(result.exitStatus == 2)
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
            #expect(result.standardError.contains(#"session.json: scenes[0].native[0].style: "carousel" is not one of "slider", "single""#),
                    "\(result.standardError)")
        }

        /// A present whose ad fails covers nothing, so the slider's cards are seen and counted as if it had not
        /// been typed (the native run follows the screen ads' settled timeline).
        @Test func aPresentThatFailsCoversNoCardSoItsImpressionStillCounts() async throws {
            let dir = try ScratchDirectory()
            _ = try Self.session(dir, script: [], trackers: "https://t.example")
            let session = try dir.write("""
            {"device": "iphone-15", "testMode": true,
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "s", "source": "slider.json", "template": {"slots": ["title", "media"]}}]}],
             "script": ["load slider@0", "present interstitial feed@0.3"]}
            """, to: "session.json")
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", output, "--preset", "ultrafast"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let events = try String(contentsOfFile: output + ".events.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(events.contains { $0.contains("ad:didFailToPresentFullScreenContentWithError") }, "\(events)")
            #expect(events.contains { $0.contains(#""type":"onAdImpression""#) && $0.contains(#""card":0"#) }, "\(events)")
        }

        @Test func overlappingPlacementsAreAnErrorNamingBothAndTheJSONPath() async throws {
            let dir = try ScratchDirectory()
            _ = try Self.session(dir, script: [], trackers: "https://t.example")
            let session = try dir.write("""
            {"device": "iphone-15",
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "s", "source": "slider.json"}, {"id": "t", "source": "slider.json", "top": 100}]}],
             "script": ["load slider s@0.2", "load slider t@0.5"]}
            """, to: "session.json")
            let result = try await PipctlProcess.run(["render", "--session", session, "-o", dir.path("out.mp4")])
            #expect(result.exitStatus == 2)
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
            let lines = result.standardError.split(separator: "\n")
            // One line, and the usage hint.
            #expect(lines.count == 2 && lines[1].hasPrefix("See 'pipctl render --help'"), "\(result.standardError)")
            #expect(lines.first?.contains(#"session.json: scenes[0].native[1].top: native placement "t" (100 to "#) == true, "\(result.standardError)")
            #expect(lines.first?.contains(#"overlaps "s" (0 to "#) == true, "\(result.standardError)")
        }

        @Test(arguments: [(["--device", "iphone-15"], "load slider@0.5"), ([], "swipe left@1")])
        func aNativeCommandWithoutANativePlacementIsAnErrorNamingIt(options: [String], command: String) async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path
            let result = try await PipctlProcess.run(["render", "--content", content, "--script", command, "-o", dir.path("out.mp4")] + options)
            #expect(result.exitStatus == 2)
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 2 && lines[0].contains("script command \"\(command)\": no native placement: native commands need a session file"),
                    "\(result.standardError)")
        }
    }
}
