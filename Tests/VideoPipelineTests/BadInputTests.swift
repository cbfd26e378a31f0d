import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Every kind of bad input gets one clear error naming the file, and nothing is left at the output path.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make fixtures"))
struct BadInputTests {
    enum Case: String, CaseIterable, Sendable {
        case missing, directory, empty, randomBytes, mp4CutInHalf, faststartMP4CutInHalf, audioOnly, videoWithNoFrames,
             fragmentedMP4WithNoFrames
    }

    /// Makes the bad input of a case in `dir` and returns its path.
    static func make(_ kind: Case, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("input-\(kind.rawValue)")
        switch kind {
        case .missing: break
        case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .empty: _ = FileManager.default.createFile(atPath: path, contents: Data())
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            _ = FileManager.default.createFile(atPath: path, contents: Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case .mp4CutInHalf, .faststartMP4CutInHalf:
            let whole = dir.path("whole.mp4")
            try FFmpegTool.makeClip(whole, seconds: 2, extra: kind == .faststartMP4CutInHalf ? ["-movflags", "+faststart"] : [])
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            _ = FileManager.default.createFile(atPath: path, contents: data.prefix(data.count / 2))
        case .audioOnly: try FFmpegTool.makeClip(path + ".m4a", video: false); return path + ".m4a"
        case .fragmentedMP4WithNoFrames:
            // A fragmented MP4 whose video track has no sample: its guessed rate is just its time base.
            try FFmpegTool.makeClip(dir.path("whole.mp4"), seconds: 1, audio: false)
            try FFmpegTool.ffmpeg("-i", dir.path("whole.mp4"), "-map", "0:v", "-c", "copy", "-frames:v", "0",
                                  "-movflags", "frag_keyframe+empty_moov", path + ".mp4")
            return path + ".mp4"
        case .videoWithNoFrames:
            // A Matroska file whose video track exists but holds no frame (its audio track keeps the file valid;
            // MP4 drops empty tracks altogether).
            let format = OutputFormat(size: PixelSize(width: 64, height: 64), frameRate: FrameRate(25))
            let writer = try MediaWriter(destination: path + ".mkv", format: format, encoding: EncodingSettings(profile: .lossless))
            let silence = try AudioBuffer(channels: 2, sampleRate: 48000, capacity: 4800)
            silence.fill(count: 4800) { _, _ in 0 }
            try writer.writeAudio(silence)
            try writer.finish()
            return path + ".mkv"
        }
        return path
    }

    @Test(arguments: Case.allCases)
    func transcodeFailsCleanly(kind: Case) throws {
        let dir = TemporaryDirectory()
        let input = try Self.make(kind, in: dir)
        let before = dir.contents
        let output = dir.path("out.mp4")
        do {
            _ = try Transcoder.run(.init(input: input, output: output, encoding: EncodingSettings(preset: "ultrafast")))
            Issue.record("\(kind) was accepted")
        } catch {
            let message = error.description
            #expect(message.hasPrefix(input), "the message names the file: \(message)")
            #expect(!message.contains("\n"))
            switch (kind, error) {
            case (.missing, .fileNotFound), (.directory, .isDirectory), (.empty, .emptyFile), (.randomBytes, .unreadable),
                 (.mp4CutInHalf, .truncated), (.faststartMP4CutInHalf, .truncated), (.audioOnly, .missingStream(_, .video)),
                 (.videoWithNoFrames, .noFrames), (.fragmentedMP4WithNoFrames, .noFrames):
                break
            default:
                Issue.record("\(kind) gave \(error)")
            }
        }
        #expect(dir.contents == before, "nothing written, no temporary file left")
    }

    @Test func refusesAnOutputInAMissingDirectory() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), seconds: 0.2)
        #expect(throws: MediaError.outputNotWritable(path: dir.path("nope/out.mp4"), reason: "the directory \(dir.path("nope")) does not exist")) {
            try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("nope/out.mp4")))
        }
    }

    @Test func anInterruptedJobLeavesNothingBehind() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), seconds: 2)
        var frames = 0
        let control = JobControl(progress: { done, _ in frames = Int(done) }, isCancelled: { frames >= 10 })
        #expect(throws: MediaError.interrupted) {
            try Transcoder.run(.init(input: dir.path("in.mp4"), output: dir.path("out.mp4"), frameHashPath: dir.path("out.md5")),
                               control: control)
        }
        #expect(dir.contents == ["in.mp4"])
    }
}
