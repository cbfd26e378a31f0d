import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// A source whose first picture is asked for far into it seeks there rather than decoding everything before it: a
/// passthrough render decodes no content picture until its first cut.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make the clip"))
struct FirstPictureSeekTests {
    @Test func theFirstPictureFarInIsReachedBySeeking() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("long.mp4")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=40", "-c:v", "libx264", "-preset", "ultrafast",
                              "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-pix_fmt", "yuv420p", path)
        let track = try VideoTrack(path: path, outputRate: FrameRate(30), origin: .zero)
        _ = try track.frame(atTick: 1000)
        // From the IDR at frame 960 (and the one decoded when it was opened), not the 1000 frames before it.
        #expect(track.decodedFrames <= 60, "\(track.decodedFrames) pictures decoded")
        // And the picture is frame 1000's: the next one asked for, 1001, is one more decode away.
        let before = track.decodedFrames
        _ = try track.frame(atTick: 1001)
        #expect(track.decodedFrames == before + 1)
    }
}
