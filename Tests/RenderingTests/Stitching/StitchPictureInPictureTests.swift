import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// Picture-in-picture through the whole pipeline: what the session decides is what the pixels show, read back
/// by the verifier inside the window. One render proves it; the rules themselves (breaks held while the window is
/// up, the skip policy, an ad carrying on in the window, the refusal without background playback) are proved
/// frame by frame in `PlaybackSessionPictureInPictureTests`, and the window's place on this screen in
/// `PictureInPictureLayoutTests`.
@Suite struct StitchPictureInPictureTests {
    /// The screen is 640x360 so that the window (a third of the width: 212x120) carries readable stamps.
    static let screen = PixelSize(width: 640, height: 360)

    func render(_ breaks: [String], script: String, lossless: Bool = true,
                pictureInPicture: PictureInPictureSettings = PictureInPictureSettings(),
                background: String? = nil, in dir: TemporaryDirectory) throws -> (RenderResult, RenderRequest, [SessionEvent]) {
        let media = try StampedMedia.shared
        var request = media.request(try media.plan(breaks), output: dir.file(lossless ? "out.mkv" : "out.mp4"),
                                    encoding: lossless ? EncodingSettings(profile: .lossless) : StampedMedia.fast)
        request.format.size = Self.screen
        request.script = try SessionScript(parsing: script)
        request.pictureInPicture = pictureInPicture
        request.pictureInPictureBackground = background
        let result = try Stitcher.render(request)
        return (result, request, try EventLog.read(request.eventsFile))
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
        // At rest between the moves, the window the layout gives this screen.
        let window = Timeline.Rect(PixelRect(x: 412, y: 226, width: 212, height: 118))
        #expect(result.timeline.segments.contains { $0.pip == window && $0.outStartFrame == 36 })
        let moving = result.timeline.segments.filter { $0.pip != nil && $0.pip != window }
        #expect(moving.allSatisfy { $0.frameCount == 1 })
        #expect(moving.map(\.outStartFrame) == [30, 31, 32, 33, 34, 35, 91, 92, 93, 94, 95])
        let shrinking = moving.prefix(6).compactMap { $0.pip?.width }
        #expect(shrinking == [640, 568, 496, 426, 354, 282])
        // The backdrop is red around the window: decode output frame 45 and look at its top-left corner.
        let raw = dir.file("frame45.rgb")
        try StampedMedia.ffmpeg(["-i", request.output.path, "-vf", "select=eq(n\\,45)", "-frames:v", "1",
                                 "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let corner = Array(pixels[(10 * 640 + 10) * 3..<(10 * 640 + 10) * 3 + 3])
        #expect(corner[0] > 200 && corner[1] < 60 && corner[2] < 60, "red backdrop, got \(corner)")
    }
}
