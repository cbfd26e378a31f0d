@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import MediaCore
import Testing

@Suite struct PlaybackSessionCommandTests {
    /// A 2 s mid-roll at 2 s with pause/resume tracking, 6 s of content.
    static func session(script: String = "", mode: SessionConfiguration.Mode = .batch,
                        limit: MediaTime? = nil) throws -> PlaybackSession {
        var configuration = try testConfiguration(script: script, mode: mode)
        configuration.outputLimit = limit
        return try PlaybackSession(
            plan: AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [testAd("m", tracking: [.pause, .resume])])]),
            configuration: configuration, media: FakeAdMedia(rate: tenFPS, seconds: ["m": 2]), appDelegate: nil)
    }

    @Test func aScreenCommandIsLoggedAndRefusedWithoutADevice() throws {
        let run = runToEnd(try Self.session(script: "rotate landscape@1"))
        let refusal = try #require(run.events.first { $0.columns.reason == .refused })
        #expect(refusal.frame == 10 && refusal.columns.message == "rotate landscape ignored: screen commands need --device")
        #expect(run.frames(of: .command) == [10] && contentIsContinuous(run))
    }

    @Test func pauseFreezesTheContentPictureUntilResume() throws {
        let run = runToEnd(try Self.session(script: "pause@1; resume@1.5"))
        #expect(run.decisions[9] == FrameDecision(frame: 9, source: .content(tick: 9)))
        for frame in 10..<15 {
            #expect(run.decisions[frame] == FrameDecision(frame: Int64(frame), source: .content(tick: 9), isPaused: true))
        }
        #expect(run.decisions[15].source == .content(tick: 10))
        #expect(run.frames(of: .adBreakStarted) == [25])
        #expect(run.frames(of: .pause).isEmpty, "PAUSE is an ad event")
        #expect(contentIsContinuous(run) && run.contentTicks == Array(0..<60))
    }

    @Test func pausingAnAdFreezesItDelaysItsQuartilesAndFiresPauseAndResume() throws {
        // The ad starts at frame 20; paused after 5 of its frames for 1 s.
        let run = runToEnd(try Self.session(script: "pause@2.5; resume@3.5"))
        #expect(run.decisions[25] == FrameDecision(frame: 25, source: .ad(AdReference(0, 0), tick: 4), isPaused: true))
        #expect(run.decisions[35] == FrameDecision(frame: 35, source: .ad(AdReference(0, 0), tick: 5)))
        #expect(run.events.filter { $0.type == .pause || $0.type == .resume }.map(\.compact)
            == ["25 PAUSE b0 a0", "35 RESUME b0 a0"])
        #expect(run.beacons(.pause).map(\.columns.url) == ["https://t.example/m/pause"])
        #expect(run.beacons(.resume).map(\.frame) == [35])
        #expect(run.frames(of: .firstQuartile) == [35] && run.frames(of: .midpoint) == [40])
        #expect(run.frames(of: .complete) == [50])
    }

    @Test func pauseBeforeTheFirstFrameAndResumeWithoutPauseAreRefused() throws {
        let run = runToEnd(try Self.session(script: "pause@0; resume@0.1"))
        #expect(run.events.filter { $0.type == .log }.map(\.columns.message) == [
            "pause ignored: nothing is playing yet", "resume ignored: not paused",
        ])
        #expect(run.decisions.allSatisfy { !$0.isPaused })
    }

    @Test func aBatchSessionPausedWithNoResumeLeftEnds() throws {
        let run = runToEnd(try Self.session(script: "pause@1; pip on@3"))
        #expect(run.decisions.count == 10)
        #expect(run.timeline.suffix(2) == ["10 COMMAND", "10 SESSION_ENDED"])
        #expect(run.first(.sessionEnded)?.columns.reason == .scriptEnded)
        #expect(run.frames(of: .allAdsCompleted).isEmpty)
    }

    @Test func aLiveSessionPausedWaitsForResume() throws {
        let session = try Self.session(mode: .live)
        _ = runToEnd(session, maxFrames: 5)
        session.submit(.pause)
        let paused = runToEnd(session, maxFrames: 50)
        #expect(paused.decisions.allSatisfy { $0.isPaused && $0.source == .content(tick: 4) })
        #expect(session.status.isPaused && session.status.showing == .content(tick: 4))
        session.submit(.resume)
        #expect(session.nextFrame()?.source == .content(tick: 5))
    }

    @Test func aLiveSessionWhoseInputClosedEndsInsteadOfWaiting() throws {
        let session = try Self.session(mode: .live)
        _ = runToEnd(session, maxFrames: 5)
        session.submit(.pause)
        session.inbox.close()
        session.submit(.resume)
        let rest = runToEnd(session, maxFrames: 50)
        #expect(rest.decisions.isEmpty, "the pause applies, nothing can resume it, so the session ends there")
        #expect(rest.first(.sessionEnded)?.columns.reason == .scriptEnded)
    }

    @Test func commandsSubmittedFromAnotherTaskApplyAtTheNextFrame() async throws {
        let session = try Self.session(mode: .live)
        _ = session.nextFrame()
        let inbox = session.inbox
        await Task.detached { inbox.submit(.pause); inbox.submit(.startPictureInPicture) }.value
        let next = try #require(session.nextFrame())
        #expect(next == FrameDecision(frame: 1, source: .content(tick: 0), isPaused: true,
                                      pip: PixelRect(x: 1264, y: 704, width: 640, height: 360)))
        #expect(session.commandLog.formatted() == "pause@0.1; pip on@0.1")
    }

    @Test func aSeekWhilePausedTakesEffectAtResume() throws {
        let run = runToEnd(try Self.session(script: "pause@1; seek 4@1.2; resume@1.5"))
        #expect(run.decisions[14] == FrameDecision(frame: 14, source: .content(tick: 9), isPaused: true))
        // The mid-roll at 2 s was jumped over: it plays at resume, then the content goes on from 4 s.
        #expect(run.decisions[15].source == .ad(AdReference(0, 0), tick: 0))
        #expect(run.decisions[35].source == .content(tick: 40))
        #expect(run.first(.adBreakReady)?.frame == 12)
    }

    @Test func quitEndsAtOnceAndTheLimitEndsAtItsFrame() throws {
        let quit = runToEnd(try Self.session(script: "quit@2.5"))
        #expect(quit.decisions.count == 25)
        #expect(quit.timeline.suffix(2) == ["25 COMMAND", "25 SESSION_ENDED"])
        #expect(quit.first(.sessionEnded)?.columns.reason == .quit)
        let limited = runToEnd(try Self.session(limit: seconds(Rational(33, 10))))
        #expect(limited.decisions.count == 33 && limited.first(.sessionEnded)?.columns.reason == .outputLimit)
        #expect(limited.frames(of: .complete).isEmpty)
    }

    @Test func aSeekPastTheEndEndsTheContentAndASeekAfterTheEndIsRefused() throws {
        let run = runToEnd(try Self.session(script: "seek 99@0.5"))
        #expect(run.frames(of: .adBreakStarted) == [5])
        #expect(run.decisions.count == 25 && run.first(.sessionEnded)?.columns.reason == .contentEnded)
    }

    @Test func statusDescribesThePositionForALiveLine() throws {
        let session = try Self.session(script: "pip on@2.5")
        _ = runToEnd(session, maxFrames: 26)
        let status = session.status
        #expect(status.frame == 26 && status.showing == .ad(breakIndex: 0, adIndex: 0, tick: 5, frameCount: 20))
        #expect(status.description == "0:00:02.600 ad 0 of break 0, frame 6/20 | PiP active")
        _ = runToEnd(session, maxFrames: 20)
        #expect(session.status.description == "0:00:04.600 content 0:00:02.600 | PiP active")
        #expect(try Self.session().status.nextBreak == .init(index: 0, position: .midroll(seconds(2))))
    }
}

@Suite struct PlaybackSessionDeterminismTests {
    static func session(mode: SessionConfiguration.Mode = .batch, script: String) throws -> PlaybackSession {
        let plan = AdPlan(breaks: [
            AdBreak(position: .preroll, tracking: [TrackingEvent(event: .breakStart, url: "https://v.example/s?[CACHEBUSTING]")],
                    ads: [testAd("p", tracking: [.start, .complete], impressions: 3)]),
            AdBreak(position: .midroll(seconds(2)), ads: [testAd("m", skip: .fraction(Rational(1, 2)), tracking: [.skip]),
                                                         testAd("broken")]),
            AdBreak(position: .midroll(seconds(4)), ads: [testAd("n", progress: [.time(MediaDuration(seconds: 1))])]),
            AdBreak(position: .postroll, ads: [testAd("q")]),
        ])
        let media = FakeAdMedia(rate: tenFPS, seconds: ["p": 1, "m": 2, "n": 2, "q": 1])
        var configuration = try testConfiguration(script: script, mode: mode)
        configuration.beacons.seed = 99
        configuration.beacons.clockOrigin = Date(timeIntervalSince1970: 1_700_000_000)
        return try PlaybackSession(plan: plan, configuration: configuration, media: media, appDelegate: nil)
    }

    static let script = "pip on@0.5; pip off@1.2; skip@4; pip@4.5; seek 1@5; pip@6.5; pause@7; resume@7.3; seek 5.5@8"

    @Test func twoIdenticalSessionsGiveIdenticalDecisionsAndEvents() throws {
        let a = runToEnd(try Self.session(script: Self.script)), b = runToEnd(try Self.session(script: Self.script))
        #expect(a.decisions == b.decisions)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try a.events.map { try encoder.encode($0) } == b.events.map { try encoder.encode($0) })
        #expect(a.frames(of: .skipped) == [40] && a.frames(of: .adError) == [40] && a.frames(of: .adBreakStarted) == [0, 30, 80, 105])
        #expect(a.beacons(.impression).count == 6)
    }

    @Test func theCommandLogOfALiveSessionReplaysAsABatchScriptToTheSameFrames() throws {
        let live = try Self.session(mode: .live, script: "")
        let typed: [Int: SessionCommand] = [5: .startPictureInPicture, 12: .stopPictureInPicture, 40: .skip,
                                            45: .togglePictureInPicture, 50: .seek(seconds(1)), 65: .togglePictureInPicture,
                                            70: .pause, 73: .resume, 80: .seek(seconds(Rational(11, 2)))]
        var liveRun = SessionRun()
        while let decision = live.nextFrame() {
            liveRun.decisions.append(decision)
            liveRun.events += live.drainEvents()
            if let command = typed[liveRun.decisions.count] { live.submit(command) }
        }
        liveRun.events += live.drainEvents()
        let recorded = live.commandLog.formatted(frameRate: tenFPS)
        let replay = runToEnd(try Self.session(script: recorded))
        #expect(replay.decisions == liveRun.decisions)
        #expect(replay.events == liveRun.events)
        #expect(try SessionScript(parsing: live.commandLog.formatted()) == live.commandLog)
    }

    @Test func contentTicksNeverGoBackOrSkipExceptAcrossASeek() throws {
        let run = runToEnd(try Self.session(script: Self.script))
        #expect(contentIsContinuous(run, seekFrames: [50, 80]))
        #expect(!contentIsContinuous(run), "the two seeks do jump")
    }
}
