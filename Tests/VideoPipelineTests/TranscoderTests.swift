import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool as the independent peer"))
struct TranscoderTests {
    @Test func ourFrameHashesMatchFFmpegsFramemd5OfTheLosslessOutput() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), size: "320x240", rate: "25", seconds: 1)
        let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mkv"),
                                              size: PixelSize(width: 640, height: 360), frameRate: FrameRate(30),
                                              encoding: EncodingSettings(profile: .lossless), frameHashPath: dir.path("ours.md5")))
        #expect(result.frames == 30)
        let ours = try String(contentsOfFile: dir.path("ours.md5"), encoding: .utf8)
        #expect(ours == (try FFmpegTool.frameMD5(dir.path("out.mkv"))))
    }

    @Test func audioSampleCountsAreExactAfterResampling() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), size: "160x120", rate: "25", seconds: 3, sampleRate: 44100, channels: 1)
        let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mkv"), sampleRate: 48000,
                                              channels: 2, encoding: EncodingSettings(profile: .lossless)))
        #expect(result.format.sampleRate == 48000 && result.format.channels == 2)
        #expect(result.frames == 75)
        #expect(result.audioSamples == 144_000)
        #expect(result.paddedSamples == 0)
        #expect(try FFmpegTool.decodedSampleCount(dir.path("out.mkv"), channels: 2) == 144_000)
    }

    @Test func deliveryProfileWritesH264AndAACInFaststartMP4() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), size: "320x240", rate: "25", seconds: 1)
        _ = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mp4"),
                                     encoding: EncodingSettings(crf: 30, preset: "ultrafast")))
        let info = try MediaProbe.probe(dir.path("out.mp4"))
        #expect(info.bestVideo?.codec == "h264" && info.bestAudio?.codec == "aac")
        #expect(info.bestVideo?.frameCount == 25)
        // faststart: the movie header comes before the media data.
        let head = try Data(contentsOf: URL(fileURLWithPath: dir.path("out.mp4"))).prefix(4096)
        let moov = head.range(of: Data("moov".utf8)), mdat = head.range(of: Data("mdat".utf8))
        #expect(moov != nil && (mdat == nil || moov!.lowerBound < mdat!.lowerBound))
    }

    @Test func aSourceWithoutAudioGetsSilence() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), rate: "30", seconds: 1, audio: false)
        let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mkv"),
                                              encoding: EncodingSettings(profile: .lossless)))
        #expect(result.audioSamples == 48000 && result.paddedSamples == 48000)
    }
}
