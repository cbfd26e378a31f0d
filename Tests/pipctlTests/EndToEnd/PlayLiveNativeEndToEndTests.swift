import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl play --session` with a native slider served by a loopback ad server: `load slider`, `swipe left` and a
    /// `tap` typed while it plays give the events a script gives (phases at the frames they happen, the block's and
    /// the cards' impressions, the click), the cards are drawn after the load, and the command log replayed by
    /// `render` gives the same events at the same frames.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct PlayLiveNativeTests {
        typealias Device = DeviceRenderTests
        typealias Layers = LayerVerifyTests

        /// The slider's events (placement "s") in what `play` printed so far, one JSON object each.
        static func printed(_ text: String) -> [[String: Any]] {
            text.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("{"), let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      event["placement"] as? String == "s" else { return nil }
                return event
            }
        }

        /// An event as `type frame phase card adId event`, the fields the live and batch paths must share.
        static func line(_ e: [String: Any], frames: Bool = true) -> String {
            (frames ? ["type", "frame", "phase", "card", "adId", "event"] : ["type", "phase", "card", "adId", "event"])
                .compactMap { k in e[k].map { "\(k)=\($0)" } }.joined(separator: " ")
        }

        /// Serves the response and its images written by `NativeSliderTests.session` from `dir`.
        static func serve(_ dir: ScratchDirectory, on server: LoopbackHTTPServer) {
            server.route("/slider.json", .file(URL(fileURLWithPath: dir.path("slider.json")), contentType: "application/json"))
            for i in NativeSliderTests.colours.indices {
                server.route("/main\(i).png", .file(URL(fileURLWithPath: dir.path("main\(i).png")), contentType: "image/png"))
            }
        }

        /// Moves `play`'s clock on until it has printed an event of the slider for which `condition` holds.
        static func waitFor(_ play: SteppedPlay, _ what: String, _ condition: @escaping ([String: Any]) -> Bool) async throws {
            try await play.advance(until: what) { printed($0).contains(where: condition) }
        }

        @Test func typedLoadSwipeAndTapDriveTheSliderAsTheScriptWouldAndTheCommandLogReplays() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            // A latency of half a second, longer than a loopback fetch: the load lands where a render lands it.
            let session = try NativeSliderTests.session(dir, script: [], trackers: server.baseURL.absoluteString, seconds: 12,
                                                        source: server.baseURL.absoluteString + "/slider.json",
                                                        placement: #", "latencyMs": 500"#)
            Self.serve(dir, on: server)
            let recording = dir.path("rec.mkv")
            // --step: the session's clock moves only as the test says, so it outlasts the typed commands however
            // busy the machine (it ends at `quit`), and each lands at the frame after the time reached.
            let play = try SteppedPlay(["play", "--session", session, "--record", recording, "--profile", "lossless"])
            try await Self.waitFor(play, "the idle phase") { $0["phase"] as? String == "idle" }
            #expect(server.requests.isEmpty, "nothing loads before load slider")
            try play.type("load slider\n")
            try await Self.waitFor(play, "card 0's impression") { $0["type"] as? String == "onAdImpression" && $0["card"] as? Int == 0 }
            try play.type("swipe left\n")
            try await Self.waitFor(play, "card 2's impression") { $0["type"] as? String == "onAdImpression" && $0["card"] as? Int == 2 }
            // 200,180 pt of the device lies on card 2 (x 61…381 pt, y 95…301 pt) once the row has moved one card (as
            // in the render test): a tap is in the device's points, though play's canvas holds both orientations (the
            // display drawn at x 344).
            try play.type("tap 200,180\n")
            try await Self.waitFor(play, "the click") { $0["type"] as? String == "onAdClick" }
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")

            let live = try Device.Render(reading: recording, in: dir)
            let native = live.events.filter { $0["placement"] as? String == "s" }
            #expect(native.map { Self.line($0, frames: false) } == [
                "type=onAdLoadPhase phase=idle",
                "type=onAdLoadPhase phase=loading",
                "type=onAdLoadPhase phase=loaded",
                "type=onAdLoad",
                "type=onAdBindingFailure card=1 adId=ad1",
                "type=onAdImpression",
                "type=onAdImpression card=0 adId=ad0",
                "type=BEACON card=0 adId=ad0 event=impression",
                "type=onAdImpression card=2 adId=ad2",
                "type=BEACON card=2 adId=ad2 event=impression",
                "type=onAdClick card=2 adId=ad2",
                "type=BEACON card=2 adId=ad2 event=clickTracking",
            ])
            let frames = native.map { $0["frame"] as? Int ?? -1 }
            // Loaded 15 frames (0.5 s at 30 fps) after the load began; card 0 counts one second later.
            #expect(frames[2] - frames[1] == 15 && frames[6] - frames[2] == 30, "\(frames)")
            #expect(native.first { $0["type"] as? String == "onAdClick" }?["url"] as? String == "https://shop.example/2")
            #expect(server.requests(for: "/slider.json").count == 1)

            // While loading, the placeholder's grey (0xB0B0B0) stands where the slider will be; once loaded, card 0's
            // main image shows main0.png's colour.
            let loading = frames[1] + 5
            let placeholder = try #require(Self.layers(live, frame: loading).first { $0["kind"] as? String == "slider" })
            let grey = try Device.rect(placeholder["rect"])
            #expect(try RGBPicture(file: recording, size: live.size, frame: loading)
                .shows(0xB0B0B0, in: PixelRect(x: grey.x + 4, y: grey.y + 4, width: grey.width - 8, height: grey.height - 8), tolerance: 4))
            let shown = frames[6]
            let cards = Self.layers(live, frame: shown).filter { $0["kind"] as? String == "card" }
            #expect(cards.map { $0["index"] as? Int } == [0, 2])
            let card = try Device.rect(cards[0]["rect"])
            let picture = try RGBPicture(file: recording, size: live.size, frame: shown)
            let image = try RGBPicture(file: dir.path("main0.png"), size: PixelSize(width: 1200, height: 628), frame: 0)
            let media = PixelRect(x: card.x + 18 + 4, y: card.y + 60 + 4, width: 444 - 8, height: 231 - 8)
            let expected = image.mean(in: PixelRect(x: 0, y: 0, width: 1200, height: 628))
            #expect(zip(picture.mean(in: media), expected).allSatisfy { abs($0 - $1) <= 4 }, "\(picture.mean(in: media)) vs \(expected)")

            // The command log replayed by `render --session … --script @LOG` (as `play --help` says) gives the same
            // events at the same frames, though the render's canvas is the portrait device's alone (590 px wide, not
            // play's 1278): the tap is in the device's points, so it clicks card 2 in both.
            let output = dir.path("replay.mkv")
            let replay = try await PipctlProcess.run(["render", "--session", session, "--script", "@" + recording + ".commands.txt",
                                                      "-o", output, "--profile", "lossless"])
            try #require(replay.exitStatus == 0, "\(replay.standardError)")
            let rendered = try Device.Render(reading: output, in: dir)
            #expect(rendered.size.width == 590 && live.size.width == 1278)
            let replayed = rendered.events.filter { $0["placement"] as? String == "s" }
            #expect(replayed.map { Self.line($0) } == native.map { Self.line($0) })
            let taps = try live.taps(), replayedTaps = try rendered.taps()
            #expect(taps.count == 1 && replayedTaps == taps, "\(taps) \(replayedTaps)")
            // The screen model's layer under the card is the scene's content; only a tap on nothing of its own is the card's.
            #expect(taps.map(\.event) == [.tapped(x: 200, y: 180, on: .layer(.content, scene: "feed"))], "\(taps)")

            // Replayed at another point scale (2 px per point, where play drew 3/2), the log's tap still clicks card 2:
            // it is in points. Read as pixels it would be 100,90 pt there, on the block's header above the cards.
            let doubled = try dir.write(try String(contentsOfFile: session, encoding: .utf8)
                .replacingOccurrences(of: #"{"device": "iphone-15","#, with: #"{"device": "iphone-15", "pointScale": 2,"#), to: "doubled.json")
            let large = dir.path("doubled.mkv")
            let replayed2 = try await PipctlProcess.run(["render", "--session", doubled, "--script", "@" + recording + ".commands.txt",
                                                         "-o", large, "--profile", "lossless"])
            try #require(replayed2.exitStatus == 0, "\(replayed2.standardError)")
            let twice = try Device.Render(reading: large, in: dir)
            #expect(twice.size.width == 786)
            #expect(twice.events.filter { $0["placement"] as? String == "s" }.map { Self.line($0) } == native.map { Self.line($0) })
            #expect(try twice.taps() == taps)
        }

        /// `play` of the bundled rotating slider session (its own script, no typed command): the images it fetched as
        /// they arrived are named in its recording's timeline, where they were read from, as a render names them, so
        /// the recording verifies; before, a card's image had no source there and verify expected the grey placeholder.
        @Test func aPlayRecordingNamesEachCardImagesSourceAndVerifies() async throws {
            let dir = try ScratchDirectory()
            let recording = dir.path("rec.mp4")
            let media = PipctlProcess.repositoryRoot.appendingPathComponent("media")
            let play = try await PipctlProcess.run(["play", "--session", media.appendingPathComponent("rotating-slider.session.json").path,
                                                    "--record", recording, "--speed", "4"])
            try #require(play.exitStatus == 0, "\(play.standardError)")
            let live = try Device.Render(reading: recording, in: dir)
            let images = live.segments.flatMap { $0["layers"] as? [[String: Any]] ?? [] }.filter { $0["kind"] as? String == "card" }
            #expect(!images.isEmpty)
            let named = Set(images.compactMap { $0["source"] as? String })
            #expect(named.contains(media.appendingPathComponent("native-card-1.png").path), "\(named)")
            let (verified, _) = try await Layers.verify(recording, sources: false)
            #expect(verified.exitStatus == 0, "\(verified.standardOutput)\(verified.standardError)")
        }

        /// A render refuses placements drawn over each other before it starts; `play` knows a slider's height only
        /// once its load lands, so a typed load that would be drawn over another placement of its scene is refused
        /// then (`LOG` `refused` naming both) and not shown, while the older placement plays on.
        @Test func aTypedLoadDrawnOverAnotherPlacementIsRefusedNamingBothAndNotShown() async throws {
            let dir = try ScratchDirectory()
            _ = try NativeSliderTests.session(dir, script: [], trackers: "http://127.0.0.1:9", seconds: 12)
            // Other ads for "t", so that none is left out as a duplicate of "s"'s.
            let response = try String(contentsOfFile: dir.path("slider.json"), encoding: .utf8)
            _ = try dir.write(response.replacingOccurrences(of: #""adid": "ad"#, with: #""adid": "td"#)
                .replacingOccurrences(of: #""crid": "c"#, with: #""crid": "tc"#), to: "other.json")
            let session = try dir.write("""
            {"device": "iphone-15",
             "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                         "native": [{"id": "s", "source": "slider.json", "template": {"slots": ["title", "media"]}},
                                    {"id": "t", "source": "other.json", "top": 100, "template": {"slots": ["title", "media"]}}]}],
             "script": []}
            """, to: "session.json")
            let ofT = { (text: String) in
                text.split(separator: "\n").compactMap { line -> [String: Any]? in
                    guard line.hasPrefix("{"), let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                          event["placement"] as? String == "t" else { return nil }
                    return event
                }
            }
            // --step: the session's clock moves only as the test says, so it outlasts the typed commands however
            // busy the machine (it ends at `quit`), and each lands at the frame after the time reached.
            let play = try SteppedPlay(["play", "--session", session, "--events", dir.path("events.jsonl")])
            try await Self.waitFor(play, "the idle phase") { $0["phase"] as? String == "idle" }
            try play.type("load slider s\n")
            try await Self.waitFor(play, "the load of s") { $0["type"] as? String == "onAdLoad" }
            try play.type("load slider t\n")
            try await play.advance(until: "the refusal of t") { ofT($0).contains { $0["reason"] as? String == "refused" } }
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")

            let events = try String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)
            let t = ofT(events)
            let refused = t.filter { $0["reason"] as? String == "refused" }
            #expect(refused.count == 1, "\(t)")
            let message = refused.first?["message"] as? String ?? ""
            #expect(message.hasPrefix(#"native placement "t" is not shown: it would be drawn over "s" in scene "feed" (100 to "#), "\(message)")
            #expect(t.last { $0["type"] as? String == "onAdLoadPhase" }?["phase"] as? String == "idle", "\(t)")
            #expect(!t.contains { $0["type"] as? String == "onAdImpression" }, "\(t)")
            #expect(!Self.printed(events).contains { $0["reason"] as? String == "refused" }, "s is shown on")
        }

        @Test func aFailedLoadTypedLiveIsRetriedByTheNextAndALoadUnderWayOrOfAnUnknownPlacementIsRefused() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let session = try NativeSliderTests.session(dir, script: [], trackers: server.baseURL.absoluteString, seconds: 12,
                                                        source: server.baseURL.absoluteString + "/slider.json",
                                                        placement: #", "latencyMs": 300, "maxRetries": 1"#)
            server.route("/slider.json", LoopbackHTTPServer.Response(status: 503, contentType: "text/plain", body: Data("busy".utf8)))
            // --step: the session's clock moves only as the test says, so it outlasts the typed commands however
            // busy the machine (it ends at `quit`), and each lands at the frame after the time reached.
            let play = try SteppedPlay(["play", "--session", session, "--events", dir.path("events.jsonl")])
            try await Self.waitFor(play, "the idle phase") { $0["phase"] as? String == "idle" }
            // A placement the session does not have is refused; the next two lines apply at the same frame: the
            // second finds the first under way.
            try play.type("load slider nope\n")
            try await play.advance(untilShown: "no native placement is called")
            try play.type("load slider\nload slider\n")
            try await Self.waitFor(play, "the failure") { $0["type"] as? String == "onAdFailure" }
            Self.serve(dir, on: server)
            try play.type("load slider\n")
            try await Self.waitFor(play, "the load") { $0["type"] as? String == "onAdLoad" }
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")

            let events = try String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)
            #expect(events.contains(#""message":"load slider nope: no native placement is called \"nope\" (there are \"s\")""#), "\(events)")
            let native = Self.printed(events).filter { $0["type"] as? String != "BEACON" && $0["type"] as? String != "onAdImpression" }
            #expect(native.map { [Self.line($0, frames: false), $0["failure"] as? String, $0["reason"] as? String].compactMap { $0 }.joined(separator: " ") } == [
                "type=onAdLoadPhase phase=idle",
                "type=onAdLoadPhase phase=loading",
                "type=LOG refused",
                "type=onAdLoadPhase phase=failed",
                "type=onAdFailure httpError",
                "type=onAdLoadPhase phase=loading",
                "type=onAdLoadPhase phase=loaded",
                "type=onAdLoad",
                "type=onAdBindingFailure card=1 adId=ad1",
            ])
            #expect(native[2]["message"] as? String == "load slider: a load is already under way")
            #expect((native[4]["message"] as? String)?.contains("503") == true, "\(native[4])")
            #expect(server.requests(for: "/slider.json").count == 2)
            let frames = native.map { $0["frame"] as? Int ?? -1 }
            // Each load lasts 300 ms (9 frames) on the output clock, its answer having come sooner.
            #expect(frames[1] == frames[2] && frames[3] - frames[1] == 9 && frames[6] - frames[5] == 9, "\(frames)")
        }

        /// A response `play` loads as it goes names the recording's event log (a PNG left there, which a fetch would
        /// read as card 0's image) as a card's image: it is not read but refused as an image that cannot be fetched,
        /// with a warning naming the file and why, and the session plays on and writes its recording and event log.
        @Test func aLiveLoadedImageThatIsAnOutputIsRefusedAndTheRecordingIsWritten() async throws {
            let dir = try ScratchDirectory()
            let session = try NativeSliderTests.session(dir, script: [], trackers: "http://127.0.0.1:9", seconds: 12)
            let recording = dir.path("rec.mkv")
            let log = recording + ".events.jsonl"
            try FileManager.default.copyItem(atPath: dir.path("main0.png"), toPath: log)
            _ = try dir.write(try String(contentsOfFile: dir.path("slider.json"), encoding: .utf8)
                .replacingOccurrences(of: #""url": "main0.png""#, with: #""url": "rec.mkv.events.jsonl""#), to: "slider.json")
            // --step: the session's clock moves only as the test says, so it outlasts the typed commands however
            // busy the machine (it ends at `quit`), and each lands at the frame after the time reached.
            let play = try SteppedPlay(["play", "--session", session, "--record", recording, "--profile", "lossless"])
            try await Self.waitFor(play, "the idle phase") { $0["phase"] as? String == "idle" }
            try play.type("load slider\n")
            let warning = "pipctl play: warning: \(log): refused: it is the output the event log \(log)"
            try await play.advance(untilShown: warning, onStandardError: true)
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.errorLines.filter { $0.contains("refused") } == [warning])

            let live = try Device.Render(reading: recording, in: dir)
            #expect(live.events.contains { $0["placement"] as? String == "s" && $0["type"] as? String == "onAdLoad" })
            let sources = live.segments.flatMap { $0["layers"] as? [[String: Any]] ?? [] }.compactMap { $0["source"] as? String }
            #expect(!sources.contains(log), "\(sources)")
        }

        /// The layers of the timeline's segment holding output frame `frame`.
        static func layers(_ render: Device.Render, frame: Int) -> [[String: Any]] {
            let segment = render.segments.first { ($0["outStartFrame"] as? Int ?? 0) <= frame && frame < ($0["outEndFrame"] as? Int ?? 0) }
            return segment?["layers"] as? [[String: Any]] ?? []
        }
    }
}
