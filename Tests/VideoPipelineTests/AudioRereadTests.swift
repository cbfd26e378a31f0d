import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// A source's sound read again a little behind where the last read ended (a splice's realignment, a passthrough
/// render's shift onto the AAC packet grid) is the same sound, not silence.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make the clip"))
struct AudioRereadTests {
    @Test func samplesUpToTheHistoryBehindAreReadAgain() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("tone.mp4")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=1", "-f", "lavfi", "-i", "sine=f=523:sample_rate=48000:d=1",
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path)
        let format = OutputFormat(size: PixelSize(width: 160, height: 90), frameRate: FrameRate(30), sampleRate: 48000, channels: 1)
        let source = try MediaSource(path: path, format: format)
        let buffer = try AudioBuffer(channels: 1, sampleRate: 48000, capacity: 8000)
        #expect(try source.readAudio(from: 0, count: 8000, into: buffer) == 8000)
        let first = buffer.samples(channel: 0)
        // 2048 samples behind the end of the last read: all from the source, the same as the first time.
        let back = 8000 - Int64(AudioTrack.historyLength)
        #expect(try source.readAudio(from: back, count: 4000, into: buffer) == 4000)
        let again = buffer.samples(channel: 0)
        #expect(Array(again[0..<2048]) == Array(first[Int(back)...]))
        #expect(again[0..<2048].contains { abs($0) > 0.05 }, "the tone is there")
        // Further behind than the history: silence for what is not kept, as before.
        let end = back + 4000
        #expect(try source.readAudio(from: end - 3000, count: 1000, into: buffer) == 0)
        #expect(buffer.samples(channel: 0).allSatisfy { $0 == 0 })
    }
}
