@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

/// `play`: a break cued while picture-in-picture is active starts at its cue and plays inside the window, with the
/// events and beacons of any break.
@Suite struct PictureInPictureAdPolicyTests {
    static let window = PlaybackSessionPictureInPictureTests.window

    static func session(policy: PictureInPictureSettings.BreakPolicy, script: String = "pip on@1; pip off@4") throws -> PlaybackSession {
        let ad = testAd("m", tracking: [.start, .complete])
        return try PlaybackSession(plan: AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [ad])]),
                                   configuration: testConfiguration(script: script, pip: PictureInPictureSettings(breakPolicy: policy)),
                                   media: FakeAdMedia(rate: tenFPS, seconds: ["m": 1]), appDelegate: nil)
    }

    @Test func aBreakCuedInPictureInPicturePlaysAtItsCueInsideTheWindow() throws {
        let session = try Self.session(policy: .play)
        let run = runToEnd(session)
        // Content in the window until the cue at 2 s, then the 1 s ad in the same window, then the content again.
        for frame in 10..<20 {
            #expect(run.decisions[frame] == FrameDecision(frame: Int64(frame), source: .content(tick: Int64(frame)), pip: Self.window))
        }
        for frame in 20..<30 {
            #expect(run.decisions[frame] == FrameDecision(frame: Int64(frame), source: .ad(AdReference(0, 0), tick: Int64(frame - 20)),
                                                          pip: Self.window))
        }
        #expect(run.decisions[30] == FrameDecision(frame: 30, source: .content(tick: 20), pip: Self.window))
        #expect(run.decisions[40].pip == nil)
        #expect(run.timeline.filter { $0.hasPrefix("20 ") } == [
            "20 AD_BREAK_READY b0", "20 LOADED b0 a0", "20 CONTENT_PAUSE_REQUESTED b0", "20 AD_BREAK_STARTED b0",
            "20 STARTED b0 a0", "20 IMPRESSION b0 a0",
        ])
        #expect(run.frames(of: .complete) == [30])
        #expect(run.frames(of: .adBreakDeferred).isEmpty && run.frames(of: .adBreakSkipped).isEmpty)
        #expect(run.beacons(.impression).map(\.columns.url) == ["https://t.example/m/imp0"])
        #expect(run.beacons(.start).map(\.columns.url) == ["https://t.example/m/start"])
        #expect(run.beacons(.complete).count == 1)
        #expect(session.plan.breaks[0].ads[0].state == .played)
        #expect(run.contentTicks == Array(0..<60))
    }

    /// The default stays `defer`: the same script holds the break until the window closes.
    @Test func theDefaultPolicyStillDefers() throws {
        #expect(PictureInPictureSettings().breakPolicy == .defer)
        let run = runToEnd(try Self.session(policy: PictureInPictureSettings().breakPolicy))
        #expect(run.frames(of: .adBreakDeferred) == [20])
        #expect(run.frames(of: .adBreakStarted) == [40])
        #expect((20..<40).allSatisfy { run.decisions[$0].source == .content(tick: Int64($0)) })
    }
}
