import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// An ad whose media cannot play never stops a render: the event log says why with the VAST code, the plan marks
/// the ad failed, and the rest of the plan plays, in place.
@Suite struct StitchAdFailureTests {
    enum BadAd: String, CaseIterable, Sendable {
        /// The file was there when the plan was made and is gone when the render reaches it.
        case missing
        /// The first half of an MP4 (its index promises more than the file holds).
        case truncated
        /// An M4A with the ad's sound and no picture.
        case audioOnly

        /// VAST 401 for a file not found; 405 for media that cannot be displayed.
        var code: Int {
            switch self {
            case .missing: 401
            case .truncated, .audioOnly: 405
            }
        }
    }

    @Test(arguments: BadAd.allCases)
    func aFailedAdIsReportedWithItsCodeAndTheRestOfThePlanPlays(_ kind: BadAd) throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let bad: String
        switch kind {
        case .missing, .truncated:
            bad = dir.path + "/bad.mp4"
            let whole = try Data(contentsOf: URL(fileURLWithPath: media.ad60.path))
            try whole.prefix(kind == .missing ? whole.count : whole.count / 2).write(to: URL(fileURLWithPath: bad))
        case .audioOnly:
            guard StampedMedia.hasFFmpeg else { try Test.cancel("needs \(StampedMedia.ffmpegPath) to make an audio-only file") }
            bad = dir.path + "/bad.m4a"
            try StampedMedia.ffmpeg(["-i", media.ad60.path, "-vn", "-c:a", "copy", bad])
        }
        // Break 0 fails over from its first ad to the bad one; break 2 has nothing but the bad one.
        let plan = try media.plan(["3=ad24.mp4,\(bad)", "6=ad25.mp4", "8=\(bad)"])
        if kind == .missing { try FileManager.default.removeItem(atPath: bad) }

        let request = media.request(plan, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        try StampedMedia.expectGoodRender(result, request)

        #expect(result.plan.breaks.map { $0.ads.map(\.state) } == [[.played, .failed], [.played], [.failed]])
        #expect(result.plan.breaks.map { $0.ads.map { $0.error?.code.rawValue } } == [[nil, kind.code], [nil], [kind.code]])
        let expected: [StampedMedia.Piece] = [
            StampedMedia.Piece("content.mp4", out: 0..<90, ticks: 0..<90),
            StampedMedia.Piece("ad24.mp4", 0, 0, out: 90..<120, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 120..<210, ticks: 90..<180),
            StampedMedia.Piece("ad25.mp4", 1, 0, out: 210..<240, ticks: 0..<30),
            StampedMedia.Piece("content.mp4", out: 240..<360, ticks: 180..<300),
        ]
        #expect(StampedMedia.pieces(result.timeline) == expected)

        let events = try EventLog.read(request.eventsFile)
        let errors = events.filter { $0.type == .adError }
        #expect(errors.map(\.columns.code) == [kind.code, kind.code])
        #expect(errors.map(\.columns.breakIndex) == [0, 2])
        #expect(errors.map(\.columns.adIndex) == [1, 0])
        // Where the render reached each bad ad: after the first ad of break 0, and at break 2's cue (8 s).
        #expect(errors.map(\.frame) == [120, 300])
        #expect(errors.allSatisfy { $0.columns.message?.contains(bad) == true }, "the message names the file: \(errors.map { $0.columns.message ?? "" })")
        // A break whose every ad failed never pauses the content.
        #expect(events.filter { $0.type == .contentPauseRequested }.map(\.columns.breakIndex) == [0, 1])
        #expect(events.filter { $0.type == .started }.map { [$0.columns.breakIndex, $0.columns.adIndex] } == [[0, 0], [1, 0]])
    }
}
