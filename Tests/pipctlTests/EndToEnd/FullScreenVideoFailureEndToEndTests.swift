import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// A video interstitial whose media fails to decode part-way does not stop the render: it is dismissed at the
    /// frame it failed on, with reason `mediaUnavailable`, and that frame is decided again: it already shows the
    /// content it covered playing on.
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct FullScreenVideoFailureTests {
        typealias Video = FullScreenVideoTests

        @Test func aVideoThatFailsPartWayIsDismissedWithItsErrorAndTheContentResumes() async throws {
            let dir = try ScratchDirectory()
            try Video.makeMedia(in: dir)
            let whole = try Data(contentsOf: URL(fileURLWithPath: dir.path("ad.mp4")))
            try CorruptMedia.withMediaDataZeroed(whole, from: 0.5).write(to: URL(fileURLWithPath: dir.path("broken.mp4")))
            // Presented at 0.5 s (frame 15), dismissed by the script at 2 s (frame 60).
            let render = try await Video.render(in: dir, media: "broken.mp4")

            let lines = Video.fullScreenLines(render)
            #expect(lines.prefix(5) == ["0.5 adWillPresentFullScreenContent", "0.5 CONTENT_PAUSE_REQUESTED", "0.5 adDidRecordImpression",
                                        "0.5 BEACON:impression", "0.5 STARTED"])
            let dismissed = try #require(render.events.first { $0["type"] as? String == "adWillDismissFullScreenContent" })
            let failedAt = try #require(dismissed["time"] as? Double)
            #expect(failedAt > 0.5 && failedAt < 1.5, "it failed part-way, before its end")
            #expect(dismissed["reason"] as? String == "mediaUnavailable")
            #expect((dismissed["message"] as? String)?.contains("broken.mp4") == true)
            #expect(lines.filter { $0.hasPrefix("\(failedAt) ") && !$0.contains("QUARTILE") && !$0.contains("MIDPOINT") && !$0.contains("BEACON") }
                == ["\(failedAt) adWillDismissFullScreenContent", "\(failedAt) adDidDismissFullScreenContent", "\(failedAt) CONTENT_RESUME_REQUESTED"])
            #expect(!lines.contains { $0.contains("COMPLETE") }, "what it had not reached never fires")
            #expect(lines.filter { $0.contains("Dismiss") }.count == 2, "the script's dismiss finds nothing to dismiss")

            // The timeline: no full-screen layer and the content playing on from the frame of the failure itself.
            let frame = Int((failedAt * 30).rounded())
            let after = render.segments.filter { ($0["outEndFrame"] as? Int ?? 0) > frame }
            #expect(after.first?["outStartFrame"] as? Int ?? .max <= frame, "a segment holds the frame of the failure")
            for segment in after {
                #expect(!((segment["layers"] as? [[String: Any]])?.contains { $0["kind"] as? String == "fullscreen" } ?? false))
                #expect(segment["paused"] as? Bool == false)
            }
            #expect(render.events.last?["reason"] as? String == "contentEnded", "the content played to its end")

            // The pixels: after the failure the window of "left" shows the yellow content, decoded by ffmpeg.
            let window = try render.layer("content", segment: render.segments.count - 1)
            let content = try DecodedPicture(file: dir.path("content.mp4"), size: PixelSize(width: 320, height: 180), frame: 0)
            let atFailure = try render.picture(frame: frame)
            DeviceRenderTests.expectFlat(atFailure, PixelRect(x: window.x + window.width / 4, y: window.y + window.height / 2 - 4,
                                                          width: window.width / 2, height: 8),
                                         Int(content.y(160, 90)), "the content in the window at the frame of the failure")
        }

        /// Once its video has failed part-way nothing covers the scene, as after a present that failed: the next
        /// `present` there is heard (the ad was shown once, so it fails with `adNotLoaded`) and a `dismiss` refused.
        @Test func afterAVideoFailsPartWayItsSceneIsUncoveredSoThePresentIsHeardAndTheDismissRefused() async throws {
            let dir = try ScratchDirectory()
            try Video.makeMedia(in: dir)
            let whole = try Data(contentsOf: URL(fileURLWithPath: dir.path("ad.mp4")))
            try CorruptMedia.withMediaDataZeroed(whole, from: 0.5).write(to: URL(fileURLWithPath: dir.path("broken.mp4")))
            // Presented at 0.5 s, failed before 1.5 s; then a present at 2 s (frame 60) and a dismiss at 2.5 s (frame 75).
            let render = try await Video.render(in: dir, media: "broken.mp4",
                                                script: ["present interstitial left@0.5", "present interstitial left@2", "dismiss left@2.5"])

            let dismissed = try #require(render.events.first { $0["type"] as? String == "adWillDismissFullScreenContent" })
            #expect(dismissed["reason"] as? String == "mediaUnavailable" && (dismissed["time"] as? Double ?? 9) < 1.5)
            let failed = render.events.filter { $0["type"] as? String == "ad:didFailToPresentFullScreenContentWithError" }
            #expect(failed.map { $0["frame"] as? Int } == [60], "the present at 2 s is heard: \(render.events)")
            #expect(failed.first?["reason"] as? String == "adNotLoaded")
            let refused = render.events.filter { $0["reason"] as? String == "refused" }
            #expect(refused.map { $0["frame"] as? Int } == [75], "\(refused)")
            #expect((refused.first?["message"] as? String)?.contains("scene \"left\" presents nothing") == true, "\(refused)")
            let messages = render.events.compactMap { $0["message"] as? String }
            #expect(!messages.contains { $0.contains("already presents") }, "\(messages)")
            #expect(render.events.filter { $0["type"] as? String == "adWillDismissFullScreenContent" }.count == 1)
            #expect(render.events.last?["reason"] as? String == "contentEnded", "the content played to its end")
        }
    }
}
