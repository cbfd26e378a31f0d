import AdPlayback
import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// docs/RENDERING.md's slider demo: `media/slider.session.json` renders as docs/RENDERING.md says, with the feed's player above
    /// the slider, and the render verifies against its stamps and against its sources.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct SliderDemoTests {
        @Test func theBundledSliderSessionRendersItsEventsAndVerifies() async throws {
            let dir = try ScratchDirectory()
            let media = PipctlProcess.repositoryRoot.appendingPathComponent("media").path
            try FileManager.default.copyItem(atPath: media, toPath: dir.path("media"))
            // The README runs it after the quick start, which made `out/`.
            try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: false)
            let render = try await PipctlProcess.run(["render", "--session", "media/slider.session.json", "-o", "out/slider.mp4"],
                                                     directory: dir.url, timeout: .seconds(600))
            try #require(render.exitStatus == 0, "\(render.standardError)")
            #expect(render.standardOutput.hasPrefix("out/slider.mp4: 330 frames (0:11) 590x1278 at 30 fps"))
            let output = dir.path("out/slider.mp4")
            let result = try DeviceRenderTests.Render(reading: output, in: dir)

            // The guide's story in the event log: loaded on the explicit `load slider` at 1 s; card 2 (app-3) lacks
            // its required rating and fails binding alone; the block counts at once, each card after a second on
            // screen (card 3 after the second swipe, since card 2 is left out); the tap at 8 s clicks card 3.
            let native = result.events.filter { $0["placement"] as? String == "feed-slider" && $0["type"] as? String != "BEACON" }
            #expect(native.map { e in ["type", "frame", "phase", "card", "adId"].compactMap { k in e[k].map { "\($0)" } }.joined(separator: " ") } == [
                "onAdLoadPhase 0 idle", "onAdLoadPhase 30 loading", "onAdLoadPhase 30 loaded", "onAdLoad 30",
                "onAdBindingFailure 30 2 app-3", "onAdImpression 30",
                "onAdImpression 60 0 bike-1", "onAdImpression 153 1 tea-2", "onAdImpression 213 3 shoe-4",
                "onAdClick 240 3 shoe-4",
            ])
            #expect(result.events.filter { $0["type"] as? String == "BEACON" }.count == 7)
            // The tap's own line names the card it clicked, not "nothing".
            let taps = try result.taps()
            #expect(taps.map(\.event) == [.tapped(x: 133, y: 467, on: .nativeCard(card: 3, adID: "shoe-4", placement: "feed-slider"))], "\(taps)")

            // A feed: the player at the top of the safe area (59 pt → 88 px, 221 pt tall), the slider below it,
            // neither over the other, on every frame.
            for segment in result.segments {
                let layers = try #require(segment["layers"] as? [[String: Any]])
                let content = try DeviceRenderTests.rect(try #require(layers.first { $0["kind"] as? String == "content" })["rect"])
                #expect(content == PixelRect(x: 0, y: 88, width: 590, height: 332))
                for slider in layers where slider["kind"] as? String == "slider" {
                    #expect(try DeviceRenderTests.rect(slider["rect"]).y >= content.maxY)
                }
            }
            // From the pixels (ffmpeg's decode) at 2 s: the player's picture fills its frame's width and is not
            // black, and the slider's light grey shows just below it.
            let picture = try RGBPicture(file: output, size: result.size, frame: 60)
            #expect(picture.mean(in: PixelRect(x: 0, y: 100, width: 590, height: 300)).reduce(0, +) > 3 * 40)
            #expect(picture.shows(0xE8E8EC, in: PixelRect(x: 0, y: 440, width: 590, height: 8)))

            for arguments in [["verify", "out/slider.mp4"], ["verify", "out/slider.mp4", "--sources"]] {
                let verify = try await PipctlProcess.run(arguments, directory: dir.url, timeout: .seconds(300))
                #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
                #expect(verify.standardOutput.contains(": OK — "), "\(verify.standardOutput)")
            }
        }
    }
}
