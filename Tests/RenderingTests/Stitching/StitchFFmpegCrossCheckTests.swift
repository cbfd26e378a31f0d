import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// The `ffmpeg` command-line tool, an independent decoder, sees in a lossless render what we say we wrote: the
/// same picture hashes, and at chosen output frames the source frames the timeline promises.
@Suite struct StitchFFmpegCrossCheckTests {
    /// Content with a 60 fps and a 30000/1001 fps ad at 3 s, rendered losslessly with its frame hashes, once for
    /// both tests, and checked as every render.
    struct Render: Sendable {
        var request: RenderRequest
        var result: RenderResult

        static var shared: Render { get throws { try made.get() } }
        private static let made: Result<Render, any Error> = Result(catching: {
            let media = try StampedMedia.shared
            var request = media.request(try media.plan(["3=ad60.mp4,ad2997.mp4"]), output: media.directory + "/xcheck.mkv",
                                        encoding: EncodingSettings(profile: .lossless))
            request.output.frameHashPath = media.directory + "/xcheck.framemd5"
            return Render(request: request, result: try Stitcher.render(request))
        })
    }

    @Test func theLosslessRenderVerifies() throws {
        let render = try Render.shared
        try StampedMedia.expectGoodRender(render.result, render.request)
    }

    @Test func ffmpegsFrameMD5OfALosslessRenderIsOurFrameHashLog() throws {
        guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath)") }
        let dir = try TemporaryDirectory()
        let (request, result) = (try Render.shared.request, try Render.shared.result)
        try StampedMedia.ffmpeg(["-i", request.output.path, "-map", "0:v:0", "-fflags", "+bitexact", "-f", "framemd5",
                                 dir.path + "/ffmpeg.framemd5"])
        let theirs = try String(contentsOfFile: dir.path + "/ffmpeg.framemd5", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#software") }.joined(separator: "\n")
        let ours = try String(contentsOfFile: try #require(request.output.frameHashPath), encoding: .utf8)
        #expect(theirs == ours)
        #expect(ours.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == Int(result.timeline.output.frames))
    }

    /// Output frames and the stamp each must show. Segments: content 0..<90, ad60 90..<120, ad2997 120..<151
    /// (1.001 s: 31 frames), content 151..<361 from tick 90. Tick `j` of an ad shows its frame `⌊j × Fs / F + ½⌋`:
    /// at 60 fps frame `2j`; at 30000/1001 frame 15 at tick 15 (14.985 + ½), and at tick 30, past its 30 frames,
    /// its last one held.
    static let frames: [(output: Int, source: String, index: Int)] = [
        (0, "content", 0), (89, "content", 89), (97, "ad60", 14), (119, "ad60", 58), (135, "ad2997", 15),
        (150, "ad2997", 29), (151, "content", 90), (360, "content", 299),
    ]

    @Test func framesDecodedByFFmpegCarryTheStampsTheTimelinePromises() throws {
        guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath)") }
        let dir = try TemporaryDirectory()
        let (request, result) = (try Render.shared.request, try Render.shared.result)
        #expect(StampedMedia.pieces(result.timeline) == [
            StampedMedia.Piece("content.mp4", out: 0..<90, ticks: 0..<90),
            StampedMedia.Piece("ad60.mp4", 0, 0, out: 90..<120, ticks: 0..<30),
            StampedMedia.Piece("ad2997.mp4", 0, 1, out: 120..<151, ticks: 0..<31),
            StampedMedia.Piece("content.mp4", out: 151..<361, ticks: 90..<300),
        ] as [StampedMedia.Piece])
        for (n, source, index) in Self.frames {
            let still = dir.path + "/frame\(n).mkv"
            try StampedMedia.ffmpeg(["-i", request.output.path, "-map", "0:v:0", "-vf", "select=eq(n\\,\(n))",
                                     "-fps_mode", "passthrough", "-frames:v", "1", "-c:v", "ffv1", still])
            let reader = try FrameReader(path: still)
            let picture = try #require(try reader.next(), "ffmpeg wrote no frame for output frame \(n)")
            let segment = try #require(result.timeline.segments.first { $0.outStartFrame <= n && n < $0.outEndFrame })
            #expect(picture.readStamp(in: segment.picture.pixelRect) == (try FrameStamp(sourceID: source, frameIndex: index)),
                    "output frame \(n)")
            #expect(try reader.next() == nil, "one frame only")
        }
    }
}
