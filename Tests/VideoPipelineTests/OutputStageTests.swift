import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool as the independent peer"))
struct OutputStageTests {
    private struct SoundFailed: Error {}

    /// A frame whose sound fails leaves nothing in the output, so the caller can write the same frame again (a
    /// render does this when an ad's audio fails and its fallback takes the frame): ffmpeg then decodes exactly
    /// the frames and samples written, and our frame hashes are ffmpeg's.
    @Test func aFrameWhoseSoundFailsIsNotWrittenAndCanBeWrittenAgain() throws {
        let dir = TemporaryDirectory()
        let format = OutputFormat(size: PixelSize(width: 64, height: 48), frameRate: FrameRate(30000, 1001),
                                  sampleRate: 44100, channels: 1)
        let stage = try OutputStage(destination: dir.path("out.mkv"), format: format,
                                    encoding: EncodingSettings(profile: .lossless), frameHashPath: dir.path("out.md5"))
        let compositor = try Compositor(size: format.size)
        var spans: [OutputStage.SampleSpan] = []
        for n in Int64(0)..<3 {
            try compositor.fill(PixelRect(size: format.size), with: YUVColor(y: UInt8(40 + 60 * n), u: 128, v: 128))
            if n == 1 {
                #expect(throws: SoundFailed.self) {
                    try stage.write(frame: 1, picture: compositor.picture, outputFailure: { $0 }) { (_, _) throws(any Error) in
                        throw SoundFailed()
                    }
                }
                #expect(stage.frameCount == 1)
            }
            try stage.write(frame: n, picture: compositor.picture) { span, audio in
                spans.append(span)
                audio.fill(count: span.count) { _, i in Float(i % 100) / 200 }
            }
        }
        try stage.commit()
        // Frame n owns [⌊n·44100·1001/30000⌋, ⌊(n+1)·44100·1001/30000⌋): 0, 1471, 2942 (1471.47 per frame).
        #expect(spans.map(\.start) == [0, 1471, 2942])
        #expect(spans.map(\.count) == [1471, 1471, 1472])
        #expect(stage.sampleCount == 4414)
        #expect(try FFmpegTool.decodedSampleCount(dir.path("out.mkv"), channels: 1) == 4414)
        let ours = try String(contentsOfFile: dir.path("out.md5"), encoding: .utf8)
        #expect(ours == (try FFmpegTool.frameMD5(dir.path("out.mkv"))))
        #expect(ours.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == 3)
    }

    /// `frameObserver` (`play --show`) sees each frame the stage takes, as it takes it: its number, its picture's
    /// planes (4:2:0, the canvas's values) and exactly its samples; a frame whose sound fails is not shown.
    @Test func theFrameObserverSeesEachFramesPlanesAndSamples() throws {
        let format = OutputFormat(size: PixelSize(width: 64, height: 48), frameRate: FrameRate(30), sampleRate: 48000, channels: 2)
        let stage = try OutputStage(destination: nil, format: format, encoding: EncodingSettings(profile: .lossless))
        let compositor = try Compositor(size: format.size)
        var seen: [(frame: Int64, y: UInt8, u: UInt8, v: UInt8, rows: [Int], samples: [[Float]])] = []
        stage.frameObserver = { view in
            guard let planes = view.planes else { return }
            seen.append((view.frame, planes.y.bytes[63 + 47 * planes.y.stride], planes.u.bytes[0], planes.v.bytes[31 + 23 * planes.v.stride],
                         [planes.y.bytes.count / planes.y.stride, planes.u.bytes.count / planes.u.stride], view.samples.map(Array.init)))
        }
        for n in Int64(0)..<2 {
            try compositor.fill(PixelRect(size: format.size), with: YUVColor(y: UInt8(40 + 60 * n), u: 100, v: 150))
            if n == 1 {
                #expect(throws: SoundFailed.self) {
                    try stage.write(frame: 1, picture: compositor.picture, outputFailure: { $0 }) { (_, _) throws(any Error) in throw SoundFailed() }
                }
            }
            try stage.write(frame: n, picture: compositor.picture) { span, audio in
                audio.fill(count: span.count) { c, i in Float(c) / 2 + Float(i) / 4096 }
            }
        }
        #expect(seen.map(\.frame) == [0, 1])
        #expect(seen.map(\.y) == [40, 100] && seen.map(\.u) == [100, 100] && seen.map(\.v) == [150, 150])
        #expect(seen.allSatisfy { $0.rows == [48, 24] })
        #expect(seen.allSatisfy { $0.samples.count == 2 && $0.samples.allSatisfy { $0.count == 1600 } })
        #expect(seen[1].samples[1][800] == 0.5 + 800.0 / 4096)
    }

    /// Nothing reaches the destination until `commit`, and a stage dropped before it leaves nothing.
    @Test func aStageDroppedBeforeCommitLeavesNoFile() throws {
        let dir = TemporaryDirectory()
        do {
            let stage = try OutputStage(destination: dir.path("out.mp4"), format: OutputFormat.standard,
                                        encoding: EncodingSettings(preset: "ultrafast"), frameHashPath: dir.path("out.md5"))
            let compositor = try Compositor(size: OutputFormat.standard.size)
            try stage.write(frame: 0, picture: compositor.picture) { span, audio in audio.fill(count: span.count) { _, _ in 0 } }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    /// The one rule: what the user gives, else the source's, else the standard format's.
    @Test func theOutputFormatRuleTakesTheUsersThenTheSourcesThenTheStandard() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("a.mp4"), size: "320x240", rate: "25", seconds: 1, sampleRate: 44100, channels: 1)
        try FFmpegTool.makeClip(dir.path("silent.mp4"), size: "160x90", rate: "24", seconds: 1, audio: false)
        let clip = try MediaProbe.probe(dir.path("a.mp4"))
        #expect(OutputFormat.resolve(source: clip)
                == OutputFormat(size: PixelSize(width: 320, height: 240), frameRate: FrameRate(25), sampleRate: 44100, channels: 1))
        #expect(OutputFormat.resolve(size: PixelSize(width: 64, height: 64), sampleRate: 48000, source: clip)
                == OutputFormat(size: PixelSize(width: 64, height: 64), frameRate: FrameRate(25), sampleRate: 48000, channels: 1))
        let silent = try MediaProbe.probe(dir.path("silent.mp4"))
        #expect(OutputFormat.resolve(source: silent)
                == OutputFormat(size: PixelSize(width: 160, height: 90), frameRate: FrameRate(24), sampleRate: 48000, channels: 2))
        #expect(OutputFormat.resolve() == OutputFormat(size: PixelSize(width: 640, height: 360), frameRate: FrameRate(30),
                                                       sampleRate: 48000, channels: 2))
    }

    /// `transcode` keeps the input's audio format when none is asked for (the rule), as its help says.
    @Test func transcodeKeepsTheInputsAudioFormatByDefault() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), size: "160x120", rate: "25", seconds: 2, sampleRate: 44100, channels: 1)
        let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mkv"),
                                              encoding: EncodingSettings(profile: .lossless)))
        #expect(result.format.sampleRate == 44100 && result.format.channels == 1)
        #expect(result.audioSamples == 88_200)
        #expect(try FFmpegTool.decodedSampleCount(dir.path("out.mkv"), channels: 1) == 88_200)
    }
}
