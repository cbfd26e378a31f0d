import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

@Suite struct TestSourceGeneratorTests {
    static let fast = EncodingSettings(preset: "ultrafast")

    @Test func probeMatchesWhatTheGeneratorMade() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("ad.mp4")
        let result = try TestSourceGenerator.generate(.init(
            output: path, duration: MediaDuration(seconds: 2), size: PixelSize(width: 360, height: 640),
            frameRate: FrameRate(30000, 1001), sourceID: "ad10", toneFrequency: 880, sampleRate: 44100, channels: 1,
            encoding: Self.fast))
        #expect(result.frames == 60)
        let info = try MediaProbe.probe(path)
        let video = try #require(info.bestVideo)
        #expect(video.size == PixelSize(width: 360, height: 640))
        #expect(video.frameRate == FrameRate(30000, 1001))
        #expect(video.frameCount == 60)
        #expect(video.duration == MediaDuration(seconds: Rational(60 * 1001, 30000)))
        let audio = try #require(info.bestAudio)
        #expect(audio.sampleRate == 44100 && audio.channels == 1 && audio.codec == "aac")
    }

    @Test func stampsSurviveH264AtDefaultQuality() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("content.mp4")
        _ = try TestSourceGenerator.generate(.init(output: path, duration: MediaDuration(seconds: 2), sourceID: "content"))
        let scan = try StampScan.scan(path)
        #expect(scan.stamps.count == 60)
        #expect(scan.stamps.enumerated().allSatisfy { $0.element == (try? FrameStamp(sourceID: "content", frameIndex: $0.offset)) })
        #expect(scan.summary == "output 0–59: content 0–59")
    }

    @Test func stampsSurviveADownscaleToAQuarterOfTheArea() throws {
        let dir = TemporaryDirectory()
        _ = try TestSourceGenerator.generate(.init(output: dir.path("in.mp4"), duration: MediaDuration(seconds: 1),
                                                   sourceID: "ad15", encoding: Self.fast))
        _ = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("half.mp4"), size: PixelSize(width: 320, height: 180)))
        let scan = try StampScan.scan(dir.path("half.mp4"))
        #expect(scan.summary == "output 0–29: ad15 0–29")
    }

    @Test func refusesABadSourceID() {
        #expect(throws: TestSourceError.self) {
            try TestSourceGenerator.generate(.init(output: "/tmp/never.mp4", duration: MediaDuration(seconds: 1), sourceID: "Not Valid!"))
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.mp4"))
    }
}

/// The frame-rate rule, proven from the pixels: output frame `j` shows source frame `floor(j × Fs / F + 1/2)`.
@Suite struct FrameRateRuleTests {
    @Test(arguments: [
        (FrameRate(25), FrameRate(30)), (FrameRate(30), FrameRate(24)), (FrameRate(30000, 1001), FrameRate(30)),
        (FrameRate(60), FrameRate(30)), (FrameRate(24), FrameRate(25)),
    ])
    func everyOutputFrameShowsTheSourceFrameTheRuleNames(source: FrameRate, output: FrameRate) throws {
        let dir = TemporaryDirectory()
        _ = try TestSourceGenerator.generate(.init(output: dir.path("in.mp4"), duration: MediaDuration(seconds: 2),
                                                   size: PixelSize(width: 320, height: 180), frameRate: source,
                                                   sourceID: "src", encoding: EncodingSettings(profile: .delivery, preset: "ultrafast")))
        let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mkv"), frameRate: output,
                                              encoding: EncodingSettings(profile: .lossless)))
        let sourceFrames = source.frameCount(in: MediaDuration(seconds: 2))
        let sourceDuration = source.time(ofFrame: sourceFrames) - MediaTime.zero
        #expect(result.frames == output.frameCount(in: sourceDuration))
        let scan = try StampScan.scan(dir.path("out.mkv"))
        #expect(Int64(scan.stamps.count) == result.frames)
        for (j, stamp) in scan.stamps.enumerated() {
            let expected = min(sourceFrames - 1, (Rational(Int64(j)) * source.perSecond / output.perSecond + Rational(1, 2)).floor)
            #expect(stamp?.sourceID == "src" && stamp?.frameIndex == Int(expected), "output frame \(j) of \(source)→\(output)")
        }
    }

    @Test func audioSampleCountsAreExactFrom44100To48000() throws {
        let dir = TemporaryDirectory()
        _ = try TestSourceGenerator.generate(.init(output: dir.path("in.mp4"), duration: MediaDuration(seconds: 3),
                                                   size: PixelSize(width: 160, height: 90), frameRate: FrameRate(25),
                                                   sourceID: "mono", sampleRate: 44100, channels: 1,
                                                   encoding: EncodingSettings(preset: "ultrafast")))
        let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mkv"), sampleRate: 48000,
                                              channels: 2, encoding: EncodingSettings(profile: .lossless)))
        #expect(result.frames == 75 && result.audioSamples == 144_000)
        #expect(try FFmpegTool.decodedSampleCount(dir.path("out.mkv"), channels: 2) == 144_000)
    }
}
