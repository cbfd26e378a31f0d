import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The luma fingerprint `verify --sources` relies on: the same frame scaled, re-encoded, in 10 bits or inside a
/// letterboxed rectangle stays much nearer to itself than to its neighbours; a black picture is flat.
@Suite(.enabled(if: FFmpegTool.isAvailable)) struct FrameSignatureTests {
    /// `testsrc2` at 320x180, 30 fps, 1 s: moving content whose consecutive frames differ a little.
    static func source(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("source.mp4")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1", "-c:v", "libx264",
                              "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p", path)
        return path
    }

    static func signatures(_ path: String, region: PixelRect? = nil) throws -> [FrameSignature] {
        try FingerprintScanner(path: path).scan(regions: { _ in [region] }).map { $0[0] }
    }

    /// For each frame of `copy`, whether it is nearest to the same frame of `original` among frames k-2…k+2, by at
    /// least twice the distance.
    static func eachFrameIsItsOwnNearest(_ copy: [FrameSignature], _ original: [FrameSignature]) -> Bool {
        copy.indices.allSatisfy { k in
            let own = copy[k].distance(to: original[k])
            let others = (max(0, k - 2)...min(original.count - 1, k + 2)).filter { $0 != k }.map { copy[k].distance(to: original[$0]) }
            return others.allSatisfy { $0 > 2 * own }
        }
    }

    @Test func aFrameScaledUpAndReencodedStaysNearerToItselfThanToItsNeighbours() throws {
        let dir = TemporaryDirectory()
        let source = try Self.source(dir)
        let scaled = dir.path("scaled.mp4")
        try FFmpegTool.ffmpeg("-i", source, "-vf", "scale=640:360", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "28", scaled)
        let a = try Self.signatures(source), b = try Self.signatures(scaled)
        #expect(a.count == 30 && b.count == 30)
        #expect(Self.eachFrameIsItsOwnNearest(b, a))
    }

    @Test func aTenBitCopyWithOtherBrightnessAndContrastMatchesTheEightBitFrames() throws {
        let dir = TemporaryDirectory()
        let source = try Self.source(dir)
        let tenBit = dir.path("ten.mkv")
        // Brighter and flatter, in 10 bits: read through the gray conversion, then normalised.
        try FFmpegTool.ffmpeg("-i", source, "-vf", "eq=brightness=0.1:contrast=0.7", "-pix_fmt", "yuv420p10le",
                              "-c:v", "ffv1", tenBit)
        let a = try Self.signatures(source), b = try Self.signatures(tenBit)
        #expect(Self.eachFrameIsItsOwnNearest(b, a))
    }

    @Test func aPictureLetterboxedIntoARectangleMatchesWhenReadInsideIt() throws {
        let dir = TemporaryDirectory()
        let source = try Self.source(dir)
        let boxed = dir.path("boxed.mp4")
        // 320x180 drawn at 200x112 at (60, 34) of a 320x180 grey canvas, as a picture-in-picture window would be.
        try FFmpegTool.ffmpeg("-i", source, "-vf", "scale=200:112,pad=320:180:60:34:gray", "-c:v", "libx264",
                              "-preset", "ultrafast", "-crf", "23", boxed)
        let a = try Self.signatures(source)
        let inside = try Self.signatures(boxed, region: PixelRect(x: 60, y: 34, width: 200, height: 112))
        let whole = try Self.signatures(boxed)
        #expect(Self.eachFrameIsItsOwnNearest(inside, a))
        #expect(inside[10].distance(to: a[10]) < whole[10].distance(to: a[10]))
    }

    @Test func blackAndSolidPicturesAreFlatAndMovingOnesAreNot() throws {
        let dir = TemporaryDirectory()
        let black = dir.path("black.mp4")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "color=c=black:size=160x90:rate=10:duration=0.5", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", black)
        #expect(try Self.signatures(black).allSatisfy(\.isFlat))
        #expect(try Self.signatures(try Self.source(dir)).allSatisfy { !$0.isFlat })
    }
}
