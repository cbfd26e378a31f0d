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

    /// An MPEG-TS whose sound starts with the AAC encoder's priming: the picture starts those 1,024 samples after the
    /// file's start (the earliest of its streams'), as the ffmpeg tool muxes it; the scan's `end` counts from there too.
    @Test func aVideoScanTellsWhereTheFirstPictureStartsAfterTheFilesStart() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24:duration=1",
                              "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                              "-c:v", "libx264", "-bf", "0", "-c:a", "aac", "-shortest", "-y", dir.path("clip.ts"))
        let scan = try MediaProbe.scanVideo(dir.path("clip.ts"))
        #expect(scan.frames == 24)
        #expect(scan.firstPicture == MediaDuration(seconds: Rational(1024, 48_000)))
        #expect(scan.end == MediaDuration(seconds: Rational(1024, 48_000) + Rational(1)))
        // An MP4 skips the priming (its edit list): the picture starts with the file.
        try FFmpegTool.makeClip(dir.path("clip.mp4"), seconds: 1)
        #expect(try MediaProbe.scanVideo(dir.path("clip.mp4")).firstPicture == MediaDuration(seconds: .zero))
    }
}
