import Foundation
import LoopbackServer
import MediaCore
import Testing

/// End-to-end tests of the built `pipctl`: each runs the binary as a user or a script would and checks exit
/// statuses, messages, output and the files left on disk.
///
/// They run in parallel with each other (as many at once as `scripts/test` lets Swift Testing run: the number of
/// processors). None depends on how fast the machine is: each waits for what it needs to see (a file, a request,
/// a line of output), a job that must time out is stuck for good, and the few bounds on the wall clock ("stops at
/// once") are generous against the alternative they rule out (a 15 s deadline, a 60 s timeout).
@Suite enum EndToEnd {}

/// A stamped clip that `pipctl testsrc` makes for the tests, and what it must hold.
struct TestClip: Hashable, Sendable {
    /// The stamp name, also the file name without `.mp4`.
    var id: String
    var seconds: Int64
    var width: Int
    var height: Int
    var fps: Int64
    var sampleRate: Int
    var channels: Int
    var tone: Int

    /// The content of most tests: 6 s, 320x180 at 30 fps, 48 kHz stereo.
    static let content = TestClip(id: "content", seconds: 6, width: 320, height: 180, fps: 30, sampleRate: 48000,
                                  channels: 2, tone: 440)
    /// An ad of another shape, rate and sound: 2 s, 320x240 at 25 fps, 44.1 kHz mono.
    static let adA = TestClip(id: "ada", seconds: 2, width: 320, height: 240, fps: 25, sampleRate: 44100, channels: 1,
                              tone: 880)
    /// A portrait ad: 1 s, 180x320 at 24 fps, 48 kHz stereo.
    static let adB = TestClip(id: "adb", seconds: 1, width: 180, height: 320, fps: 24, sampleRate: 48000, channels: 2,
                              tone: 1320)
    /// Content long enough to interrupt or to talk to while it plays: 20 s.
    static let long = TestClip(id: "long", seconds: 20, width: 320, height: 180, fps: 30, sampleRate: 48000,
                               channels: 2, tone: 550)

    var frameRate: FrameRate { FrameRate(fps) }
    /// Every frame of the clip: `ceil(seconds × fps)`.
    var frames: Int64 { frameRate.frameCount(in: MediaDuration(seconds: seconds)) }

    var testsrcArguments: [String] {
        ["--duration", "\(seconds)", "--size", "\(width)x\(height)", "--fps", "\(fps)", "--sample-rate", "\(sampleRate)",
         "--channels", "\(channels)", "--id", id, "--tone", "\(tone)", "--preset", "ultrafast"]
    }

    /// The clip's path, in a directory shared by the tests of this run: a copy of the one in the fixture cache
    /// (`TestFixtures`, keyed by the sources `pipctl testsrc` is built from and its arguments), made there once.
    var path: String {
        get async throws {
            try await SharedArtifacts.shared.path(of: "\(id).mp4") { path in
                let key = (["pipctl testsrc", TestFixtures.sources(["Sources/VideoPipeline", "Sources/MediaCore", "Sources/pipctl"])]
                           + testsrcArguments).joined(separator: "\n")
                let cached = try await TestFixtures.file("\(id).mp4", key: key) { made in
                    let result = try await PipctlProcess.run(["testsrc", "-o", made] + testsrcArguments)
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "testsrc \(id): \(result.standardError)") }
                }
                try TestFixtures.copy(cached, to: path)
            }
        }
    }
}

/// Files that several tests read and none changes (clips, a reference render), made once per test run in a
/// directory removed at exit.
final class SharedArtifacts: Sendable {
    static let shared = SharedArtifacts()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("pipctl-e2e-shared-\(ProcessInfo.processInfo.processIdentifier)").path

    private let made = LockedState<[String: Task<String, any Error>]>([:])

    private init() {
        try? FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SharedArtifacts.directory) }
    }

    /// The path of the artifact `name`, made by `make(path)` the first time it is asked for.
    func path(of name: String, make: @escaping @Sendable (String) async throws -> Void) async throws -> String {
        let task = made.withLock { made in
            if let task = made[name] { return task }
            let path = Self.directory + "/" + name
            let task = Task { try await make(path); return path }
            made[name] = task
            return task
        }
        return try await task.value
    }
}

/// The frame-rate rule: output frame `j` at rate `outputRate` shows the source frame whose start is nearest to
/// `j / outputRate`, the later one on a tie — `floor(j × Fs / F + 1/2)` — and the last one once the source has
/// ended.
func sourceFrame(showingOutputFrame j: Int64, sourceRate: FrameRate, outputRate: FrameRate, sourceFrames: Int64) -> Int64 {
    min((Rational(j) * sourceRate.perSecond / outputRate.perSecond + Rational(1, 2)).floor, sourceFrames - 1)
}
