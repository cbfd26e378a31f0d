import Foundation
import LoopbackServer
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl play --show` (issue 38): a real SDL window on a virtual X display (Xvfb), driven by xdotool as a person
    /// would drive it, its sound written by SDL's disk driver.
    @Suite(.enabled(if: FFmpegCommand.isAvailable && VirtualDisplay.isAvailable, "needs ffmpeg, Xvfb, xdotool and xwd"))
    struct PlayShowTests {
        typealias Native = PlayLiveNativeTests

        /// Every JSON event `play` printed so far.
        static func events(_ text: String) -> [[String: Any]] {
            text.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("{") else { return nil }
                return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
        }

        /// Moves the clock of `play --step` on until it has printed an event for which `condition` holds: the window's
        /// inputs are taken after each frame, so a key pressed while the clock stands applies at the next frame.
        static func waitFor(_ play: SteppedPlay, _ what: String, _ condition: @escaping ([String: Any]) -> Bool) async throws {
            try await play.advance(until: what) { events($0).contains(where: condition) }
        }

        /// Presses `key` (q, Escape) in the window and moves the clock on until it quits: the key is taken after the
        /// next frame. (Not by ending the input: a paused session whose input ends stops at once, before the key.)
        static func quit(_ play: SteppedPlay, by key: String, on display: VirtualDisplay) async throws -> PipctlResult {
            try display.xdotool("key", key)
            return try await play.advanceUntilItEnds()
        }

        static func isCommand(_ event: [String: Any], _ text: String) -> Bool {
            event["type"] as? String == "COMMAND" && (event["message"] as? String)?.hasPrefix(text) == true
        }

        /// The window's id, found by its title once `play` says it is shown.
        static func window(of play: PipctlProcess, on display: VirtualDisplay) async throws -> String {
            try await play.waitForOutput(containing: "pipctl play: window shown", onStandardError: true, timeout: .seconds(90))
            let ids = try display.xdotool("search", "--sync", "--name", "^pipctl play")
            return try #require(ids.split(separator: "\n").first.map(String.init))
        }

        /// A slider session played with the window: `p` starts picture-in-picture, a drag leftwards across the slider
        /// swipes it, a click on card 2 taps it, the wheel scrolls, space pauses, q quits. The event log has each as a `COMMAND` and what
        /// it did (PIP_DID_START, card 2's impression after the swipe, its click) at the frame it applied; the command
        /// log has them for a replay; and the window shows what the recording holds, within a small tolerance.
        @Test func keysAndMouseDriveTheSessionAndTheWindowShowsTheRecordedFrame() async throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let session = try NativeSliderTests.session(dir, script: ["load slider@0.2"], trackers: server.baseURL.absoluteString, seconds: 120)
            let recording = dir.path("rec.mkv")
            let play = try SteppedPlay(["play", "--session", session, "--show", "--record", recording, "--profile", "lossless"],
                                       environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
            let window = try await Self.window(of: play.process, on: display)
            try display.xdotool("windowfocus", "--sync", window)
            try await Self.waitFor(play, "card 0's impression") { $0["type"] as? String == "onAdImpression" && $0["card"] as? Int == 0 }

            try display.xdotool("key", "p")
            try await Self.waitFor(play, "PIP_DID_START") { $0["type"] as? String == "PIP_DID_START" }
            // 744,300 lies on the slider (the portrait display starts at x = 344 on play's canvas): dragged 200 px left.
            try display.xdotool("mousemove", "--window", window, "744", "300", "mousedown", "1",
                                "mousemove", "--window", window, "644", "302", "mousemove", "--window", window, "544", "304", "mouseup", "1")
            try await Self.waitFor(play, "card 2's impression") { $0["type"] as? String == "onAdImpression" && $0["card"] as? Int == 2 }
            try display.xdotool("mousemove", "--window", window, "644", "300", "click", "1")
            try await Self.waitFor(play, "the click") { $0["type"] as? String == "onAdClick" }
            // The wheel turned one step down (X's button 5): on to card 1 from the card last scrolled to (0).
            try display.xdotool("click", "5")
            try await Self.waitFor(play, "the scroll") { Self.isCommand($0, "scroll 1") }

            // Paused, the picture holds: the window keeps the frame the recording repeats to its end. A second of
            // paused play (every frame is drawn with --step), then the screenshot.
            try display.xdotool("key", "space")
            try await Self.waitFor(play, "the pause") { Self.isCommand($0, "pause") }
            try await play.advance(milliseconds: 1000)
            let title = try display.xdotool("getwindowname", window)
            #expect(title.contains("| paused"), "\(title)")
            let shot = try display.screenshot(window: window, into: dir.path("window.xwd"))
            let result = try await Self.quit(play, by: "q", on: display)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardError.contains("pipctl play: window: "), "\(result.standardError)")
            // On --step's clock the sound would not be the recording's: the window is silent, and says so.
            #expect(result.standardError.contains("pipctl play: --show plays no sound with --step"), "\(result.standardError)")

            let live = try DeviceRenderTests.Render(reading: recording, in: dir)
            let commands = live.events.filter { $0["type"] as? String == "COMMAND" }.compactMap { $0["message"] as? String }
            #expect(commands.contains("pip") && commands.contains("swipe left s") && commands.contains("tap 200,200")
                    && commands.contains("scroll 1") && commands.contains("pause") && commands.contains("quit"), "\(commands)")
            func frame(_ condition: ([String: Any]) -> Bool) -> Int? { live.events.first(where: condition)?["frame"] as? Int }
            // Each applies at the frame its command was logged at.
            #expect(frame { Self.isCommand($0, "pip") } == frame { $0["type"] as? String == "PIP_WILL_START" })
            let swipe = try #require(frame { Self.isCommand($0, "swipe left") })
            let tap = try #require(frame { Self.isCommand($0, "tap 200,200") })
            #expect(frame { $0["type"] as? String == "onAdClick" && $0["card"] as? Int == 2 } == tap)
            #expect(try #require(frame { $0["type"] as? String == "onAdImpression" && $0["card"] as? Int == 2 }) > swipe)
            let log = try String(contentsOfFile: recording + ".commands.txt", encoding: .utf8)
            for command in ["pip@", "swipe left s@", "tap 200,200@", "scroll 1@", "pause@", "quit@"] {
                #expect(log.contains(command), "\(log)")
            }

            // The window at 1:1 (the virtual screen holds the canvas) against the recording's last frame.
            #expect(shot.size == live.size)
            let frames = try #require((live.timeline["output"] as? [String: Any])?["frames"] as? Int)
            let recorded = try RGBPicture(file: recording, size: live.size, frame: frames - 1)
            let difference = zip(shot.bytes, recorded.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(difference) / Double(shot.bytes.count)
            #expect(mean < 3, "mean difference \(mean) per channel")
        }

        /// The window resized to half the canvas: the picture is scaled, and a click lands where it is on the device's
        /// screen, in the device's points (output pixel 800,400, twice the window's, is the iPhone's pixel 456,400 on
        /// play's canvas, its point 304,267), as a typed `tap` would.
        @Test func aClickInAResizedWindowTapsTheDevicesPointUnderIt() async throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let dir = try ScratchDirectory()
            let content = PipctlProcess.repositoryRoot.appendingPathComponent("media/content.mp4").path
            let play = try SteppedPlay(["play", "--content", content, "--device", "iphone-15", "--show", "--events", dir.path("events.jsonl")],
                                       environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
            let window = try await Self.window(of: play.process, on: display)
            try await play.process.waitForOutput(containing: "window shown 1278x1278", onStandardError: true)
            try display.xdotool("windowsize", "--sync", window, "639", "639")
            // Once the title has changed twice, play has taken its window's events (the resize among them) after
            // frames drawn since: the click then lands on the resized window.
            var titles: Set<String> = [try display.xdotool("getwindowname", window)]
            while titles.count < 3 {
                try await play.advance(milliseconds: 100)
                titles.insert(try display.xdotool("getwindowname", window))
            }
            try display.xdotool("mousemove", "--window", window, "400", "200")
            try display.xdotool("click", "1")
            do { try await Self.waitFor(play, "the tap") { Self.isCommand($0, "tap ") } } catch {
                Issue.record("\(error); standard error: \(play.process.standardErrorSoFar)")
                throw error
            }
            try display.xdotool("windowfocus", "--sync", window)
            let result = try await Self.quit(play, by: "q", on: display)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let taps = Self.events(result.standardOutput).filter { Self.isCommand($0, "tap ") }.compactMap { $0["message"] as? String }
            #expect(taps == ["tap 304,267"])
        }

        /// `SECONDS` of a title `pipctl play - 0:00:12.400 content …`.
        static func seconds(inTitle title: String) -> Double? {
            guard let dash = title.range(of: " - ") else { return nil }
            let clock = title[dash.upperBound...].prefix { $0 != " " }
            let parts = clock.split(separator: ":").compactMap { Double($0) }
            guard parts.count >= 2 else { return nil }
            return parts.reduce(0) { $0 * 60 + $1 }
        }

        /// The sound of the demo goes to SDL's disk driver: what it wrote starts with the recording's samples (a
        /// lossless recording: 16-bit PCM, rounded from the floats by 32767 and read back by 32768, so equal within two
        /// steps of 16 bits).
        @Test func theWindowPlaysTheSessionsSound() async throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let dir = try ScratchDirectory()
            let sound = dir.path("sound.f32")
            let content = PipctlProcess.repositoryRoot.appendingPathComponent("media/content.mp4").path
            let recording = dir.path("rec.mkv")
            let play = try PipctlProcess(["play", "--content", content, "--show", "--record", recording, "--profile", "lossless"], keepsInputOpen: true,
                                         environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": sound])
            let window = try await Self.window(of: play, on: display)
            // A second of content shown, then the window's close key.
            try await waitUntil("a second of play", timeout: .seconds(90)) {
                (Self.seconds(inTitle: try display.xdotool("getwindowname", window)) ?? 0) >= 1
            }
            try display.xdotool("windowfocus", "--sync", window)
            try display.xdotool("key", "Escape")
            let result = try await play.result(timeout: .seconds(120))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(!result.standardError.contains("plays no sound"), "\(result.standardError)")

            let written = try Data(contentsOf: URL(fileURLWithPath: sound))
            let expected = try FFmpegCommand.run(["-i", recording, "-map", "0:a:0", "-t", "0.1", "-f", "f32le", "-"])
            // SDL's disk driver writes silence while the device waits for the first frame; from the first sample that
            // is not silence, its first callback (1024 frames) holds frame 0's samples unchanged. The demo's sound starts
            // at once (its first sample is not 0).
            let got = written.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }.drop(while: { $0 == 0 }).prefix(2048)
            let want = expected.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }.prefix(2048)
            try #require(want.first != 0 && got.count == 2048 && want.count == 2048, "\(written.count) bytes written")
            let worst = zip(got, want).map { abs($0 - $1) }.max() ?? 1
            #expect(worst <= 2.0 / 32768, "largest difference \(worst)")
        }

        /// Without a display, `--show` says so in one line and exits 2, before it reads anything: the missing content
        /// is not even looked at, and nothing is recorded.
        @Test func withoutADisplayShowFailsInOneLine() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["play", "--show", "--content", dir.path("missing.mp4"), "--record", dir.path("rec.mp4")],
                                                     environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
            #expect(result.exitStatus == 2)
            #expect(result.errorLines == ["pipctl play: --show: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)"])
            #expect(dir.entries().isEmpty)
            // A display named that cannot be opened: the same, with SDL's reason.
            let unreachable = try await PipctlProcess.run(["play", "--show", "--content", dir.path("missing.mp4")],
                                                          environment: ["DISPLAY": ":987", "SDL_VIDEODRIVER": ""])
            #expect(unreachable.exitStatus == 2)
            #expect(unreachable.errorLines == ["pipctl play: --show: no display found (SDL_InitSubSystem(SDL_INIT_VIDEO) failed: x11 not available)"])
        }
    }
}
