import MediaCore
import Testing
@testable import VideoPipeline

@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make fixtures"))
struct MediaProbeTests {
    @Test func describesContainerAndStreams() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("clip.mp4"), size: "320x240", rate: "25", seconds: 3, sampleRate: 44100, channels: 1)
        let info = try MediaProbe.probe(dir.path("clip.mp4"))
        #expect(info.container.contains("mp4"))
        #expect(info.duration == MediaDuration(seconds: 3))
        let video = try #require(info.bestVideo)
        #expect(video.codec == "h264")
        #expect(video.size == PixelSize(width: 320, height: 240))
        #expect(video.frameRate == FrameRate(25))
        #expect(video.frameCount == 75)
        #expect(video.pixelFormat == "yuv420p")
        #expect(video.sampleAspectRatio == .one)
        let audio = try #require(info.bestAudio)
        #expect(audio.codec == "aac")
        #expect(audio.sampleRate == 44100)
        #expect(audio.channels == 1)
        #expect(audio.channelLayout == "mono")
    }

    @Test func honoursTheSampleAspectRatioOfAnamorphicVideo() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("ana.mp4"), size: "720x576", seconds: 0.2, audio: false, extra: ["-vf", "setsar=64/45"])
        let video = try #require(try MediaProbe.probe(dir.path("ana.mp4")).bestVideo)
        #expect(video.sampleAspectRatio == Rational(64, 45))
        #expect(video.displayAspect == Rational(16, 9))
    }
}
