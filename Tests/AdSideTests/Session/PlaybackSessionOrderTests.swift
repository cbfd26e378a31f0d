@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

@Suite struct PlaybackSessionOrderTests {
    /// Pre-roll pod of two 1 s ads, a 2 s mid-roll at 3 s, a 1 s post-roll; 6 s of content at 10 fps.
    static func plan() -> AdPlan {
        AdPlan(breaks: [
            AdBreak(position: .preroll, ads: [testAd("p1"), testAd("p2")]),
            AdBreak(position: .midroll(seconds(3)), ads: [testAd("m1")]),
            AdBreak(position: .postroll, ads: [testAd("q1")]),
        ])
    }

    static func media() -> FakeAdMedia {
        FakeAdMedia(rate: tenFPS, seconds: ["p1": 1, "p2": 1, "m1": 2, "q1": 1])
    }

    @Test func emitsTheWholeSequenceForPreMidAndPostRollWithAPod() throws {
        let session = try PlaybackSession(plan: Self.plan(), configuration: testConfiguration(), media: Self.media(),
                                          appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.timeline == [
            "0 AD_BREAK_READY b0", "0 LOADED b0 a0", "0 CONTENT_PAUSE_REQUESTED b0", "0 AD_BREAK_STARTED b0",
            "0 STARTED b0 a0", "0 IMPRESSION b0 a0",
            "3 FIRST_QUARTILE b0 a0", "5 MIDPOINT b0 a0", "8 THIRD_QUARTILE b0 a0",
            "10 COMPLETE b0 a0", "10 LOADED b0 a1", "10 STARTED b0 a1", "10 IMPRESSION b0 a1",
            "13 FIRST_QUARTILE b0 a1", "15 MIDPOINT b0 a1", "18 THIRD_QUARTILE b0 a1",
            "20 COMPLETE b0 a1", "20 AD_BREAK_ENDED b0", "20 CONTENT_RESUME_REQUESTED b0",
            "50 AD_BREAK_READY b1", "50 LOADED b1 a0", "50 CONTENT_PAUSE_REQUESTED b1", "50 AD_BREAK_STARTED b1",
            "50 STARTED b1 a0", "50 IMPRESSION b1 a0",
            "55 FIRST_QUARTILE b1 a0", "60 MIDPOINT b1 a0", "60 AD_PROGRESS b1 a0", "65 THIRD_QUARTILE b1 a0",
            "70 COMPLETE b1 a0", "70 AD_BREAK_ENDED b1", "70 CONTENT_RESUME_REQUESTED b1",
            "100 AD_BREAK_READY b2", "100 LOADED b2 a0", "100 CONTENT_PAUSE_REQUESTED b2", "100 AD_BREAK_STARTED b2",
            "100 STARTED b2 a0", "100 IMPRESSION b2 a0",
            "103 FIRST_QUARTILE b2 a0", "105 MIDPOINT b2 a0", "108 THIRD_QUARTILE b2 a0",
            "110 COMPLETE b2 a0", "110 AD_BREAK_ENDED b2", "110 CONTENT_RESUME_REQUESTED b2",
            "110 ALL_ADS_COMPLETED", "110 SESSION_ENDED",
        ])
        #expect(run.decisions.count == 110)
        #expect(session.plan.breaks.allSatisfy { $0.ads.allSatisfy { $0.state == .played } })
    }

    @Test func showsEachSourceTickByTickAndResumesContentWhereItPaused() throws {
        let session = try PlaybackSession(plan: Self.plan(), configuration: testConfiguration(), media: Self.media(),
                                          appDelegate: nil)
        let run = runToEnd(session)
        let sources = run.decisions.map(\.source)
        #expect(sources[0] == .ad(AdReference(0, 0), tick: 0))
        #expect(sources[9] == .ad(AdReference(0, 0), tick: 9))
        #expect(sources[10] == .ad(AdReference(0, 1), tick: 0))
        #expect(sources[20] == .content(tick: 0))
        #expect(sources[49] == .content(tick: 29))
        #expect(sources[50] == .ad(AdReference(1, 0), tick: 0))
        #expect(sources[69] == .ad(AdReference(1, 0), tick: 19))
        #expect(sources[70] == .content(tick: 30))
        #expect(sources[99] == .content(tick: 59))
        #expect(sources[100] == .ad(AdReference(2, 0), tick: 0))
        #expect(run.contentTicks == Array(0..<60))
        #expect(run.decisions.enumerated().allSatisfy { $0.element.frame == Int64($0.offset) && !$0.element.isPaused && $0.element.pip == nil })
        #expect(session.nextFrame() == nil)
    }

    @Test func stampsEventsWithOutputAndContentTime() throws {
        let session = try PlaybackSession(plan: Self.plan(), configuration: testConfiguration(), media: Self.media(),
                                          appDelegate: nil)
        let run = runToEnd(session)
        let midrollStart = try #require(run.events.first { $0.type == .adBreakStarted && $0.columns.breakIndex == 1 })
        #expect(midrollStart.time == 5.0 && midrollStart.contentTime == 3.0 && midrollStart.columns.cueTime == nil)
        let resume = try #require(run.events.first { $0.type == .contentResumeRequested && $0.columns.breakIndex == 1 })
        #expect(resume.time == 7.0 && resume.contentTime == 3.0)
    }

    @Test func aMidrollCuedAtZeroIsThePreroll() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(.zero), ads: [testAd("z")])])
        let media = FakeAdMedia(rate: tenFPS, seconds: ["z": 1])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2),
                                          media: media, appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.decisions.first?.source == .ad(AdReference(0, 0), tick: 0))
        #expect(run.contentTicks == Array(0..<20))
        let prerollsOff = try PlaybackSession(
            plan: plan, configuration: testConfiguration(contentSeconds: 2, ads: AdsRenderingSettings(playsPrerolls: false)),
            media: media, appDelegate: nil)
        let skipped = runToEnd(prerollsOff)
        #expect(skipped.first(.adBreakSkipped)?.columns.reason == .prerollsOff)
        #expect(skipped.frames(of: .started).isEmpty)
    }

    @Test func aMidrollCueBetweenTicksTriggersAtTheFirstTickAtOrAfterIt() throws {
        // 2.01 s at 10 fps: ticks 20 (2.0 s) < cue ≤ tick 21 (2.1 s).
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(Rational(201, 100))), ads: [testAd("m")])])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 4),
                                          media: FakeAdMedia(rate: tenFPS, seconds: ["m": 1]), appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.decisions[20].source == .content(tick: 20))
        #expect(run.decisions[21].source == .ad(AdReference(0, 0), tick: 0))
        #expect(run.decisions[31].source == .content(tick: 21))
    }

    @Test func quartilesFollowTheRealDurationNotTheFrameCount() throws {
        // 1.05 s of media: 11 frames at 10 fps; quartiles at 0.2625 s, 0.525 s, 0.7875 s → ticks 3, 6, 8.
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("a")])])
        let media = FakeAdMedia(rate: tenFPS, exactSeconds: ["a": Rational(105, 100)])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 1),
                                               media: media, appDelegate: nil))
        #expect(run.frames(of: .firstQuartile) == [3])
        #expect(run.frames(of: .midpoint) == [6])
        #expect(run.frames(of: .thirdQuartile) == [8])
        #expect(run.frames(of: .complete) == [11])
    }

    @Test func endsAtContentEndWithoutAPostroll() throws {
        let run = runToEnd(try PlaybackSession(plan: .empty, configuration: testConfiguration(contentSeconds: 1),
                                               media: FakeAdMedia(rate: tenFPS, [:]), appDelegate: nil))
        #expect(run.timeline == ["10 ALL_ADS_COMPLETED", "10 SESSION_ENDED"])
        #expect(run.first(.sessionEnded)?.columns.reason == .contentEnded)
        #expect(run.contentTicks == Array(0..<10))
    }

    @Test func refusesContentThatCannotPlay() {
        let media = FakeAdMedia(rate: tenFPS, [:])
        #expect(throws: SessionError.emptyContent(frameCount: 0)) {
            try PlaybackSession(plan: .empty, configuration: testConfiguration(contentSeconds: 0), media: media,
                                appDelegate: nil)
        }
        #expect(throws: SessionError.startOutsideContent(start: seconds(6), contentDuration: MediaDuration(seconds: 6))) {
            try PlaybackSession(plan: .empty, configuration: testConfiguration(start: seconds(6)), media: media,
                                appDelegate: nil)
        }
    }
}
