@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import LoopbackServer
import MediaCore
import Testing

/// The director owns the frame (issue 37): it steps every player itself, once per output frame, walks the screen ads
/// before the frame is decided, and takes every media outcome through `report`, after which only the player it
/// concerns decides the frame again.
@Suite struct DirectorFrameTests {
    /// Two players in Split View on an iPad, "left" the primary one, each with its own plan (its ads 1 s long).
    static func splitView(left: AdPlan, right: AdPlan) throws -> Director {
        var configuration = try testConfiguration()
        let screen = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "left"), .init(id: "right")],
                                 arrangement: .split(leading: "left", trailing: "right", .half))
        configuration.canvas = ScreenCanvas(initial: screen, script: configuration.script, live: false).size
        let planner = FramePlanner(canvas: configuration.canvas, frameRate: tenFPS, background: nil, screenAdCreatives: false,
                                   pointScale: screen.pointScale)
        let media = { FakeAdMedia(rate: tenFPS, seconds: ["l1": 1, "r1": 1]) }
        let right = Director.PlayerSetup(scene: "right", plan: right, content: .init(frameCount: 60, aspect: Rational(16, 9)),
                                         media: media())
        return try Director(plan: left, configuration: configuration, media: media(), appDelegate: nil, others: [right],
                            screen: screen, screenAds: nil, planner: planner,
                            catalog: FetchedCreatives(screenAds: nil, native: nil, players: ["right": "right.mp4"]))
    }

    static func preroll(_ id: String) -> AdPlan { AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd(id)])]) }
    static let failure = AdError(.mediaDisplay, "decode error")

    @Test func anotherPlayersFailedAdIsDecidedAgainAloneWhileThePrimarysDecisionStands() throws {
        let director = try Self.splitView(left: AdPlan(breaks: []), right: Self.preroll("r1"))
        let first = try #require(director.nextFrame())
        #expect(first.decision.frame == 0 && first.decision.source == .content(tick: 0))
        #expect(first.others.map(\.scene) == ["right"] && first.others.first?.source == .ad(AdReference(0, 0), tick: 0))
        director.report(.adMediaFailed(Self.failure), player: "right")
        // The same frame: the primary's decision stands (its session did not move on), the other player's ad is gone.
        let again = try #require(director.nextFrame())
        #expect(again.decision == first.decision)
        #expect(again.others.map(\.scene) == ["right"] && again.others.first?.source == .content(tick: 0))
        let next = try #require(director.nextFrame())
        #expect(next.decision.frame == 1 && next.others.first?.source == .content(tick: 1))
        let events = director.drainEvents(written: 2)
        #expect(events.filter { $0.type == .adError }.map(\.scene) == ["right"])
        // The plan draws the other player with the file the catalog names.
        #expect(director.plan(next.decision, source: "left.mp4").timeline?.contains {
            if case .player(let player) = $0 { player.source == "right.mp4" } else { false }
        } == true)
    }

    @Test func thePrimarysFailedAdIsDecidedAgainWithoutMovingTheOtherPlayersOn() throws {
        let director = try Self.splitView(left: Self.preroll("l1"), right: AdPlan(breaks: []))
        let first = try #require(director.nextFrame())
        #expect(first.decision.source == .ad(AdReference(0, 0), tick: 0) && first.others.first?.source == .content(tick: 0))
        director.report(.adMediaFailed(Self.failure))
        let again = try #require(director.nextFrame())
        #expect(again.decision.frame == 0 && again.decision.source == .content(tick: 0))
        #expect(again.others.isEmpty, "the other player decided frame 0 already: \(again.others)")
        let next = try #require(director.nextFrame())
        #expect(next.decision.frame == 1 && next.others.first?.source == .content(tick: 1))
    }

    /// What covers a scene is walked before the frame is decided: the session, which asks the screen (which asks
    /// the screen ads without changing them), sees the full-screen ad its script presents at that very frame.
    @Test func theScreenAdsAreWalkedThroughAFramesTimeBeforeItIsDecided() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("interstitial", PointSize(width: 412, height: 1194))
        let run = await ScreenAdRun.load(try ScreenAdDriver(timeline: FullScreenLoadingTests.ipad([(1, .presentInterstitial("side")), (2, .dismiss("side"))]),
                                                            fullScreenAds: [ScreenAdPlaybackTests.placement(ads)]),
                                         with: ScreenAdLoader())
        var configuration = try testConfiguration(script: "present interstitial side@1; dismiss side@2")
        configuration.canvas = ScreenCanvas(initial: run.driver.timeline.initial, script: configuration.script, live: false).size
        let planner = FramePlanner(canvas: configuration.canvas, frameRate: tenFPS, background: nil, screenAdCreatives: true,
                                   pointScale: nil)
        let director = try Director(plan: AdPlan(breaks: []), configuration: configuration, media: FakeAdMedia(rate: tenFPS, seconds: [:]),
                                    appDelegate: nil, screen: run.driver.timeline.initial, screenAds: run, planner: planner,
                                    catalog: FetchedCreatives(screenAds: run, native: nil))
        var decisions: [FrameDecision] = []
        while decisions.count < 25, let frame = director.nextFrame() { decisions.append(frame.decision) }
        // The player of "side" (the first scene) is paused under the ad from the present's frame to the dismiss's.
        #expect(decisions.indices.filter { decisions[$0].isPaused } == Array(10..<20))
        let covered = director.plan(decisions[10], source: "content.mp4")
        #expect(covered.timeline?.contains { if case .fullScreen = $0 { true } else { false } } == true)
        #expect(director.drainEvents(written: 25).contains { $0.type == SessionEventType.adWillPresentFullScreenContent })
    }
}
