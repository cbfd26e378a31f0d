import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The transcode's direct path (issue 39): a picture that fills the output is scaled straight into the encoder's
/// frame, on libswscale's slice threads, and gives the pictures the compositor gives; one that needs bars or
/// turning is still drawn by the compositor.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make the inputs"))
struct DirectScalerTests {
    let dir = TemporaryDirectory("direct-scaler")

    /// Every plane of a yuv420p frame, row by row without the padding.
    private static func pixels(_ frame: Frame) -> [[UInt8]] {
        (0..<3).map { index in
            let plane = frame.planeView(index)
            return (0..<plane.height).flatMap { y in (0..<plane.width).map { x in plane[x, y] } }
        }
    }

    /// Decodes `path` tick by tick at `size`; for each picture, the compositor's canvas and the direct scaler's
    /// frame at 1, 2 and automatic slice threads must be the same bytes.
    private func expectDirectEqualsComposited(_ path: String, size: PixelSize, ticks: Int64 = 6) throws {
        let format = OutputFormat(size: size, frameRate: FrameRate(25), sampleRate: 48000, channels: 2)
        let source = try MediaSource(path: path, format: format)
        let compositor = try Compositor(size: size)
        let scalers = [1, 2, 0].map { DirectScaler(size: size, threads: $0) }
        for tick in 0..<min(ticks, source.frameCount) {
            let picture = try source.picture(atTick: tick)
            #expect(scalers[0].fills(picture), "\(path) should fill \(size)")
            try compositor.draw(picture, in: PixelRect(size: size))
            let composited = DirectScalerTests.pixels(compositor.picture.frame)
            for scaler in scalers {
                let target = try Frame.picture(size)
                try scaler.scale(picture, into: target)
                #expect(DirectScalerTests.pixels(target) == composited, "\(path) tick \(tick), \(scaler.threads) threads")
            }
        }
    }

    @Test func anUpscaledPictureIsTheCompositorsToTheBit() throws {
        let path = dir.path("small.mp4")
        try FFmpegTool.makeClip(path, size: "320x240", seconds: 0.4, audio: false)
        try expectDirectEqualsComposited(path, size: PixelSize(width: 640, height: 480))
    }

    @Test func aDownscaledPictureIsTheCompositorsToTheBit() throws {
        let path = dir.path("large.mp4")
        try FFmpegTool.makeClip(path, size: "1280x720", seconds: 0.4, audio: false)
        try expectDirectEqualsComposited(path, size: PixelSize(width: 426, height: 240))
    }

    /// Full-range (yuvj420p) pictures: the range conversion reaches every slice context.
    @Test func aFullRangePictureIsTheCompositorsToTheBit() throws {
        let path = dir.path("full-range.mp4")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=0.4", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuvj420p", path)
        try expectDirectEqualsComposited(path, size: PixelSize(width: 640, height: 360))
    }

    /// 10-bit 4:2:2 to 8-bit 4:2:0, and a bitstream aspect (480x360 at 4:3 pixels shows 16:9).
    @Test func otherFormatsAndAnAnamorphicPictureAreTheCompositors() throws {
        let deep = dir.path("deep.mkv"), anamorphic = dir.path("anamorphic.mkv")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=0.4", "-c:v", "ffv1",
                              "-pix_fmt", "yuv422p10le", deep)
        try expectDirectEqualsComposited(deep, size: PixelSize(width: 640, height: 360))
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=480x360:rate=25:duration=0.4", "-vf", "setsar=4/3",
                              "-c:v", "ffv1", "-pix_fmt", "yuv420p", anamorphic)
        try expectDirectEqualsComposited(anamorphic, size: PixelSize(width: 640, height: 360))
    }

    /// The frames of `Transcoder.run` (direct path, lossless, pipelined or not) and of the loop it used to run (every
    /// picture through the compositor's canvas) hash the same; so does the output ffmpeg decodes.
    private func expectTranscodeEqualsComposited(_ input: String, size: PixelSize, name: String) throws {
        let format = OutputFormat(size: size, frameRate: FrameRate(25), sampleRate: 48000, channels: 2)
        let composited = dir.path("\(name)-composited.mkv")
        do {
            let encoding = EncodingSettings(profile: .lossless, threads: 2)
            let source = try MediaSource(path: input, format: format, threads: encoding.threads)
            let stage = try OutputStage(destination: composited, format: format, encoding: encoding, frameHashPath: composited + ".md5")
            let compositor = try Compositor(size: size)
            for tick in 0..<source.frameCount {
                try compositor.draw(source.picture(atTick: tick), in: PixelRect(size: size))
                try stage.write(frame: tick, picture: compositor.picture) { span, audio throws(MediaError) in
                    _ = try source.readAudio(from: span.start, count: span.count, into: audio)
                }
            }
            try stage.commit()
        }
        let reference = try String(contentsOfFile: composited + ".md5", encoding: .utf8)
        for pipelined in [true, false] {
            let output = dir.path("\(name)-\(pipelined).mkv")
            let result = try Transcoder.run(.init(input: input, output: output, size: size, frameRate: format.frameRate,
                                                  sampleRate: format.sampleRate, channels: format.channels,
                                                  encoding: EncodingSettings(profile: .lossless, threads: 2, pipelined: pipelined),
                                                  frameHashPath: output + ".md5"))
            #expect(result.frames > 0)
            let ours = try String(contentsOfFile: output + ".md5", encoding: .utf8)
            #expect(ours == reference, "\(name), pipelined \(pipelined)")
            #expect(ours == (try FFmpegTool.frameMD5(output)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: composited)))
        }
    }

    @Test func aTranscodeThatScalesIsTheCompositedOneToTheByte() throws {
        let input = dir.path("scaled.mp4")
        try FFmpegTool.makeClip(input, size: "320x180", rate: "30", seconds: 1, channels: 2)
        let format = OutputFormat(size: PixelSize(width: 640, height: 360), frameRate: FrameRate(25), sampleRate: 48000, channels: 2)
        let picture = try MediaSource(path: input, format: format).picture(atTick: 0)
        #expect(DirectScaler(size: format.size, threads: 2).fills(picture))
        try expectTranscodeEqualsComposited(input, size: format.size, name: "scaled")
    }

    /// A 4:3 picture in a 16:9 output (pillarbox bars) and a turned one (a half turn keeps the aspect, so only the
    /// display matrix says it is not upright) are not drawn directly: the compositor's bars and turn are in the
    /// transcode's frames.
    @Test func aPictureThatNeedsBarsOrTurningGoesThroughTheCompositor() throws {
        let size = PixelSize(width: 640, height: 360)
        let format = OutputFormat(size: size, frameRate: FrameRate(25), sampleRate: 48000, channels: 2)
        let narrow = dir.path("narrow.mp4"), plain = dir.path("plain.mp4"), turned = dir.path("turned.mp4")
        try FFmpegTool.makeClip(narrow, size: "320x240", seconds: 1, channels: 2)
        try FFmpegTool.makeClip(plain, size: "320x180", seconds: 1, channels: 2)
        try FFmpegTool.ffmpeg("-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=180", turned)
        let direct = DirectScaler(size: size, threads: 2)
        #expect(!direct.fills(try MediaSource(path: narrow, format: format).picture(atTick: 0)))
        #expect(!direct.fills(try MediaSource(path: turned, format: format).picture(atTick: 0)))
        #expect(direct.fills(try MediaSource(path: plain, format: format).picture(atTick: 0)))
        try expectTranscodeEqualsComposited(narrow, size: size, name: "narrow")
        try expectTranscodeEqualsComposited(turned, size: size, name: "turned")

        // The pillarbox is there: black (limited-range 16) down the left edge of every frame.
        let output = dir.path("narrow-true.mkv")
        let source = try MediaSource(path: output, format: format)
        for tick in [Int64(0), source.frameCount - 1] {
            let luma = try source.picture(atTick: tick).frame.planeView(0)
            #expect((0..<size.height).allSatisfy { luma[0, $0] == 16 && luma[79, $0] == 16 })
        }
    }
}
