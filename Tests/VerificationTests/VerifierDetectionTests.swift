import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
@testable import Verification
import VideoPipeline

/// The verifier catches what it must, and says it in words: a timeline that moved a boundary, dropped a content
/// frame or swapped two ads; an output whose break sits elsewhere than a golden timeline's; an output that is not
/// the one its timeline describes.
@Suite struct VerifierDetectionTests {
    /// Two renders made once: `good` (a pre-roll, then a pod of two at 5 s) and `moved` (the same, the pod at
    /// 5.4 s: twelve frames later).
    struct Renders: Sendable {
        var good: RenderRequest
        var goodTimeline: Timeline
        var moved: RenderRequest

        static var shared: Renders { get throws { try made.get() } }
        private static let made: Result<Renders, any Error> = Result(catching: {
            let media = try StampedMedia.shared
            func render(_ name: String, _ breaks: [String]) throws -> RenderResult {
                try Stitcher.render(media.request(try media.plan(breaks), output: media.directory + "/\(name).mp4"))
            }
            let good = try render("good", ["pre=ad25.mp4", "5=ad24.mp4,ad60.mp4"])
            let moved = try render("moved", ["pre=ad25.mp4", "5.4=ad24.mp4,ad60.mp4"])
            return Renders(good: media.request(good.plan, output: media.directory + "/good.mp4"), goodTimeline: good.timeline,
                           moved: media.request(moved.plan, output: media.directory + "/moved.mp4"))
        })
    }

    /// How a test edits a copy of the good timeline.
    enum Edit: String, CaseIterable, Sendable {
        /// The content before the pod runs twelve frames longer; the pod starts twelve frames later.
        case breakStartsLater
        /// The pod's last ad runs twelve frames longer; the content resumes twelve frames later.
        case breakEndsLater
        /// The pod's last ad ends twelve frames earlier; the content resumes twelve frames earlier.
        case breakEndsEarlier
        /// The content resumes one tick further on: one content frame dropped.
        case contentFrameDropped
        /// The two ads of the pod trade their sources.
        case adsSwapped

        func apply(to timeline: inout Timeline) {
            // Segments: 0 pre-roll, 1 content, 2 and 3 the pod, 4 content.
            func shiftStart(_ i: Int, by frames: Int64) {
                timeline.segments[i].outStartFrame += frames
                timeline.segments[i].srcStartTick += frames
            }
            func shiftEnd(_ i: Int, by frames: Int64) {
                timeline.segments[i].outEndFrame += frames
                timeline.segments[i].srcEndTick += frames
            }
            switch self {
            case .breakStartsLater:
                shiftEnd(1, by: 12)
                shiftStart(2, by: 12)
            case .breakEndsLater:
                shiftEnd(3, by: 12)
                shiftStart(4, by: 12)
            case .breakEndsEarlier:
                shiftEnd(3, by: -12)
                shiftStart(4, by: -12)
            case .contentFrameDropped:
                timeline.segments[4].srcStartTick += 1
            case .adsSwapped:
                let first = timeline.segments[2]
                timeline.segments[2].source = timeline.segments[3].source
                timeline.segments[2].sourceFps = timeline.segments[3].sourceFps
                timeline.segments[3].source = first.source
                timeline.segments[3].sourceFps = first.sourceFps
            }
        }

        /// The codes of the first two problems (`sentences`).
        var codes: [VerifyFinding.Code] {
            switch self {
            case .breakStartsLater, .breakEndsLater, .breakEndsEarlier, .contentFrameDropped: [.framesBoundary, .contentDiscontinuity]
            case .adsSwapped: [.framesSource, .framesSource]
            }
        }

        /// The problems the verifier must report first: what the pixels show against the edited timeline, then
        /// what the edited timeline itself breaks (content continuity).
        var sentences: [String] {
            switch self {
            case .breakStartsLater:
                ["break 1 started at output frame 180, the timeline says 192",
                 "content resumed at tick 150 at output frame 240: ticks 150–161 were shown twice"]
            case .breakEndsLater:
                ["content resumed at output frame 240, the timeline says 252",
                 "content resumed at tick 162 at output frame 252: ticks 150–161 were lost"]
            case .breakEndsEarlier:
                ["content resumed at output frame 240, the timeline says 228",
                 "content resumed at tick 138 at output frame 228: ticks 138–149 were shown twice"]
            case .contentFrameDropped:
                ["content resumed at content frame 150 at output frame 240, the timeline says frame 151 (1 frame behind)",
                 "content resumed at tick 151 at output frame 240: tick 150 was lost"]
            case .adsSwapped:
                ["output frames 180–209 show ad24, the timeline says ad60 (ad 0 of break 1)",
                 "output frames 210–239 show ad60, the timeline says ad24 (ad 1 of break 1)"]
            }
        }
    }

    @Test func theTwoRendersPassAndTheGoodOneIsWhatTheOtherTestsEdit() throws {
        let renders = try Renders.shared
        let report = try Verifier.verify(.init(outputPath: renders.good.output.path))
        #expect(report.passed, "\(report.text)")
        let moved = try Verifier.verify(.init(outputPath: renders.moved.output.path))
        #expect(moved.passed, "\(moved.text)")
        #expect(StampedMedia.pieces(renders.goodTimeline) == [
            StampedMedia.Piece("ad25.mp4", 0, 0, out: 0..<30, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 30..<180, ticks: 0..<150),
            StampedMedia.Piece("ad24.mp4", 1, 0, out: 180..<210, ticks: 0..<30),
            StampedMedia.Piece("ad60.mp4", 1, 1, out: 210..<240, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 240..<390, ticks: 150..<300),
        ] as [StampedMedia.Piece])
    }

    @Test(arguments: Edit.allCases)
    func anEditedTimelineFailsWithTheSentenceThatSaysWhatMoved(_ edit: Edit) throws {
        let renders = try Renders.shared
        let dir = try TemporaryDirectory()
        var timeline = renders.goodTimeline
        edit.apply(to: &timeline)
        let edited = try dir.write("edited.timeline.json", try timeline.jsonData())
        let report = try Verifier.verify(.init(outputPath: renders.good.output.path, timelinePath: edited))
        #expect(!report.passed)
        #expect(Array(report.problems.prefix(2)) == edit.sentences, "all problems: \(report.problems)")
        #expect(Array(report.findings.prefix(2).map(\.code)) == edit.codes)
        if edit == .adsSwapped {
            #expect(report.findings.contains { $0.code == .audioSource && $0.subject == .frames(first: 180, last: 209) })
            // The sound gives the swap away too.
            #expect(report.problems.contains("output frames 180–209 (ad 0 of break 1) sound like a 600 Hz tone, expected a 1150 Hz tone"))
        }
    }

    @Test func aBreakMovedFromTheGoldenTimelineIsReportedAgainstIt() throws {
        let renders = try Renders.shared
        let report = try Verifier.verify(.init(outputPath: renders.good.output.path,
                                               goldenPath: renders.moved.timelineFile))
        #expect(!report.passed)
        // The pod started twelve frames early; where the golden's begins, the output is twelve frames into it.
        #expect(report.problems.prefix(2) == [
            "break 1 started at output frame 180, expected 192",
            "break 1 started at ad24 frame 10 at output frame 192, expected frame 0 (10 frames ahead)",
        ], "all problems: \(report.problems)")
        #expect(report.findings.prefix(2).map(\.code) == [.framesBoundary, .framesBoundary])
        #expect(report.findings.prefix(2).map(\.subject) == [.frame(180), .frame(192)])
        // Against its own timeline the output is right: every problem is against the golden (its frames, or since
        // goldens cover the screen, its events moved with the break).
        #expect(report.problems.allSatisfy { $0.contains("expected") || $0.contains("golden") }, "all problems: \(report.problems)")
    }

    @Test func anOutputThatIsNotTheOneItsTimelineDescribesFails() throws {
        let renders = try Renders.shared
        let dir = try TemporaryDirectory()
        // The moved plan rendered under the good render's name, beside the good render's timeline.
        let output = dir.path + "/good.mp4"
        try FileManager.default.copyItem(atPath: renders.moved.output.path, toPath: output)
        try FileManager.default.copyItem(atPath: renders.good.timelineFile, toPath: output + ".timeline.json")
        let report = try Verifier.verify(.init(outputPath: output))
        #expect(!report.passed)
        #expect(report.problems.prefix(3) == [
            "break 1 started at output frame 192, the timeline says 180",
            "ad 1 of break 1 started at output frame 222, the timeline says 210",
            "content resumed at output frame 252, the timeline says 240",
        ], "all problems: \(report.problems)")
        #expect(report.findings.prefix(3).map(\.code) == [.framesBoundary, .framesBoundary, .framesBoundary])
    }

    /// Verifies the good render after the `ffmpeg` tool changed it (`ffmpeg -i GOOD ARGUMENTS CHANGED.mp4`),
    /// against the good render's timeline.
    static func verifyGood(changedBy arguments: [String]) throws -> VerifyReport {
        let renders = try Renders.shared
        let dir = try TemporaryDirectory()
        return try withExtendedLifetime(dir) {
            let output = dir.path + "/changed.mp4"
            try StampedMedia.ffmpeg(["-i", renders.good.output.path] + arguments + [output])
            return try Verifier.verify(.init(outputPath: output, timelinePath: renders.good.timelineFile))
        }
    }

    @Test func anOutputMissingOneFrameFails() throws {
        guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath) to cut a frame out") }
        let report = try Self.verifyGood(changedBy: ["-vf", "select=not(eq(n\\,100))", "-fps_mode", "passthrough",
                                                     "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", "-c:a", "copy"])
        #expect(!report.passed)
        #expect(report.problems.prefix(3) == [
            "the output has 389 frames, the timeline says 390",
            "output frame 100 shows content frame 71, the timeline says frame 70 (1 frame ahead: frames lost)",
            "break 1 started at ad24 frame 1 at output frame 180, the timeline says frame 0 (1 frame ahead)",
        ], "all problems: \(report.problems)")
        #expect(report.findings.prefix(3).map(\.code) == [.outputFrameCount, .framesOffset, .framesBoundary])
        #expect(report.findings.prefix(3).map(\.subject) == [.render, .frame(100), .frame(180)])
    }

    /// The sound check of an output without sound (verify refuses such a render against a timeline with sound before
    /// it gets there; the check itself still says it): the render's `audio.missing`.
    @Test func anOutputWithoutSoundIsTheRendersAudioMissing() throws {
        guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath) to drop the sound") }
        let renders = try Renders.shared
        let dir = try TemporaryDirectory()
        let output = dir.path + "/silent.mp4"
        try StampedMedia.ffmpeg(["-i", renders.good.output.path, "-c:v", "copy", "-an", output])
        var sources = SourceCatalog(baseDirectories: [])
        var problems: [VerifyFinding] = [], notes: [String] = []
        let boundaries = try Verifier.audio(output, timeline: renders.goodTimeline, rate: FrameRate(30), sources: &sources,
                                            problems: &problems, notes: &notes)
        #expect(boundaries.isEmpty)
        #expect(problems == [VerifyFinding(.audioMissing)])
        #expect(problems.map(\.code) == [.audioMissing] && problems.map(\.subject) == [.render])
        #expect(problems.map(\.text) == ["the output has no audio"])
    }

    /// A golden of another size: the output's format is not the golden's.
    @Test func aGoldenOfAnotherSizeIsTheOutputsFormat() throws {
        let renders = try Renders.shared
        let dir = try TemporaryDirectory()
        var golden = renders.goodTimeline
        golden.output.width = renders.goodTimeline.output.width / 2
        let path = try dir.write("golden.timeline.json", try golden.jsonData())
        let report = try Verifier.verify(.init(outputPath: renders.good.output.path, goldenPath: path))
        #expect(report.findings.first?.code == .outputFormat, "all problems: \(report.problems)")
        #expect(report.findings.first?.subject == .render)
    }

    @Test func soundLateByOneAndAHalfFramesFailsAtEverySplice() throws {
        guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath) to delay the sound") }
        // 2400 samples at 48 kHz: 1.5 frames at 30 fps; the pictures are copied untouched.
        let report = try Self.verifyGood(changedBy: ["-c:v", "copy", "-af", "adelay=2400S:all=1", "-c:a", "aac"])
        #expect(!report.passed)
        #expect(report.audioBoundaries.map(\.frame) == [30, 180, 210, 240])
        for boundary in report.audioBoundaries {
            #expect(!boundary.ok)
            #expect(abs((boundary.offsetFrames ?? 0) - 1.5) < 0.1, "found \(boundary.offsetFrames ?? .nan) frames late at \(boundary.frame)")
        }
        // One sentence per splice, in order; the offset is printed to a tenth of a frame.
        let late = /the audio of (.+) changes 1\.[4-6] frames after its video at output frame (\d+)/
        #expect(report.problems.compactMap { try? late.wholeMatch(in: $0).map { "\($0.output.1)@\($0.output.2)" } }
            == ["content@30", "break 1@180", "ad 1 of break 1@210", "content@240"], "all problems: \(report.problems)")
        #expect(report.problems.count == 4)
        #expect(report.findings.map(\.code) == Array(repeating: .audioOffset, count: 4))
        #expect(report.findings.map(\.subject) == [.frame(30), .frame(180), .frame(210), .frame(240)])
    }
}
