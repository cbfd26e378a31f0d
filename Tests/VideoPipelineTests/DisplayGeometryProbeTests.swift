import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The display-geometry rule as `MediaProbe` reads it from files made by the `ffmpeg` command line.
@Suite(.enabled(if: FFmpegTool.isAvailable)) struct DisplayGeometryProbeTests {
    let dir = TemporaryDirectory("display-geometry")

    private func video(_ path: String) throws -> StreamInfo {
        try #require(try MediaProbe.probe(path).bestVideo)
    }

    @Test func aWebMFlaggedFourByThreeIsShownFourByThree() throws {
        // VP9 states no aspect of its own: the 4:3 lives only in the Matroska header (DisplayWidth/Height).
        let path = dir.path("flagged.webm")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=0.4", "-c:v", "libvpx-vp9",
                              "-deadline", "realtime", "-aspect", "4:3", path)
        let geometry = try #require(try video(path).geometry)
        #expect(geometry.codedSize == PixelSize(width: 640, height: 360))
        #expect(geometry.containerSampleAspect == Rational(3, 4))
        #expect(geometry.displayAspect == Rational(4, 3))
        #expect(try video(path).displaySize == PixelSize(width: 480, height: 360))
    }

    @Test func theContainerAspectOverridesTheBitstreams() throws {
        // H.264 whose own header says square pixels, remuxed into Matroska flagged 4:3.
        let square = dir.path("square.mp4"), flagged = dir.path("flagged.mkv")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=0.4", "-vf", "setsar=1",
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", square)
        try FFmpegTool.ffmpeg("-i", square, "-c", "copy", "-aspect", "4:3", flagged)
        let stream = try video(flagged)
        #expect(stream.geometry?.bitstreamSampleAspect == .one)
        #expect(stream.geometry?.containerSampleAspect == Rational(3, 4))
        #expect(stream.sampleAspectRatio == Rational(3, 4))
        #expect(stream.displayAspect == Rational(4, 3))
    }

    @Test func anAnamorphicBitstreamAspectIsHonoured() throws {
        // testsrc keeps an odd width (testsrc2 and libx264's 4:2:0 would make it 852); FFV1 stores it as it is.
        let path = dir.path("anamorphic.mkv")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc=size=853x480:rate=25:duration=0.4", "-vf", "setsar=32/27",
                              "-c:v", "ffv1", "-pix_fmt", "yuv420p", path)
        let stream = try video(path)
        #expect(stream.sampleAspectRatio == Rational(32, 27))
        #expect(stream.displayAspect == Rational(853 * 32, 480 * 27))
        // 853 × 32/27 = 1010.96 → 1011, the canvas 1010 (even).
        #expect(stream.geometry?.displaySize == PixelSize(width: 1011, height: 480))
        #expect(stream.displaySize == PixelSize(width: 1010, height: 480))
    }

    /// `rotate=90` is what phones write: ffmpeg's own autorotate shows such a clip turned a quarter counterclockwise
    /// (ffprobe's `rotation=90`), `rotate=270` a quarter clockwise.
    @Test(arguments: [90, 270, 180])
    func aDisplayMatrixTurnsThePicture(rotate: Int) throws {
        let plain = dir.path("plain.mp4"), turned = dir.path("turned-\(rotate).mp4")
        try FFmpegTool.makeClip(plain, size: "320x180", seconds: 0.4, audio: false)
        try FFmpegTool.ffmpeg("-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", turned)
        let stream = try video(turned)
        #expect(stream.geometry?.orientation == DisplayOrientation(rotation: rotate))
        #expect(stream.size == PixelSize(width: 320, height: 180))
        let shown = rotate == 180 ? PixelSize(width: 320, height: 180) : PixelSize(width: 180, height: 320)
        #expect(stream.displaySize == shown)
        #expect(try video(plain).geometry?.orientation == .upright)
    }

    /// FFmpeg's display matrices (16.16 fixed point; `av_display_rotation_set` and `av_display_matrix_flip`): a
    /// negative determinant is a mirror, taken out before the rotation is read.
    @Test func aMirroredDisplayMatrixIsReadAsAMirror() {
        let one: Int32 = 1 << 16, w: Int32 = 1 << 30
        // The matrices ffmpeg 5.1 writes for rotate=270 and rotate=90 (ffprobe: rotation -90 and 90), and the first
        // mirrored left to right (its first column negated).
        #expect(DisplayOrientation(displayMatrix: [0, one, 0, -one, 0, 0, 0, 0, w]) == DisplayOrientation(rotation: 270))
        #expect(DisplayOrientation(displayMatrix: [0, -one, 0, one, 0, 0, 0, 0, w]) == DisplayOrientation(rotation: 90))
        let mirroredQuarter: [Int32] = [0, one, 0, one, 0, 0, 0, 0, w]
        #expect(DisplayOrientation(displayMatrix: mirroredQuarter) == DisplayOrientation(rotation: 270, mirrored: true))
        // ffmpeg's autorotate shows [1 0; 0 -1] flipped top to bottom: a half turn, then a mirror.
        let verticalFlip: [Int32] = [one, 0, 0, 0, -one, 0, 0, 0, w]
        #expect(DisplayOrientation(displayMatrix: verticalFlip) == DisplayOrientation(rotation: 180, mirrored: true))
        #expect(DisplayOrientation(displayMatrix: [one, 0, 0, 0, one, 0, 0, 0, w]) == .upright)
    }
}
