import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Stamps read back after the real encoder (libx264, CRF 23) and scaler, through the ffmpeg command-line tool.
@Suite(.enabled(if: FFmpegTool.isAvailable, Comment(rawValue: FFmpegTool.skipMessage)))
struct StampRobustnessTests {
    static let frames = 30

    /// Checks that frame `i` of `decoded` reads as frame `i` of `id`, reading with `read` and reporting misses.
    func expectEveryFrame(_ decoded: [YUVImage], id: String, sourceLocation: SourceLocation = #_sourceLocation,
                          read: (YUVImage) -> FrameStamp?) {
        #expect(decoded.count == Self.frames, sourceLocation: sourceLocation)
        let misses = decoded.indices.filter { read(decoded[$0]) != (try? FrameStamp(sourceID: id, frameIndex: $0)) }
        #expect(misses.isEmpty, "frames not read: \(misses)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [PixelSize(width: 640, height: 360), PixelSize(width: 1280, height: 720),
                      PixelSize(width: 320, height: 240), PixelSize(width: 360, height: 640)])
    func readsEveryFrameAfterH264(size: PixelSize) throws {
        let decoded = try FFmpegTool.encodeAndDecode([FFmpegTool.clip("content", size, count: Self.frames)],
                                                     outputSize: size)
        expectEveryFrame(decoded, id: "content") { StampReader.read(luma: $0.luma, picture: PixelRect(size: $0.size)) }
    }
}

extension StampRobustnessTests {
    @Test func findsNoStampInEncodedFramesThatHaveNone() throws {
        let size = PixelSize(width: 640, height: 360)
        let decoded = try FFmpegTool.encodeAndDecode(
            [FFmpegTool.clip("content", size, count: Self.frames, stamped: false)], outputSize: size)
        #expect(decoded.count == Self.frames)
        for image in decoded {
            #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: size)) == nil)
            #expect(StampReader.locate(luma: image.luma) == nil)
        }
    }

    @Test func readsAfterHalvingEachSide() throws {
        let decoded = try FFmpegTool.encodeAndDecode(
            [FFmpegTool.clip("content", PixelSize(width: 1280, height: 720), count: Self.frames)],
            filter: "scale=iw/2:ih/2", outputSize: PixelSize(width: 640, height: 360))
        expectEveryFrame(decoded, id: "content") { StampReader.read(luma: $0.luma, picture: PixelRect(size: $0.size)) }
    }

    /// Scales clip `id` of `source` size into `picture` of a dark `frame`, encodes and decodes it, and checks that
    /// every frame reads where the picture is known, also with the rectangle a pixel off, and is located (with
    /// its exact rectangle) when it is not.
    func expectScaledIntoDarkFrameReads(_ id: String, source: PixelSize, picture: PixelRect, frame: PixelSize,
                                        backdrop: String = "black",
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let decoded = try FFmpegTool.encodeAndDecode(
            [FFmpegTool.clip(id, source, count: Self.frames)],
            filter: "scale=\(picture.width):\(picture.height),"
                + "pad=\(frame.width):\(frame.height):\(picture.x):\(picture.y):\(backdrop)",
            outputSize: frame)
        let offByOne = PixelRect(x: picture.x + 1, y: picture.y - 1, width: picture.width - 1,
                                 height: picture.height + 1)
        for rect in [picture, offByOne] {
            expectEveryFrame(decoded, id: id, sourceLocation: sourceLocation) {
                StampReader.read(luma: $0.luma, picture: rect)
            }
        }
        expectEveryFrame(decoded, id: id, sourceLocation: sourceLocation) {
            let found = StampReader.locate(luma: $0.luma)
            #expect(found == nil || found!.picture == picture, sourceLocation: sourceLocation)
            return found?.stamp
        }
    }

    /// A source scaled down (to a third each side, as a PiP window, or to a half) in a corner of a frame that is
    /// black or the compositor's slate (#1c2028).
    @Test(arguments: [
        (PixelSize(width: 640, height: 360), PixelRect(x: 410, y: 224, width: 214, height: 120), "black"),
        (PixelSize(width: 640, height: 360), PixelRect(x: 16, y: 224, width: 214, height: 120), "0x1c2028"),
        (PixelSize(width: 640, height: 360), PixelRect(x: 410, y: 16, width: 214, height: 120), "0x1c2028"),
        (PixelSize(width: 1280, height: 720), PixelRect(x: 16, y: 16, width: 426, height: 240), "black"),
        (PixelSize(width: 640, height: 360), PixelRect(x: 282, y: 156, width: 320, height: 180), "black"),
    ])
    func readsAScaledDownPictureInADarkFrame(source: PixelSize, window: PixelRect, backdrop: String) throws {
        try expectScaledIntoDarkFrameReads("ad5-a", source: source, picture: window, frame: source, backdrop: backdrop)
    }

    @Test func readsAPortraitPicturePillarboxedIntoLandscape() throws {
        let screen = PixelRect(x: 0, y: 0, width: 640, height: 360)
        // Even sides, as ffmpeg's x264 encode of the fixture needs (the compositor's own fit is 203 wide).
        let fitted = screen.fitting(aspect: Rational(360, 640))
        let picture = PixelRect(x: fitted.x & ~1, y: fitted.y & ~1, width: fitted.width & ~1, height: fitted.height & ~1)
        try expectScaledIntoDarkFrameReads("ad15", source: PixelSize(width: 360, height: 640), picture: picture,
                                           frame: screen.size)
    }

    /// A PiP window over stamped content: both pictures are found, each with its own stamp.
    @Test func locatesAPictureInPictureWindowOverContent() throws {
        let size = PixelSize(width: 640, height: 360)
        let window = PixelRect(x: 410, y: 224, width: 214, height: 120)
        let decoded = try FFmpegTool.encodeAndDecode(
            [FFmpegTool.clip("content", size, count: Self.frames), FFmpegTool.clip("ad15", size, count: Self.frames)],
            filter: "[1]scale=\(window.width):\(window.height)[pip];[0][pip]overlay=\(window.x):\(window.y)",
            outputSize: size)
        expectEveryFrame(decoded, id: "content") { StampReader.read(luma: $0.luma, picture: PixelRect(size: size)) }
        expectEveryFrame(decoded, id: "ad15") { StampReader.read(luma: $0.luma, picture: window) }
        var worst = 0
        expectEveryFrame(decoded, id: "ad15") { image in
            let all = StampReader.locateAll(luma: image.luma)
            #expect(all.map(\.stamp.sourceID).sorted() == ["ad15", "content"])
            guard let pip = all.first(where: { $0.stamp.sourceID == "ad15" }) else { return nil }
            let r = pip.picture
            worst = max(worst, abs(r.x - window.x), abs(r.y - window.y), abs(r.maxX - window.maxX),
                        abs(r.maxY - window.maxY))
            return pip.stamp
        }
        #expect(worst <= 2, "the PiP window located \(worst) pixels off")
    }
}
