@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

@Suite struct AdsManagerSkipTests {
    /// A 4 s mid-roll at 1 s, skippable after 2 s, followed by a 1 s ad in the same pod.
    func session(script: String, skip: AdOffset? = .time(MediaDuration(seconds: 2))) throws -> PlaybackSession {
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)), ads: [
            testAd("s", skip: skip, tracking: [.skip, .complete, .thirdQuartile]), testAd("n"),
        ])])
        return try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 3, script: script),
                                   media: FakeAdMedia(rate: tenFPS, seconds: ["s": 4, "n": 1]), appDelegate: nil)
    }

    @Test func skipAfterTheOffsetSkipsToTheNextAdOfThePod() throws {
        // The ad starts at frame 10; at frame 30 it has shown 20 frames = 2 s.
        let session = try session(script: "skip@3")
        let run = runToEnd(session)
        #expect(run.timeline.filter { $0.hasPrefix("30 ") } == ["30 COMMAND", "30 SKIPPED b0 a0", "30 LOADED b0 a1",
                                                                  "30 STARTED b0 a1", "30 IMPRESSION b0 a1"])
        #expect(run.decisions[29].source == .ad(AdReference(0, 0), tick: 19))
        #expect(run.decisions[30].source == .ad(AdReference(0, 1), tick: 0))
        #expect(run.beacons(.skip).map(\.columns.url) == ["https://t.example/s/skip"])
        #expect(run.beacons(.complete).isEmpty && run.beacons(.thirdQuartile).isEmpty)
        #expect(session.plan.breaks[0].ads.map(\.state) == [.skipped, .played])
        #expect(run.contentTicks == Array(0..<30))
    }

    @Test func skipBeforeTheOffsetIsRefusedWithTheReason() throws {
        let run = runToEnd(try session(script: "skip@2.9"))
        let log = try #require(run.first(.log))
        #expect(log.frame == 29)
        #expect(log.columns.message == "skip ignored: ad 0 of break 0 can be skipped from 0:00:02.000 (it is 0:00:04.000 long); it is at 0:00:01.900")
        #expect(run.frames(of: .skipped).isEmpty)
        #expect(run.frames(of: .complete) == [50, 60])
    }

    @Test func aPercentSkipOffsetIsMeasuredOnTheRealDuration() throws {
        let run = runToEnd(try session(script: "skip@1.9; skip@2", skip: .fraction(Rational(1, 4))))
        #expect(run.frames(of: .log) == [19])
        #expect(run.frames(of: .skipped) == [20])
    }

    @Test func skipIsRefusedForAnUnskippableAdAndDuringContent() throws {
        let run = runToEnd(try session(script: "skip@0.5; skip@2", skip: nil))
        #expect(run.events.filter { $0.type == .log }.map(\.columns.message) == [
            "skip ignored: no ad is playing", "skip ignored: ad 0 of break 0 is not skippable",
        ])
    }
}

@Suite struct AdsManagerFailureTests {
    @Test func anAdThatFailsToPrepareIsReportedAndThePodGoesOn() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, tracking: [
            TrackingEvent(event: .error, url: "https://vmap.example/error?c=[ERRORCODE]"),
        ], ads: [testAd("bad"), testAd("good")])])
        let media = FakeAdMedia(rate: tenFPS, ["bad": .failure(AdError(.fileNotFound, "bad.mp4 does not exist")),
                                               "good": .success(MediaDuration(seconds: 1))])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 1), media: media,
                                          appDelegate: nil)
        let run = runToEnd(session)
        #expect(Array(run.timeline.prefix(7)) == ["0 AD_BREAK_READY b0", "0 AD_ERROR b0 a0", "0 LOADED b0 a1",
                                                  "0 CONTENT_PAUSE_REQUESTED b0", "0 AD_BREAK_STARTED b0",
                                                  "0 STARTED b0 a1", "0 IMPRESSION b0 a1"])
        let error = try #require(run.first(.adError))
        #expect(error.columns.code == 401 && error.columns.message == "bad.mp4 does not exist")
        #expect(run.beacons(.error).map(\.columns.url) == ["https://t.example/bad/error?code=401",
                                                    "https://vmap.example/error?c=401"])
        #expect(run.decisions[0].source == .ad(AdReference(0, 1), tick: 0))
        #expect(session.plan.breaks[0].ads.map(\.state) == [.failed, .played])
        #expect(session.plan.breaks[0].ads[0].error?.code == .fileNotFound)
    }

    @Test func aBreakWhoseAdsAllFailNeverPausesTheContent() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)), ads: [testAd("x"), testAd("y")])])
        let media = FakeAdMedia(rate: tenFPS, ["x": .failure(AdError(.noSupportedMedia, "no mp4")),
                                               "y": .success(.zero)])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2),
                                               media: media, appDelegate: nil))
        #expect(run.timeline == ["10 AD_BREAK_READY b0", "10 AD_ERROR b0 a0", "10 AD_ERROR b0 a1",
                                 "20 ALL_ADS_COMPLETED", "20 SESSION_ENDED"])
        #expect(run.events.filter { $0.type == .adError }.map(\.columns.code) == [403, 405])
        #expect(run.contentTicks == Array(0..<20))
    }

    @Test func anAdThatFailsMidPodIsReplacedAtTheSameOutputFrame() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("a"), testAd("b", tracking: [.start]), testAd("c")])])
        let media = FakeAdMedia(rate: tenFPS, seconds: ["a": 1, "b": 1, "c": 1])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 1), media: media,
                                          appDelegate: nil)
        var failed = false
        let run = runToEnd(session) { session, decision in
            if decision.source == .ad(AdReference(0, 1), tick: 4), !failed {
                failed = true
                session.adFailed(AdError(.mediaDisplay, "b.mp4: decoder error at frame 4"))
            }
        }
        let frames = run.decisions.map(\.frame)
        #expect(frames.filter { $0 == 14 }.count == 2, "frame 14 is decided twice")
        let second14 = run.decisions.last { $0.frame == 14 }
        #expect(second14?.source == .ad(AdReference(0, 2), tick: 0))
        #expect(run.timeline.filter { $0.hasPrefix("14 ") } == ["14 AD_ERROR b0 a1", "14 LOADED b0 a2",
                                                                  "14 STARTED b0 a2", "14 IMPRESSION b0 a2"])
        #expect(session.plan.breaks[0].ads.map(\.state) == [.played, .failed, .played])
        #expect(run.frames(of: .complete) == [10, 24])
        #expect(run.contentTicks == Array(0..<10))
    }

    @Test func adFailedWithoutAnAdOnScreenIsIgnored() throws {
        let session = try PlaybackSession(plan: .empty, configuration: testConfiguration(contentSeconds: 1),
                                          media: FakeAdMedia(rate: tenFPS, [:]), appDelegate: nil)
        _ = session.nextFrame()
        session.adFailed(AdError(.mediaDisplay, "oops"))
        #expect(session.drainEvents().map(\.type) == [.log])
        #expect(session.nextFrame()?.source == .content(tick: 1))
    }

    @Test func planErrorsAreReportedAtTheStart() throws {
        let plan = AdPlan(breaks: [], errors: [AdError(.noAdsAfterWrapper, "break 1: no ad in the response")])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 1),
                                               media: FakeAdMedia(rate: tenFPS, [:]), appDelegate: nil))
        #expect(run.first(.adError)?.columns.code == 303 && run.first(.adError)?.frame == 0)
    }
}

@Suite struct AdsManagerSchedulingTests {
    /// Mid-rolls of 1 s at 2 s, 4 s and 6 s of a 10 s content.
    static let plan = AdPlan(breaks: [
        AdBreak(position: .midroll(seconds(2)), ads: [testAd("m2")]),
        AdBreak(position: .midroll(seconds(4)), ads: [testAd("m4")]),
        AdBreak(position: .midroll(seconds(6)), ads: [testAd("m6")]),
    ])
    static func media() -> FakeAdMedia { FakeAdMedia(rate: tenFPS, seconds: ["m2": 1, "m4": 1, "m6": 1]) }

    static func breaksStarted(_ run: SessionRun) -> [Int] {
        run.events.filter { $0.type == .adBreakStarted }.compactMap(\.columns.breakIndex)
    }

    @Test(arguments: [
        (AdsRenderingSettings.SeekPolicy.last, [1, 2]), (.all, [0, 1, 2]), (.none, [2]),
    ])
    func seekingOverTwoMidrollsPlaysWhatThePolicySays(policy: AdsRenderingSettings.SeekPolicy, started: [Int]) throws {
        // At 1 s (content tick 10) seek to 5 s: breaks at 2 s and 4 s are jumped over.
        let session = try PlaybackSession(
            plan: Self.plan, configuration: testConfiguration(contentSeconds: 10, script: "seek 5@1",
                                                              ads: AdsRenderingSettings(seekPolicy: policy)),
            media: Self.media(), appDelegate: nil)
        let run = runToEnd(session)
        #expect(Self.breaksStarted(run) == started)
        let played = started.filter { $0 < 2 }
        let expectedStarts: [Int64] = (0..<played.count).map { Int64(10 + 10 * $0) }
        #expect(Array(run.frames(of: .adBreakStarted).prefix(played.count)) == expectedStarts)
        let resumeFrame = Int64(10 + 10 * played.count)
        #expect(run.decisions[Int(resumeFrame)].source == .content(tick: 50))
        #expect(run.contentTicks == Array(0..<10) + Array(50..<100))
        #expect(contentIsContinuous(run, seekFrames: [10]))
        let passed = run.events.filter { $0.type == .log && $0.columns.reason == .seek }.compactMap(\.columns.breakIndex)
        #expect(passed == [0, 1].filter { !started.contains($0) })
    }

    @Test func aSeekBackArmsAMidrollThatWasJumpedOverButNotOneThatPlayed() throws {
        let session = try PlaybackSession(
            plan: Self.plan, configuration: testConfiguration(contentSeconds: 10, script: "seek 5@1; seek 1@3"),
            media: Self.media(), appDelegate: nil)
        let run = runToEnd(session)
        // seek 5@1 plays break 1 (4 s), content 5 s from frame 20; at 3 s back to 1 s: break 0 is reached at 2 s,
        // break 1 (played) is not played again, break 2 plays at 6 s.
        #expect(Self.breaksStarted(run) == [1, 0, 2])
        #expect(session.plan.breaks.allSatisfy { $0.ads[0].state == .played })
    }

    @Test func aSeekDuringAnAdIsRefused() throws {
        let run = runToEnd(try PlaybackSession(
            plan: Self.plan, configuration: testConfiguration(contentSeconds: 10, script: "seek 9@2.5"),
            media: Self.media(), appDelegate: nil))
        #expect(run.first(.log)?.columns.message == "seek 9 ignored: an ad break is playing")
        #expect(Self.breaksStarted(run) == [0, 1, 2])
        #expect(contentIsContinuous(run))
    }

    @Test func aStartPositionAfterMidrollsPlaysThePrerollAndPassesTheMidrollsBehindIt() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("pre")])] + Self.plan.breaks)
        let media = FakeAdMedia(rate: tenFPS, seconds: ["pre": 1, "m2": 1, "m4": 1, "m6": 1])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 10, start: seconds(5)),
                                               media: media, appDelegate: nil))
        #expect(Self.breaksStarted(run) == [0, 3])
        #expect(run.decisions[10].source == .content(tick: 50))
        #expect(run.contentTicks.first == 50 && contentIsContinuous(run))
        #expect(run.events.filter { $0.columns.reason == .startPosition }.map(\.columns.message) == [
            "break 1 (midroll@0:00:02.000) is cued before the start position and is not played",
            "break 2 (midroll@0:00:04.000) is cued before the start position and is not played",
        ])
    }

    @Test func playAdsAfterTimeSkipsBreaksCuedAtOrBeforeIt() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("pre")])] + Self.plan.breaks)
        let media = FakeAdMedia(rate: tenFPS, seconds: ["pre": 1, "m2": 1, "m4": 1, "m6": 1])
        let session = try PlaybackSession(
            plan: plan, configuration: testConfiguration(contentSeconds: 10, ads: AdsRenderingSettings(playAdsAfterTime: seconds(4)),
                                                         start: seconds(4)),
            media: media, appDelegate: nil)
        let run = runToEnd(session)
        #expect(Self.breaksStarted(run) == [3])
        #expect(run.events.filter { $0.type == .adBreakSkipped }.map(\.compact) == ["0 AD_BREAK_SKIPPED b0", "0 AD_BREAK_SKIPPED b1", "0 AD_BREAK_SKIPPED b2"])
        #expect(run.first(.adBreakSkipped)?.columns.reason == .playAdsAfterTime)
        #expect(run.decisions[0].source == .content(tick: 40))
        #expect(session.plan.breaks.map { $0.ads[0].state } == [.skipped, .skipped, .skipped, .played])
    }

    @Test(arguments: [
        (AdsRenderingSettings(playsPrerolls: false), [1, 2], SessionEventReason.prerollsOff),
        (AdsRenderingSettings(playsMidrolls: false), [0, 2], SessionEventReason.midrollsOff),
        (AdsRenderingSettings(playsPostrolls: false), [0, 1], SessionEventReason.postrollsOff),
    ])
    func eachKindOfBreakCanBeSwitchedOff(settings: AdsRenderingSettings, started: [Int], reason: SessionEventReason) throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("a")]),
                                   AdBreak(position: .midroll(seconds(1)), ads: [testAd("b")]),
                                   AdBreak(position: .postroll, ads: [testAd("c")])])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2, ads: settings),
                                               media: FakeAdMedia(rate: tenFPS, seconds: ["a": 1, "b": 1, "c": 1]),
                                               appDelegate: nil))
        #expect(Self.breaksStarted(run) == started)
        #expect(run.first(.adBreakSkipped)?.columns.reason == reason)
        #expect(run.contentTicks == Array(0..<20))
        #expect(run.last?.type == .sessionEnded)
    }
}

extension SessionRun {
    var last: SessionEvent? { events.last }
}

/// Ads that decisioning already marked failed (no usable rendition, media missing) are reported at their turn.
@Suite struct AdsManagerLoadFailureTests {
    @Test func anAdThatFailedWhileLoadingIsReportedAtItsTurnInThePod() throws {
        var plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)), ads: [testAd("first"), testAd("norendition"), testAd("third")])])
        try plan.markFailed(breakIndex: 0, adIndex: 1, error: AdError(.noSupportedMedia, "no rendition fits",
                                                                     errorURLs: ["https://wrapper.example/err?e=[ERRORCODE]"]))
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2),
                                          media: FakeAdMedia(rate: tenFPS, seconds: ["first": 1, "third": 1]), appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.timeline.filter { $0.hasPrefix("20 ") }.prefix(3) == ["20 COMPLETE b0 a0", "20 AD_ERROR b0 a1", "20 LOADED b0 a2"])
        let error = try #require(run.first(.adError))
        #expect(error.columns.code == 403 && error.columns.message == "no rendition fits")
        #expect(run.beacons(.error).map(\.columns.url) == ["https://t.example/norendition/error?code=403", "https://wrapper.example/err?e=403"])
        #expect(run.frames(of: .adError) == [20])
    }

    @Test func planErrorsFireTheirErrorURLsAtTheStart() throws {
        let plan = AdPlan(breaks: [], errors: [AdError(.noAdsAfterWrapper, "no ad after 2 wrappers",
                                                       errorURLs: ["https://w.example/e?code=[ERRORCODE]"])])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 1),
                                          media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.first(.adError)?.columns.code == 303)
        #expect(run.beacons(.error).map(\.columns.url) == ["https://w.example/e?code=303"])
        #expect(run.beacons(.error).map(\.frame) == [0])
    }
}
