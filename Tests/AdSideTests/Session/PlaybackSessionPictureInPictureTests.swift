@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

@Suite struct PlaybackSessionPictureInPictureTests {
    static let window = PixelRect(x: 1264, y: 704, width: 640, height: 360)

    /// A 1 s mid-roll at `cue` seconds of 6 s content.
    static func midrollSession(cue: MediaTime = seconds(2), script: String,
                               pip: PictureInPictureSettings = PictureInPictureSettings(),
                               mode: SessionConfiguration.Mode = .batch, pod: Int = 1) throws -> PlaybackSession {
        let ads = (0..<pod).map { testAd("m\($0)") }
        let media = FakeAdMedia(rate: tenFPS, seconds: Dictionary(uniqueKeysWithValues: ads.map { ($0.id!, Int64(1)) }))
        return try PlaybackSession(plan: AdPlan(breaks: [AdBreak(position: .midroll(cue), ads: ads)]),
                                   configuration: testConfiguration(script: script, mode: mode, pip: pip),
                                   media: media, appDelegate: nil)
    }

    @Test func aMidrollCueReachedInPictureInPictureStartsWhenItStopsNotBefore() throws {
        let session = try Self.midrollSession(script: "pip on@1; pip off@3")
        let run = runToEnd(session)
        for frame in 10..<30 {
            #expect(run.decisions[frame] == FrameDecision(frame: Int64(frame), source: .content(tick: Int64(frame)), pip: Self.window))
        }
        let deferred = try #require(run.first(.adBreakDeferred))
        #expect(deferred.frame == 20 && deferred.columns.reason == .pipActive && deferred.columns.cueTime == 2.0 && deferred.columns.breakIndex == 0)
        #expect(run.timeline.filter { $0.hasPrefix("30 ") } == [
            "30 COMMAND", "30 PIP_RESTORE_USER_INTERFACE", "30 PIP_WILL_STOP", "30 PIP_DID_STOP", "30 LOADED b0 a0",
            "30 CONTENT_PAUSE_REQUESTED b0", "30 AD_BREAK_STARTED b0", "30 STARTED b0 a0", "30 IMPRESSION b0 a0",
        ])
        let started = try #require(run.first(.adBreakStarted))
        #expect(started.columns.cueTime == 2.0 && started.time == 3.0 && started.contentTime == 3.0)
        #expect(run.decisions[30] == FrameDecision(frame: 30, source: .ad(AdReference(0, 0), tick: 0)))
        #expect(run.decisions[40].source == .content(tick: 30))
        #expect(run.contentTicks == Array(0..<60))
        #expect(contentIsContinuous(run))
    }

    @Test func underTheSkipPolicyTheHeldBreakNeverStartsAndIsReported() throws {
        let session = try Self.midrollSession(script: "pip on@1; pip off@3",
                                              pip: PictureInPictureSettings(breakPolicy: .skip))
        let run = runToEnd(session)
        let skipped = try #require(run.first(.adBreakSkipped))
        #expect(skipped.frame == 20 && skipped.columns.reason == .pipActive && skipped.columns.cueTime == 2.0)
        #expect(run.frames(of: .adBreakStarted).isEmpty && run.frames(of: .adBreakDeferred).isEmpty)
        #expect(run.decisions.count == 60 && run.contentTicks == Array(0..<60))
        #expect(session.plan.breaks[0].ads[0].state == .skipped)
    }

    @Test func aBreakStartedBeforePictureInPicturePlaysToItsEndInTheWindowWithQuartilesOnTime() throws {
        // Pod of two 1 s ads at 1 s; the window opens at 1.5 s, in the first ad.
        let session = try Self.midrollSession(cue: seconds(1), script: "pip on@1.5", pod: 2)
        let run = runToEnd(session)
        #expect(run.decisions[14] == FrameDecision(frame: 14, source: .ad(AdReference(0, 0), tick: 4)))
        for frame in 15..<30 {
            #expect(run.decisions[frame].pip == Self.window)
            #expect(run.decisions[frame].source == .ad(AdReference(0, frame < 20 ? 0 : 1), tick: Int64(frame % 10)))
        }
        #expect(run.frames(of: .firstQuartile) == [13, 23])
        #expect(run.frames(of: .midpoint) == [15, 25])
        #expect(run.frames(of: .thirdQuartile) == [18, 28])
        #expect(run.frames(of: .complete) == [20, 30])
        #expect(run.decisions[30] == FrameDecision(frame: 30, source: .content(tick: 10), pip: Self.window))
        #expect(run.frames(of: .adBreakDeferred).isEmpty)
    }

    @Test func pictureInPictureAtTimeZeroIsRefusedSoThePrerollPlaysFullScreen() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("p")]),
                                   AdBreak(position: .midroll(.zero), ads: [testAd("z")])])
        let media = FakeAdMedia(rate: tenFPS, seconds: ["p": 1, "z": 1])
        let refused = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2, script: "pip on@0"),
                                                   media: media, appDelegate: nil))
        #expect(refused.first(.pipFailedToStart)?.columns.message == "picture-in-picture is not possible now: nothing is playing")
        #expect(refused.decisions.allSatisfy { $0.pip == nil })
        #expect(refused.decisions[0].source == .ad(AdReference(0, 0), tick: 0))

        // Moved into the window during the pre-roll: the pre-roll (both of its breaks) goes on there.
        let moved = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2, script: "pip on@0.5"),
                                                 media: media, appDelegate: nil))
        #expect(moved.decisions[4].pip == nil && moved.decisions[5].pip == Self.window)
        #expect(moved.decisions[10] == FrameDecision(frame: 10, source: .ad(AdReference(1, 0), tick: 0), pip: Self.window))
        #expect(moved.decisions[20] == FrameDecision(frame: 20, source: .content(tick: 0), pip: Self.window))
        #expect(moved.frames(of: .adBreakDeferred).isEmpty)
    }

    @Test func togglingEveryFrameHoldsTheBreakOnlyWhileTheWindowIsUp() throws {
        // Toggle at every frame from 0.1 s to 4 s: the window is up after odd frames. The cue at 2.1 s (frame 21)
        // is reached with the window up; it starts at frame 22, when the window goes down.
        let toggles = (1...40).map { "pip@\($0 / 10).\($0 % 10)" }.joined(separator: "; ")
        let session = try Self.midrollSession(cue: seconds(Rational(21, 10)), script: toggles)
        let run = runToEnd(session)
        for decision in run.decisions where (1...40).contains(decision.frame) {
            #expect(decision.pip == (decision.frame % 2 == 1 ? Self.window : nil))
        }
        #expect(run.frames(of: .adBreakDeferred) == [21])
        #expect(run.frames(of: .adBreakStarted) == [22])
        #expect(run.first(.adBreakStarted)?.columns.cueTime == 2.1)
        #expect(run.decisions[21].source == .content(tick: 21))
        #expect(run.decisions[22].source == .ad(AdReference(0, 0), tick: 0))
        #expect(run.frames(of: .complete) == [32])
        #expect(run.decisions[32].source == .content(tick: 22))
        #expect(run.frames(of: .pipWillStart).count == 20 && run.frames(of: .pipDidStop).count == 20)
        #expect(contentIsContinuous(run) && run.contentTicks == Array(0..<60))
    }

    @Test func withoutBackgroundPlaybackPictureInPictureFailsAndTheVideoStaysFullScreen() throws {
        let session = try Self.midrollSession(script: "pip on@1; pip off@3",
                                              pip: PictureInPictureSettings(isBackgroundPlaybackEnabled: false))
        let run = runToEnd(session)
        let failure = try #require(run.first(.pipFailedToStart))
        #expect(failure.frame == 10 && failure.columns.message == "background playback is not enabled")
        #expect(run.decisions.allSatisfy { $0.pip == nil })
        #expect(run.frames(of: .adBreakStarted) == [20])
        #expect(run.events.last { $0.type == .log }?.columns.message == "pip off ignored: picture-in-picture is inactive")
    }

    @Test func aTransitionOfSeveralFramesAnimatesTheWindowAndHoldsFromWillStartToDidStop() throws {
        let session = try Self.midrollSession(cue: seconds(Rational(11, 10)), script: "pip on@1; pip off@3",
                                              pip: PictureInPictureSettings(transitionFrames: 3))
        let run = runToEnd(session)
        #expect(run.frames(of: .pipWillStart) == [10] && run.frames(of: .pipDidStart) == [13])
        #expect(run.frames(of: .pipWillStop) == [30] && run.frames(of: .pipDidStop) == [33])
        #expect(run.decisions[10].pip == PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        #expect(run.decisions[11].pip == PixelRect(x: 420, y: 234, width: 1492, height: 840))
        #expect(run.decisions[13].pip == Self.window)
        #expect(run.decisions[31].pip == PixelRect(x: 842, y: 468, width: 1066, height: 600))
        #expect(run.frames(of: .adBreakDeferred) == [11])
        #expect(run.frames(of: .adBreakStarted) == [33])
        #expect(run.decisions[33] == FrameDecision(frame: 33, source: .ad(AdReference(0, 0), tick: 0)))
        #expect(contentIsContinuous(run))
    }
}

@Suite struct PlaybackSessionHeldBreakTests {
    /// 1 s mid-rolls at 2 s and 3 s of 6 s content.
    static func session(script: String) throws -> PlaybackSession {
        try PlaybackSession(plan: AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [testAd("a")]),
                                                 AdBreak(position: .midroll(seconds(3)), ads: [testAd("b")])]),
                            configuration: testConfiguration(script: script),
                            media: FakeAdMedia(rate: tenFPS, seconds: ["a": 1, "b": 1]), appDelegate: nil)
    }

    @Test func everyCueReachedInOneWindowIsHeldAndTheyPlayInCueOrderWhenItCloses() throws {
        let run = runToEnd(try Self.session(script: "pip on@1; pip off@4"))
        #expect(run.events.filter { $0.type == .adBreakDeferred }.map(\.compact) == ["20 AD_BREAK_DEFERRED b0",
                                                                                       "30 AD_BREAK_DEFERRED b1"])
        let starts = run.events.filter { $0.type == .adBreakStarted }
        #expect(starts.map(\.frame) == [40, 50] && starts.map(\.columns.cueTime) == [2.0, 3.0])
        #expect(run.decisions[60].source == .content(tick: 40))
        #expect(contentIsContinuous(run))
    }

    @Test func aBreakChosenByASeekWhileTheWindowIsUpIsHeldFromTheSeek() throws {
        let run = runToEnd(try Self.session(script: "pip on@1; seek 3.5@1.5; pip off@2"))
        // Seeking from 1.5 s to 3.5 s jumps both; the last (3 s) is chosen and held from frame 15.
        #expect(run.events.filter { $0.type == .adBreakDeferred }.map(\.compact) == ["15 AD_BREAK_DEFERRED b1"])
        #expect(run.first(.adBreakStarted)?.frame == 20 && run.first(.adBreakStarted)?.columns.cueTime == 1.5)
        #expect(run.decisions[15].source == .content(tick: 35))
        #expect(run.decisions[30].source == .content(tick: 40))
    }

    @Test func aHeldBreakWhoseWindowClosesWhilePausedStartsAtResume() throws {
        let run = runToEnd(try Self.session(script: "pip on@1; pause@2.5; pip off@2.7; resume@3"))
        #expect(run.decisions[29] == FrameDecision(frame: 29, source: .content(tick: 24), isPaused: true))
        #expect(run.first(.adBreakStarted)?.frame == 30)
        #expect(run.decisions[30].source == .ad(AdReference(0, 0), tick: 0))
    }
}

@Suite struct PlaybackSessionPostrollPictureInPictureTests {
    static func session(script: String, mode: SessionConfiguration.Mode = .batch) throws -> PlaybackSession {
        try PlaybackSession(plan: AdPlan(breaks: [AdBreak(position: .postroll, ads: [testAd("q")])]),
                            configuration: testConfiguration(contentSeconds: 2, script: script, mode: mode),
                            media: FakeAdMedia(rate: tenFPS, seconds: ["q": 1]), appDelegate: nil)
    }

    @Test func aBatchSessionWhoseScriptCannotStopPictureInPictureEndsAndReportsTheHeldPostroll() throws {
        let session = try Self.session(script: "pip on@1; skip@5; pip on@6")
        let run = runToEnd(session)
        #expect(run.decisions.count == 20)
        #expect(run.timeline.suffix(5) == ["20 AD_BREAK_READY b0", "20 AD_BREAK_DEFERRED b0", "20 AD_BREAK_SKIPPED b0",
                                          "20 ALL_ADS_COMPLETED", "20 SESSION_ENDED"])
        #expect(run.first(.adBreakSkipped)?.columns.reason == .sessionEnded && run.first(.adBreakSkipped)?.columns.cueTime == 2.0)
        #expect(run.first(.sessionEnded)?.columns.reason == .scriptEnded)
        #expect(session.plan.breaks[0].ads[0].state == .skipped)
    }

    @Test func aHeldPostrollWaitsOnTheLastFrozenFrameAndPlaysWhenTheWindowCloses() throws {
        let run = runToEnd(try Self.session(script: "pip on@1; pip off@3"))
        for frame in 20..<30 {
            #expect(run.decisions[frame] == FrameDecision(frame: Int64(frame), source: .content(tick: 19), isPaused: true,
                                                          pip: PlaybackSessionPictureInPictureTests.window))
        }
        #expect(run.decisions[30] == FrameDecision(frame: 30, source: .ad(AdReference(0, 0), tick: 0)))
        #expect(run.first(.adBreakStarted)?.columns.cueTime == 2.0)
        #expect(run.decisions.count == 40 && run.first(.sessionEnded)?.columns.reason == .contentEnded)
    }

    @Test func aLiveSessionWaitsForTheUserToCloseTheWindow() throws {
        let session = try Self.session(script: "pip on@1", mode: .live)
        let run = runToEnd(session, maxFrames: 100)
        #expect(run.decisions.count == 100 && run.decisions.last?.isPaused == true)
        #expect(session.status.heldBreaks == [0])
        session.submit(.stopPictureInPicture)
        let rest = runToEnd(session)
        #expect(rest.decisions.first == FrameDecision(frame: 100, source: .ad(AdReference(0, 0), tick: 0)))
        #expect(rest.decisions.count == 10 && session.status.showing == .ended)
    }
}
