import Foundation
import MediaCore
import Testing
import VideoPipeline
@testable import AdInsertion

/// Picture-in-picture through the whole pipeline: what the session decides is what the pixels show, read back
/// by the verifier inside the window.
@Suite struct StitchPictureInPictureTests {
    /// The screen is 640x360 so that the window (a third of the width: 212x120) carries readable stamps.
    static let screen = PixelSize(width: 640, height: 360)

    func render(_ breaks: [String], script: String, lossless: Bool = true,
                pictureInPicture: PictureInPictureSettings = PictureInPictureSettings(),
                background: String? = nil, in dir: TemporaryDirectory) throws -> (RenderResult, RenderRequest, [SessionEvent]) {
        let media = try StampedMedia.shared
        var request = media.request(try media.plan(breaks), output: dir.file(lossless ? "out.mkv" : "out.mp4"),
                                    encoding: lossless ? EncodingSettings(profile: .lossless) : StampedMedia.fast)
        request.size = Self.screen
        request.script = try SessionScript(parsing: script)
        request.pictureInPicture = pictureInPicture
        request.pictureInPictureBackground = background
        let result = try Stitcher.render(request)
        return (result, request, try EventLog.read(request.eventsFile))
    }

    @Test func aMidRollCueInsideAPictureInPictureIntervalStartsTheMomentItEnds() throws {
        let dir = try TemporaryDirectory()
        let (result, request, events) = try render(["3=ad25.mp4"], script: "pip on@2; pip off@5", in: dir)
        try StampedMedia.expectGoodRender(result, request)
        let segments = result.timeline.segments
        // Full screen until 2 s, then the content goes on in the window past its 3 s cue, until 5 s.
        #expect(segments[0].kind == .content && segments[0].pip == nil && segments[0].outEndFrame == 60)
        let windowed = segments[1]
        #expect(windowed.kind == .content && windowed.outStartFrame == 60 && windowed.outEndFrame == 150)
        #expect(windowed.srcStartTick == 60 && windowed.srcEndTick == 150, "content ticks continue past the cue (tick 90)")
        #expect(windowed.pip == Timeline.Rect(PixelRect(x: 412, y: 226, width: 212, height: 118)))
        // The break starts at the frame picture-in-picture stops, full screen, and the content resumes after it.
        let ad = segments[2]
        #expect(ad.kind == .ad && ad.outStartFrame == 150 && ad.pip == nil)
        #expect(segments[3].kind == .content && segments[3].srcStartTick == 150 && segments[3].outStartFrame == ad.outEndFrame)
        let deferred = try #require(events.first { $0.type == .adBreakDeferred })
        #expect(deferred.frame == 90 && deferred.reason == .pipActive && deferred.cueTime == 3)
        let started = try #require(events.first { $0.type == .adBreakStarted })
        #expect(started.frame == 150 && started.cueTime == 3)
        #expect(events.first { $0.type == .pipDidStop }?.frame == 150)
    }

    @Test func withTheSkipPolicyTheHeldBreakNeverStarts() throws {
        let dir = try TemporaryDirectory()
        let (result, request, events) = try render(["3=ad25.mp4"], script: "pip on@2; pip off@5",
                                                   pictureInPicture: PictureInPictureSettings(breakPolicy: .skip), in: dir)
        try StampedMedia.expectGoodRender(result, request)
        #expect(result.timeline.segments.allSatisfy { $0.kind == .content })
        #expect(events.first { $0.type == .adBreakSkipped }?.reason == .pipActive)
        #expect(result.plan.breaks[0].ads.map(\.state) == [.skipped])
    }

    @Test func anAdPlayingWhenPictureInPictureStartsCarriesOnInTheWindowOnTime() throws {
        let dir = try TemporaryDirectory()
        // A pod of three 1 s ads from 3 s (output frames 90–180); the window opens at 3.5 s and closes at 7 s.
        let (result, request, events) = try render(["3=ad25.mp4,ad24.mp4,ad60.mp4"], script: "pip on@3.5; pip off@7", in: dir)
        try StampedMedia.expectGoodRender(result, request)
        let ads = StampedMedia.adSegments(result.timeline)
        #expect(ads.map(\.outStartFrame) == [90, 105, 120, 150])
        #expect(ads[0].pip == nil && ads[1].pip != nil && ads[2].pip != nil && ads[3].pip != nil,
                "the first ad splits where the window opens; the rest of the pod plays in it")
        #expect(ads.last?.outEndFrame == 180)
        // Quartiles keep their times: the second ad (frames 120–149) has its midpoint 15 frames in.
        let midpoints = events.filter { $0.type == .midpoint }.map { $0.frame ?? -1 }
        #expect(midpoints == [105, 135, 165])
        // Back to content in the window, then full screen at 7 s.
        let content = result.timeline.segments.filter { $0.kind == .content && $0.outStartFrame >= 180 }
        #expect(content.first?.pip != nil && content.first?.srcStartTick == 90)
        #expect(content.dropFirst().first?.outStartFrame == 210 && content.dropFirst().first?.pip == nil)
    }

    @Test func pictureInPictureIsRefusedWithoutBackgroundPlayback() throws {
        let dir = try TemporaryDirectory()
        let (result, request, events) = try render([], script: "pip on@1; pip off@2",
                                                   pictureInPicture: PictureInPictureSettings(isBackgroundPlaybackEnabled: false), in: dir)
        try StampedMedia.expectGoodRender(result, request)
        #expect(result.timeline.segments.allSatisfy { $0.pip == nil })
        let failed = try #require(events.first { $0.type == .pipFailedToStart })
        #expect(failed.frame == 30 && failed.message == "background playback is not enabled")
    }

    @Test func theWindowAnimatesOverAnImageBackgroundAndEveryFrameStillVerifies() throws {
        let dir = try TemporaryDirectory()
        // A solid red backdrop.
        try StampedMedia.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=320x180", "-frames:v", "1", dir.file("red.png")])
        let (result, request, _) = try render([], script: "pip on@1; pip off@3",
                                              pictureInPicture: PictureInPictureSettings(transitionFrames: 6),
                                              background: dir.file("red.png"), in: dir)
        try StampedMedia.expectGoodRender(result, request)
        // The move in takes six frames (from the full screen down), the move out five (back up to it): one segment
        // per frame, each rectangle a step of the way.
        let moving = result.timeline.segments.filter { $0.pip != nil && $0.pip?.width != 212 }
        #expect(moving.allSatisfy { $0.frameCount == 1 })
        #expect(moving.map(\.outStartFrame) == [30, 31, 32, 33, 34, 35, 91, 92, 93, 94, 95])
        let shrinking = moving.prefix(6).compactMap { $0.pip?.width }
        #expect(shrinking == [640, 568, 496, 426, 354, 282])
        // The backdrop is red around the window: decode output frame 45 and look at its top-left corner.
        let raw = dir.file("frame45.rgb")
        try StampedMedia.ffmpeg(["-i", request.outputPath, "-vf", "select=eq(n\\,45)", "-frames:v", "1",
                                 "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let corner = Array(pixels[(10 * 640 + 10) * 3..<(10 * 640 + 10) * 3 + 3])
        #expect(corner[0] > 200 && corner[1] < 60 && corner[2] < 60, "red backdrop, got \(corner)")
    }
}
