import AdPlayback
import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// A tap is in the device's points, so it lands on the same layer whatever the canvas: on a canvas that
    /// holds both orientations (a script that rotates, or any `play`), the display is placed in the middle of it
    /// and the banner with it, and a tap at the banner's place on the device still lands on it.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct ScreenTapsTests {
        typealias Device = DeviceRenderTests

        static func session(script: [String]) -> String {
            let lines = script.map { "\"\($0)\"" }.joined(separator: ", ")
            return """
                {"device": "iphone-15", "orientation": "portrait",
                 "scenes": [{"id": "main", "player": {"content": "CONTENT"}, "banner": {"source": "banner.png", "layout": "below"}}],
                 "script": [\(lines)]}
                """
        }

        static func centre(_ r: PixelRect) -> (x: Int, y: Int) { (r.x + r.width / 2, r.y + r.height / 2) }

        /// The iPhone 15's point nearest to a pixel at its default 3/2 pixels per point, as a tap takes it.
        static func points(_ p: (x: Int, y: Int)) -> (x: Int, y: Int) {
            (Int((Rational(Int64(p.x)) * Rational(2, 3)).rounded), Int((Rational(Int64(p.y)) * Rational(2, 3)).rounded))
        }

        /// iPhone 15 portrait turning landscape at 1 s: a first render says where the banner is drawn (its timeline
        /// rectangle, and its colour there in the pixels) and where it is on the device (the rectangle less the
        /// display's place in the canvas; the bezel, in the pixels). A second render taps both: the tap at the
        /// banner's place on the device logs its click, in portrait and after the rotation; the one at the canvas
        /// pixels it is drawn at is off the device (refused).
        @Test func aTapOnTheBannerAtItsPlaceOnTheDeviceLogsItsClickInARotatingRender() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            let probe = try await ScreenLayoutsTests.render(Self.session(script: ["rotate landscape@1"]), in: dir)
            let portrait = try ScreenLayoutsTests.rect(probe, "banner", frame: 9)
            let landscape = try ScreenLayoutsTests.rect(probe, "banner", frame: 45)
            let segment = try #require(probe.segments.first { ($0["outStartFrame"] as? Int ?? .max) <= 9 && 9 < ($0["outEndFrame"] as? Int ?? 0) })
            let display = try Device.rect(segment["display"])
            // The canvas is square (both orientations fit), so the portrait display sits right of its left edge.
            try #require(display.x > 0, "the portrait display is placed at x \(display.x)")
            let drawn = Self.centre(portrait), turned = Self.centre(landscape), drawnPoints = Self.points(drawn)
            // Where the banner would be if the display were not placed: the same rectangle from the canvas's corner.
            let unplaced = Self.centre(PixelRect(x: portrait.x - display.x, y: portrait.y - display.y,
                                                 width: portrait.width, height: portrait.height))
            try #require(!portrait.contains(PixelRect(x: unplaced.x, y: unplaced.y, width: 1, height: 1)))
            // The pixels agree with the timeline: the banner's blue where it is drawn, the bezel where it is not.
            let before = try probe.picture(frame: 9), after = try probe.picture(frame: 45)
            #expect(abs(Int(before.y(drawn.x, drawn.y)) - Device.bannerY) <= 2)
            #expect(abs(Int(after.y(turned.x, turned.y)) - Device.bannerY) <= 2)
            #expect(abs(Int(before.y(unplaced.x, unplaced.y)) - Device.bezelY) <= 2)

            // The turned banner on the turned device.
            let landscapeSegment = try #require(probe.segments.first { ($0["outStartFrame"] as? Int ?? .max) <= 45 && 45 < ($0["outEndFrame"] as? Int ?? 0) })
            let turnedDisplay = try Device.rect(landscapeSegment["display"])
            let turnedOnDevice = Self.points((x: turned.x - turnedDisplay.x, y: turned.y - turnedDisplay.y))
            let onDevice = Self.points(unplaced)
            // The taps, in the device's points: one where the banner is drawn on the canvas (off the device), one at
            // its place on the device (its landing screen then covers the player), one after the rotation.
            _ = try dir.write(Self.session(script: [
                "tap \(drawnPoints.x),\(drawnPoints.y)@0.3", "tap \(onDevice.x),\(onDevice.y)@0.5", "dismiss main@0.7", "rotate landscape@1",
                "tap \(turnedOnDevice.x),\(turnedOnDevice.y)@1.5",
            ]).replacingOccurrences(of: "CONTENT", with: try await ScreenLayoutsTests.short.path), to: "tapped.json")
            let output = dir.path("tapped.mkv")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("tapped.json"), "-o", output,
                                                      "--profile", "lossless"], timeout: .seconds(300))
            try #require(result.exitStatus == 0, "\(result.standardError)")
            let tapped = try Device.Render(reading: output, in: dir)
            let clicks = tapped.events.filter { $0["type"] as? String == "bannerViewDidRecordClick" }.compactMap { $0["time"] as? Double }
            let taps = try tapped.taps()
            #expect(clicks == [0.5, 1.5], "\(taps)")
            let refused = tapped.events.filter { $0["reason"] as? String == "refused" }.compactMap { $0["message"] as? String }
            #expect(refused.count == 1 && refused.first?.hasPrefix("tap \(drawnPoints.x),\(drawnPoints.y) ignored: ") == true, "\(refused)")
            #expect(taps.map(\.event) == [.tapped(x: onDevice.x, y: onDevice.y, on: .layer(.banner, scene: "main")),
                                          .tapped(x: turnedOnDevice.x, y: turnedOnDevice.y, on: .layer(.banner, scene: "main"))])
        }

        /// `play --session` draws on a canvas that holds both orientations from the start (it may be turned at any
        /// time), so an iPhone 15 in portrait (393x852 points at 3/2) sits at x 344 of 1278; a tap is in the
        /// device's points, as in a render of the session: a live tap at x 197 (pixel 296) lands on the banner the
        /// recording draws at x 639, and one at x 426 (pixel 639) is off the 393 point wide device.
        @Test func aLiveTapOnTheBannerAtItsPlaceOnTheDeviceLogsItsClick() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=30", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("banner.png")])
            _ = try dir.write(Self.session(script: []).replacingOccurrences(of: "CONTENT", with: "content.mp4"), to: "live.json")
            let recording = dir.path("rec.mkv")
            let play = try PipctlProcess(["play", "--session", dir.path("live.json"), "--record", recording, "--profile", "lossless"],
                                         keepsInputOpen: true)
            try await play.waitForOutput(containing: #""type":"bannerViewDidRecordImpression""#)
            try play.write("tap 426,773\n")
            try await play.waitForOutput(containing: "tap 426,773 ignored")
            try play.write("tap 197,773\n")
            try await play.waitForOutput(containing: #""type":"bannerViewDidRecordClick""#)
            try play.write("quit\n")
            let result = try await play.result(timeout: .seconds(120))
            #expect(result.exitStatus == 0, "\(result.standardError)")

            let live = try Device.Render(reading: recording, in: dir)
            let banner = try live.layer("banner")
            #expect(banner.contains(PixelRect(x: 639, y: 1160, width: 1, height: 1)), "the banner is drawn at \(banner)")
            #expect(!banner.contains(PixelRect(x: 295, y: 1160, width: 1, height: 1)))
            #expect(try live.taps().map(\.event) == [.tapped(x: 197, y: 773, on: .layer(.banner, scene: "main"))])
            #expect(live.events.filter { $0["type"] as? String == "bannerViewDidRecordClick" }.count == 1)
        }
    }
}
