import AdPlayback
import AdScreen
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
@testable import Verification
import VideoPipeline

/// When verification cannot run at all (no timeline, not a timeline, a source without stamps) it says so in one
/// line naming the file, instead of reporting problems; a golden made for another format is a problem in words.
@Suite struct VerifierInputTests {
    @Test func aMissingOutputIsNamedBeforeItsTimeline() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.file("none.mp4")
        let failure = try #require(throws: Verifier.Failure.self) { try Verifier.verify(.init(outputPath: missing)) }
        #expect(failure.description == "\(missing): no such file")
    }

    @Test func aMissingTimelineIsNamed() throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        let missing = dir.path + "/none.timeline.json"
        let failure = try #require(throws: Verifier.Failure.self) {
            try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: missing))
        }
        guard case .timeline(missing, "no such file") = failure else {
            Issue.record("gave \(failure)")
            return
        }
        #expect(failure.description == "\(missing): no such file")
    }

    @Test func aFileThatIsNotATimelineIsNamed() throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        let garbage = try dir.write("garbage.timeline.json", #"{"version": 1, "segments": "none"}"#)
        let failure = try #require(throws: Verifier.Failure.self) {
            try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: garbage))
        }
        #expect(failure.description == "\(garbage): not a pipctl timeline: output: missing")
    }

    @Test func aSourceWithoutStampsCannotBeVerified() throws {
        guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath) to make an unstamped clip") }
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        let plain = dir.path + "/plain.mp4"
        try StampedMedia.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1", "-c:v", "libx264",
                                 "-preset", "ultrafast", "-pix_fmt", "yuv420p", plain])
        var timeline = renders.goodTimeline
        timeline.segments[2].source = plain
        let edited = try dir.write("edited.timeline.json", try timeline.jsonData())
        let failure = try #require(throws: Verifier.Failure.self) {
            try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: edited))
        }
        guard case .unstampedSource(plain) = failure else {
            Issue.record("gave \(failure)")
            return
        }
        #expect(failure.description == "\(plain): carries no frame stamps; verify needs sources made by `pipctl testsrc`")
    }

    @Test func aGoldenOfAnotherSizeIsAProblemInWords() throws {
        let renders = try VerifierDetectionTests.Renders.shared
        let dir = try TemporaryDirectory()
        var golden = renders.goodTimeline
        golden.output.width = 640
        golden.output.height = 360
        golden.output.fps = "25/1"
        let path = try dir.write("golden.timeline.json", try golden.jsonData())
        let report = try Verifier.verify(.init(outputPath: renders.good.output.path, goldenPath: path))
        #expect(!report.passed)
        #expect(report.problems.first == "the output is 320x180 at 30/1 fps, expected 640x360 at 25/1 fps", "all problems: \(report.problems)")
    }
}
