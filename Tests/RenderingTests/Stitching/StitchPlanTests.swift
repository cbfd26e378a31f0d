import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// Plans made from `--break` values, rendered: where each break lands on the output, what the event log says,
/// and that the verifier reads back from the pixels what the timeline promises.
@Suite struct StitchPlanTests {
    @Test func zeroPercentIsThePreRollHalfIsAMidRollTheEndIsThePostRollAndPastTheEndIsDropped() throws {
        let media = try StampedMedia.shared
        let plan = try media.plan(["0%=ad24.mp4", "50%=ad25.mp4", "100%=ad60.mp4", "post=mono.mp4", "10=ad2997.mp4",
                                   "11=ad2997.mp4"])
        // The placement rules of `AdPlanBuilder`: 0% is the pre-roll, n% a mid-roll at n% of the duration; the end
        // (VMAP's `end`, written `post` or `100%` in a `--break`) the post-roll, both values one break; a mid-roll
        // at or past the end is never reached and is left out with VAST 200.
        #expect(plan.breaks.map(\.position) == [.preroll, .midroll(MediaTime(seconds: 5)), .postroll])
        #expect(plan.breaks.map { $0.ads.map(\.ad.adTitle) } == [["ad24.mp4"], ["ad25.mp4"], ["ad60.mp4", "mono.mp4"]])
        #expect(plan.errors.map(\.code) == [.trafficking, .trafficking])
        #expect(plan.errors.map { $0.message.hasPrefix("--break 10=ad2997.mp4 left out: mid-roll at") } == [true, false])
        #expect(plan.errors.map { $0.message.hasPrefix("--break 11=ad2997.mp4 left out: mid-roll at") } == [false, true])

        let dir = try TemporaryDirectory()
        let request = media.request(plan, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        try StampedMedia.expectGoodRender(result, request)
        let expected: [StampedMedia.Piece] = [
            StampedMedia.Piece("ad24.mp4", 0, 0, out: 0..<30, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 30..<180, ticks: 0..<150),
            StampedMedia.Piece("ad25.mp4", 1, 0, out: 180..<210, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 210..<360, ticks: 150..<300),
            StampedMedia.Piece("ad60.mp4", 2, 0, out: 360..<390, ticks: 0..<30),
            StampedMedia.Piece("mono.mp4", 2, 1, out: 390..<426, ticks: 0..<36),
        ]
        #expect(StampedMedia.pieces(result.timeline) == expected)
        #expect(result.timeline.output.frames == 426)
        #expect(result.plan.breaks.flatMap(\.ads).map(\.state) == [.played, .played, .played, .played])

        let events = try EventLog.read(request.eventsFile)
        // The left-out breaks are reported once, at the start, with their code and no break index.
        let errors = events.filter { $0.type == .adError }
        #expect(errors.map(\.columns.code) == [200, 200])
        #expect(errors.map(\.frame) == [0, 0])
        #expect(errors.map(\.columns.breakIndex) == [nil, nil])
        #expect(events.filter { $0.type == .adBreakStarted }.map(\.frame) == [0, 180, 360])
        #expect(events.filter { $0.type == .adBreakEnded }.map(\.frame) == [30, 210, 426])
        #expect(events.filter { $0.type == .allAdsCompleted }.count == 1)
    }

    @Test func theThreeAdsOfAPodPlayBackToBackAndTheContentResumesWhereItPaused() throws {
        let media = try StampedMedia.shared
        let plan = try media.plan(["50%=ad24.mp4,ad25.mp4,ad60.mp4"])
        #expect(plan.breaks.count == 1)
        #expect(plan.breaks.first?.ads.count == 3)

        let dir = try TemporaryDirectory()
        let request = media.request(plan, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        let report = try StampedMedia.expectGoodRender(result, request)
        let expected: [StampedMedia.Piece] = [
            StampedMedia.Piece("content.mp4", out: 0..<150, ticks: 0..<150),
            StampedMedia.Piece("ad24.mp4", 0, 0, out: 150..<180, ticks: 0..<30),
            StampedMedia.Piece("ad25.mp4", 0, 1, out: 180..<210, ticks: 0..<30),
            StampedMedia.Piece("ad60.mp4", 0, 2, out: 210..<240, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 240..<390, ticks: 150..<300),
        ]
        #expect(StampedMedia.pieces(result.timeline) == expected)
        // What the pixels show: each ad from its first frame to its last under the frame-rate rule, the content
        // going on at the frame it paused at.
        #expect(report.shown.map { "\($0.source ?? "?") \($0.outStartFrame)..<\($0.outEndFrame) #\($0.firstIndex ?? -1)-\($0.lastIndex ?? -1)" } == [
            "content 0..<150 #0-149", "ad24 150..<180 #0-23", "ad25 180..<210 #0-24", "ad60 210..<240 #0-58",
            "content 240..<390 #150-299",
        ])
        // Four changes of sound, one at each splice.
        #expect(report.audioBoundaries.map(\.frame) == [150, 180, 210, 240])

        let events = try EventLog.read(request.eventsFile)
        #expect(events.filter { $0.type == .contentPauseRequested }.map(\.frame) == [150])
        #expect(events.filter { $0.type == .started }.map(\.frame) == [150, 180, 210])
        #expect(events.filter { $0.type == .started }.map(\.columns.adIndex) == [0, 1, 2])
        #expect(events.filter { $0.type == .complete }.map(\.frame) == [180, 210, 240])
        #expect(events.filter { $0.type == .contentResumeRequested }.map(\.frame) == [240])
    }
}
