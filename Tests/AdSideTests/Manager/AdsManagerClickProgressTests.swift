@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

@Suite struct AdsManagerClickTests {
    /// A 3 s mid-roll at 1 s (output frames 10–39 at 10 fps) with a ClickThrough and two ClickTracking URLs.
    func run(script: String, clickThrough: String? = "https://advertiser.example/landing?x=[CACHEBUSTING]") throws -> SessionRun {
        var ad = testAd("c")
        ad.beacons.clickThrough = clickThrough
        ad.beacons.clickTracking = ["https://t.example/c/click1?t=[ADPLAYHEAD]", "https://t.example/c/click2"]
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)), ads: [ad])])
        return runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2, script: script),
                                            media: FakeAdMedia(rate: tenFPS, seconds: ["c": 3]), appDelegate: nil))
    }

    @Test func aClickOnAnAdFiresClickWithItsClickThroughThenItsClickTracking() throws {
        let run = try run(script: "click@2.5")
        // 2.5 s is output frame 25, the ad's tick 15 (1.5 s into the ad).
        #expect(run.events.filter { $0.frame == 25 }.map(\.compact) == [
            "25 COMMAND", "25 CLICK b0 a0", "25 BEACON b0 a0", "25 BEACON b0 a0", "25 MIDPOINT b0 a0",
        ])
        let click = try #require(run.first(.click))
        #expect(click.columns.url == "https://advertiser.example/landing?x=[CACHEBUSTING]")
        #expect(run.beacons(.clickTracking).map(\.columns.url) == ["https://t.example/c/click1?t=00%3A00%3A01.500",
                                                           "https://t.example/c/click2"])
        #expect(run.decisions[25].source == .ad(AdReference(0, 0), tick: 15))
        #expect(run.frames(of: .complete) == [40])
    }

    @Test func aClickWithoutAnAdOnScreenIsRefused() throws {
        let run = try run(script: "click@0.5; click@4.5")
        #expect(run.frames(of: .click).isEmpty && run.beacons(.clickTracking).isEmpty)
        #expect(run.events.filter { $0.type == .log }.map { "\($0.frame!) \($0.columns.reason!.rawValue) \($0.columns.message!)" } == [
            "5 refused click ignored: no ad is on screen", "45 refused click ignored: no ad is on screen",
        ])
    }

    @Test func anAdWithoutClickThroughStillTracksTheClick() throws {
        // Commands apply before the frame's picture is decided: at 1 s (frame 10) the break has not started yet.
        let run = try run(script: "click@1; click@1.1", clickThrough: nil)
        #expect(run.frames(of: .log) == [10])
        let click = try #require(run.first(.click))
        #expect(click.frame == 11 && click.columns.url == nil)
        #expect(run.beacons(.clickTracking).count == 2)
    }

    @Test func clickIsACommandOfScriptsAndOfLiveInput() throws {
        #expect(try SessionCommand(parsing: " CLICK ") == .click)
        #expect(try SessionScript(parsing: "click@2.5").commands == [TimedCommand(time: seconds(Rational(5, 2)), command: .click)])
        #expect(throws: ScriptError.badArgument(command: "click now", detail: "click takes no argument")) {
            try SessionCommand(parsing: "click now")
        }
    }
}

@Suite struct AdsManagerProgressTests {
    func run(adSeconds: Rational, rate: FrameRate = tenFPS, script: String = "") throws -> SessionRun {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("p")])])
        let configuration = SessionConfiguration(
            frameRate: rate, canvas: PixelSize(width: 640, height: 360), contentFrameCount: 10,
            contentAspect: Rational(16, 9), script: try SessionScript(parsing: script))
        return runToEnd(try PlaybackSession(plan: plan, configuration: configuration,
                                            media: FakeAdMedia(rate: rate, exactSeconds: ["p": adSeconds]), appDelegate: nil))
    }

    @Test func adProgressFiresAtEveryWholeSecondOfAdTimeBelowTheDuration() throws {
        let run = try run(adSeconds: Rational(3))
        #expect(run.frames(of: .adProgress) == [10, 20])
        #expect(run.events.filter { $0.type == .adProgress }.map(\.columns.adTime) == [1, 2])
        #expect(run.frames(of: .complete) == [30])
    }

    @Test func adProgressIsAtTheFirstFrameWhoseAdTimeReachesTheSecond() throws {
        // At 29.97 fps (30000/1001), tick 30 is 1.001 s: the first tick at or after 1 s; 2 s is tick 60 (2.002 s).
        let run = try run(adSeconds: Rational(5, 2), rate: FrameRate(Rational(30000, 1001)))
        #expect(run.frames(of: .adProgress) == [30, 60])
    }

    @Test func aPausedAdSendsNoProgressUntilItPlaysAgain() throws {
        // Paused from output frame 5 (ad tick 5) to frame 25: ad tick 10 is shown at output frame 30.
        let run = try run(adSeconds: Rational(2), script: "pause@0.5; resume@2.5")
        #expect(run.frames(of: .adProgress) == [30])
    }
}
