import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool as the independent peer"))
struct HLSSegmenterTests {
    /// 3 s at 30 fps with a keyframe every 10 frames (no scene cuts), H.264 and AAC in MP4, made by ffmpeg.
    static func clip(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("gop10.mp4")
        try FFmpegTool.run(FFmpegTool.ffmpegPath, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=3",
                            "-f", "lavfi", "-i", "sine=duration=3:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast",
                            "-g", "10", "-keyint_min", "10", "-sc_threshold", "0", "-c:a", "aac", "-shortest", path])
        return path
    }

    /// Cuts at the first keyframe at least the target after each segment's start, and at every cut asked for; the
    /// segments' bytes are the whole stream, and ffmpeg reads the segments joined back with no message.
    @Test(arguments: [HLSSegmentType.fmp4, .mpegts])
    func segmentsStartAtTheFirstKeyframeAfterTheTargetAndAtEveryCut(type: HLSSegmentType) throws {
        let dir = TemporaryDirectory()
        let files = try HLSSegmenter.segment(try Self.clip(dir), into: dir.url.path, type: type, rate: FrameRate(30),
                                             target: 25, cuts: [40])
        // Keyframes every 10 frames: 0, then 30 (the first ≥ 25 after 0), the cut at 40, 70, and the end at 90.
        #expect(files.segments.map(\.startFrame) == [0, 30, 40, 70])
        #expect(files.segments.map(\.frameCount) == [30, 10, 30, 20])
        #expect(files.initSegment == (type == .fmp4 ? "init.mp4" : nil))
        var joined = Data()
        for name in (files.initSegment.map { [$0] } ?? []) + files.segments.map(\.uri) {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir.path(name)))
            if let segment = files.segments.first(where: { $0.uri == name }) { #expect(Int64(data.count) == segment.bytes) }
            joined += data
        }
        let whole = dir.path("joined." + (type == .fmp4 ? "mp4" : "ts"))
        try joined.write(to: URL(fileURLWithPath: whole))
        let frames = try FFmpegTool.run(FFmpegTool.ffprobePath, ["-v", "error", "-count_frames", "-select_streams", "v",
                                                                 "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", whole])
        // A TS lists the stream again inside its program.
        #expect(Set(String(decoding: frames, as: UTF8.self).split(separator: "\n")) == ["90"])
        #expect(files.codecs.count == 2 && files.codecs[0].hasPrefix("avc1.") && files.codecs[1] == "mp4a.40.2")
        // No temporary file is left beside the segments.
        #expect(!dir.contents.contains { $0.hasPrefix(".") })
    }

    /// The segments carry the pictures first whatever the input's order (an MP4 whose sound track comes first):
    /// the order, and the MPEG-TS PIDs, of the pieces cut and ads conditioned for a rendition, which its segments
    /// meet in one stream.
    @Test(arguments: [HLSSegmentType.fmp4, .mpegts])
    func theSegmentsCarryThePicturesFirstWhenTheInputHasItsSoundFirst(type: HLSSegmentType) throws {
        let dir = TemporaryDirectory()
        let input = dir.path("sound-first.mp4")
        try FFmpegTool.run(FFmpegTool.ffmpegPath, ["-v", "error", "-y", "-i", try Self.clip(dir), "-map", "0:a", "-map", "0:v", "-c", "copy", input])
        func kinds(_ path: String) throws -> [String] {
            let text = try FFmpegTool.run(FFmpegTool.ffprobePath, ["-v", "error", "-show_entries", "stream=index,codec_type", "-of", "csv=p=0", path])
            return Array(Set(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))).sorted()
        }
        #expect(try kinds(input) == ["0,audio", "1,video"])
        let files = try HLSSegmenter.segment(input, into: dir.url.path, type: type, rate: FrameRate(30), target: 25, cuts: [])
        let first = dir.path("first." + (type == .fmp4 ? "mp4" : "ts"))
        var data = Data()
        for name in (files.initSegment.map { [$0] } ?? []) + [files.segments[0].uri] { data += try Data(contentsOf: URL(fileURLWithPath: dir.path(name))) }
        try data.write(to: URL(fileURLWithPath: first))
        #expect(try kinds(first) == ["0,video", "1,audio"])
    }

    /// A stream whose first picture comes seconds in (MPEG-TS from FFmpeg's muxer starts at 1.4 s): the first
    /// segment starts at that picture, and the segments count the 90 pictures there are, not the time before them.
    @Test func theFirstSegmentStartsAtTheFirstPictureOfAStreamThatStartsLate() throws {
        let dir = TemporaryDirectory()
        let input = dir.path("late.ts")
        try FFmpegTool.run(FFmpegTool.ffmpegPath, ["-v", "error", "-y", "-i", try Self.clip(dir), "-c", "copy", "-f", "mpegts", input])
        let files = try HLSSegmenter.segment(input, into: dir.url.path, type: .mpegts, rate: FrameRate(30), target: 25, cuts: [])
        // The muxer's 1.4 s, and the sound's priming before the first picture: frame 42 or 43 at 30 fps.
        let first = try #require(files.segments.first?.startFrame)
        #expect((42...43).contains(first))
        #expect(files.segments.map(\.startFrame) == [first, first + 30, first + 60])
        #expect(files.segments.map(\.frameCount).reduce(0, +) == 90)
    }

    @Test func aCutThatIsNotAKeyframeIsRefused() throws {
        let dir = TemporaryDirectory()
        #expect(throws: MediaError.invalidSetting(name: "hls", value: "frame 45", reason: "must start a segment but is not a keyframe")) {
            try HLSSegmenter.segment(try Self.clip(dir), into: dir.url.path, type: .fmp4, rate: FrameRate(30), target: 25, cuts: [45])
        }
    }

    /// `avc1.PPCCLL` from an avcC record and from Annex B start codes (profile 0x64 High, constraints 0, level 0x1F).
    @Test func theCodecStringComesFromTheSPS() {
        #expect(HLSSegmenter.avcCodecString([1, 0x64, 0x00, 0x1F, 0xFF, 0xE1]) == "avc1.64001F")
        #expect(HLSSegmenter.avcCodecString([0, 0, 0, 1, 0x67, 0x4D, 0x40, 0x1E, 0xAA, 0xBB]) == "avc1.4D401E")
        #expect(HLSSegmenter.avcCodecString([0, 0, 0, 1, 0x68, 0xEE]) == nil)
    }
}
