@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

/// `PlaybackSession.take(_:)`: the one public way a media outcome reaches a session (the director's `report`).
@Suite struct SessionMediaOutcomeTests {
    @Test func aChangedFrameIsDecidedAgainAndAFailedAdFailsWithTheBreakMovingOn() throws {
        let session = try PlaybackSession(plan: AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("p")])]),
                                          configuration: testConfiguration(), media: FakeAdMedia(rate: tenFPS, seconds: ["p": 1]),
                                          appDelegate: nil)
        let first = try #require(session.nextFrame())
        #expect(first.frame == 0 && first.source == .ad(AdReference(0, 0), tick: 0))
        session.take(.frameChanged)
        let again = try #require(session.nextFrame())
        // The same output frame, still the ad's (its ads manager moves its own clock on).
        #expect(again.frame == 0)
        guard case .ad(AdReference(0, 0), _) = again.source else { Issue.record("\(again)"); return }
        session.take(.adFailed(AdError(.mediaDisplay, "p.mp4: decode error")))
        let content = try #require(session.nextFrame())
        #expect(content.frame == 0 && content.source == .content(tick: 0))
        #expect(session.drainEvents().filter { $0.type == .adError }.map(\.frame) == [0])
        #expect(try #require(session.nextFrame()).frame == 1)
    }
}
