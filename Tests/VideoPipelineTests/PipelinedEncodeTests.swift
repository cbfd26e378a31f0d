import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The output stage's encoder thread: the same bytes as encoding on the caller's thread, run after run, and its
/// failures reach the caller.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool to make the input"))
struct PipelinedEncodeTests {
    /// A transcode of a moving picture with sound, H.264 with two encoder threads and FFV1, pipelined twice and
    /// not pipelined once: the three files are the same bytes.
    @Test(arguments: [EncodingSettings.Profile.delivery, .lossless])
    func pipelinedOutputIsByteIdenticalToUnpipelinedAndRunToRun(_ profile: EncodingSettings.Profile) throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("in.mp4"), size: "320x240", rate: "25", seconds: 3, channels: 2)
        let ext = profile == .delivery ? "mp4" : "mkv"
        var files: [Data] = []
        for (i, pipelined) in [true, true, false].enumerated() {
            let output = dir.path("out\(i).\(ext)")
            let encoding = EncodingSettings(profile: profile, crf: 28, preset: "veryfast", threads: 2, pipelined: pipelined)
            let result = try Transcoder.run(.init(input: dir.path("in.mp4"), output: output, size: PixelSize(width: 640, height: 360),
                                                  frameRate: FrameRate(30), encoding: encoding, frameHashPath: output + ".md5"))
            #expect(result.frames == 90)
            files.append(try Data(contentsOf: URL(fileURLWithPath: output)))
            files.append(try Data(contentsOf: URL(fileURLWithPath: output + ".md5")))
        }
        #expect(files[0].count > 10_000)
        #expect(files[0] == files[2] && files[0] == files[4], "the video files differ")
        #expect(files[1] == files[3] && files[1] == files[5], "the frame hashes differ")
    }

    private struct Failed: Error {}

    /// The first job that throws stops the ones queued after it; its error is what the next `submit` and `finish`
    /// throw. Jobs run in order, on a thread that is not the caller's.
    @Test(.timeLimit(.minutes(1))) func aFailingJobStopsTheRestAndItsErrorReachesTheCaller() throws {
        let thread = EncodeThread(capacity: 2, name: "test")
        let ran = LockedState<[Int]>([])
        let caller = Thread.current
        let otherThread = LockedState(true)
        let gate = DispatchSemaphore(value: 0)
        try thread.submit { () throws(MediaError) in
            gate.wait()
            ran.withLock { $0.append(0) }
            otherThread.withLock { $0 = $0 && Thread.current != caller }
        }
        try thread.submit { () throws(MediaError) in
            ran.withLock { $0.append(1) }
            throw .invalidSetting(name: "job", value: "1", reason: "fails")
        }
        try thread.submit { () throws(MediaError) in ran.withLock { $0.append(2) } }
        gate.signal()
        // Whichever `submit` comes after the failure throws it (however late the thread gets to the failing job;
        // the time limit is the bound against a hang); the queued job 2 never runs.
        var thrown: MediaError?
        while thrown == nil {
            do { try thread.submit { () throws(MediaError) in ran.withLock { $0.append(9) } } } catch { thrown = error }
            Thread.sleep(forTimeInterval: 0.001)
        }
        #expect(thrown == .invalidSetting(name: "job", value: "1", reason: "fails"))
        #expect(throws: MediaError.invalidSetting(name: "job", value: "1", reason: "fails")) { try thread.finish() }
        #expect(ran.withLock { $0 }.prefix(2) == [0, 1])
        #expect(!ran.withLock { $0 }.contains(2))
        #expect(otherThread.withLock { $0 })
    }

    /// A stage dropped mid-way (a render that fails) ends its thread and leaves no file, with frames still queued.
    @Test func aPipelinedStageDroppedMidwayLeavesNoFile() throws {
        let dir = TemporaryDirectory()
        do {
            let stage = try OutputStage(destination: dir.path("out.mp4"), format: OutputFormat.standard,
                                        encoding: EncodingSettings(preset: "ultrafast", pipelined: true), frameHashPath: dir.path("out.md5"))
            let compositor = try Compositor(size: OutputFormat.standard.size)
            for n in Int64(0)..<20 {
                try stage.write(frame: n, picture: compositor.picture) { span, audio in audio.fill(count: span.count) { _, _ in 0 } }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }
}
