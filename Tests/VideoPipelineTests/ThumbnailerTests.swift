import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Thumbnails of chosen frames: reached by seeking when the rate is known, and the same pictures as decoding through.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make the clip"))
struct ThumbnailerTests {
    static let frames: Set<Int64> = [0, 59, 60, 700, 701, 1199]

    static func clip(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("clip.mp4")
        // B-frames, and a GOP of 250 (x264's default): frame 700 is past a seek away from 60.
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=40", "-c:v", "libx264", "-preset", "ultrafast",
                              "-bf", "3", "-pix_fmt", "yuv420p", path)
        return path
    }

    @Test func seekingGivesTheSamePicturesAsDecodingThrough() throws {
        let dir = TemporaryDirectory()
        let path = try Self.clip(dir)
        let through = try Thumbnailer.thumbnails(of: path, frames: Self.frames, width: 96)
        let seeking = try Thumbnailer.thumbnails(of: path, frames: Self.frames, width: 96, frameRate: FrameRate(30))
        #expect(through.map(\.frame) == Self.frames.sorted())
        #expect(seeking.map(\.frame) == Self.frames.sorted())
        #expect(zip(through, seeking).allSatisfy { $0.jpeg == $1.jpeg })
        #expect(through.allSatisfy { $0.size == PixelSize(width: 96, height: 54) && $0.jpeg.starts(with: [0xFF, 0xD8]) })
        // Each thumbnail is its own frame: testsrc2 moves every frame.
        #expect(Set(through.map(\.jpeg)).count == Self.frames.count)
    }

    @Test func framesPastTheEndAreLeftOut() throws {
        let dir = TemporaryDirectory()
        let path = try Self.clip(dir)
        let thumbnails = try Thumbnailer.thumbnails(of: path, frames: [1199, 1200, 5000], width: 64, frameRate: FrameRate(30))
        #expect(thumbnails.map(\.frame) == [1199])
    }

    /// A device render's thumbnail shows its display, not the bezel and canvas around it; a crop outside the
    /// picture is ignored.
    @Test func aCropShowsOnlyThatPartOfTheFrame() throws {
        let dir = TemporaryDirectory()
        let path = try Self.clip(dir)
        let crops: [Int64: PixelRect] = [59: PixelRect(x: 40, y: 20, width: 120, height: 160), 60: PixelRect(x: 300, y: 0, width: 100, height: 100)]
        let thumbnails = try Thumbnailer.thumbnails(of: path, frames: [0, 59, 60], width: 96, frameRate: FrameRate(30), crops: crops)
        #expect(thumbnails.map(\.size) == [PixelSize(width: 96, height: 54), PixelSize(width: 96, height: 128), PixelSize(width: 96, height: 54)])
        let whole = try Thumbnailer.thumbnails(of: path, frames: [59], width: 96, frameRate: FrameRate(30))
        #expect(whole[0].jpeg != thumbnails[1].jpeg)
    }
}
