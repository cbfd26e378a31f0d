@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

/// What the session says when the content ends before a break's cue: a content cut short (an early end) and a
/// cue past the content's length are reported, never silently dropped.
@Suite struct PlaybackSessionContentEndTests {
    @Test func aMidrollCuedAfterTheContentEndIsSkippedAsNotReachedAndThePostrollStillPlays() throws {
        let plan = AdPlan(breaks: [
            AdBreak(position: .midroll(seconds(8)), ads: [testAd("m")]),
            AdBreak(position: .postroll, ads: [testAd("p")]),
        ])
        let media = FakeAdMedia(rate: tenFPS, seconds: ["m": 1, "p": 1])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 5),
                                          media: media, appDelegate: nil)
        let run = runToEnd(session)
        let skipped = try #require(run.first(.adBreakSkipped))
        #expect(skipped.columns.breakIndex == 0 && skipped.columns.reason == .contentEnded)
        #expect(skipped.frame == 50 && skipped.contentTime == 5)
        #expect(media.requests == ["p"])
        #expect(session.plan.breaks[0].ads[0].state == .skipped)
        #expect(session.plan.breaks[1].ads[0].state == .played)
        // Reported where the content ends, before the post-roll becomes due.
        let skippedAt = try #require(run.timeline.firstIndex(of: "50 AD_BREAK_SKIPPED b0"))
        let postrollAt = try #require(run.timeline.firstIndex(of: "50 AD_BREAK_READY b1"))
        #expect(skippedAt < postrollAt)
    }

    @Test func aMidrollCuedExactlyAtTheContentEndStillPlays() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(5)), ads: [testAd("m")])])
        let media = FakeAdMedia(rate: tenFPS, seconds: ["m": 1])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 5),
                                          media: media, appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.first(.adBreakSkipped) == nil)
        #expect(media.requests == ["m"])
    }

    @Test func aContentThatEndedEarlyIsLoggedWhereItEnds() throws {
        var configuration = try testConfiguration(contentSeconds: 5)
        configuration.content.earlyEnd = EarlyEnd(path: "/media/cut.mkv", end: MediaDuration(seconds: Rational(49, 10)),
                                                 declared: MediaDuration(seconds: 10))
        let session = try PlaybackSession(plan: AdPlan(breaks: []), configuration: configuration,
                                          media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil)
        let run = runToEnd(session)
        let logs = run.events.filter { $0.columns.reason == .endedEarly }
        #expect(logs.count == 1)
        #expect(logs.first?.type == .log && logs.first?.frame == 50 && logs.first?.contentTime == 5)
        #expect(logs.first?.columns.message == "the content ends at 0:00:04.900, before the 0:00:10.000 its container declares: /media/cut.mkv")
    }

    @Test func anAdThatEndedEarlyIsLoggedAfterItsLoaded() throws {
        final class CutAdMedia: AdMediaProvider {
            func prepareAd(breakIndex: Int, adIndex: Int, ad: LinearAd) -> PreparedAdMedia {
                PreparedAdMedia(.success(AdMediaInfo(frameCount: 10, duration: MediaDuration(seconds: 1),
                                                     earlyEnd: EarlyEnd(path: "/ads/cut.webm", end: MediaDuration(seconds: 1),
                                                                        declared: MediaDuration(seconds: 3)))))
            }
        }
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [testAd("m")])])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 4),
                                          media: CutAdMedia(), appDelegate: nil)
        let run = runToEnd(session)
        let loaded = try #require(run.events.firstIndex { $0.type == .loaded })
        let log = run.events[loaded + 1]
        #expect(log.type == .log && log.columns.reason == .endedEarly && log.columns.breakIndex == 0 && log.columns.adIndex == 0)
        #expect(log.columns.message == "ad 0 of break 0 ends at 0:00:01.000, before the 0:00:03.000 its container declares: /ads/cut.webm")
        #expect(session.plan.breaks[0].ads[0].state == .played)
    }
}
