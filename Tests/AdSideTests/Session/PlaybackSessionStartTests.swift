@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

/// `contentStart` (`--start-at`): where the content starts, which breaks play around it, and how it combines with
/// `playAdsAfterTime` (`--play-ads-after`) and the seek policy. 10 fps, 10 s of content, 1 s ads.
@Suite struct PlaybackSessionStartTests {
    /// A pre-roll (break 0), mid-rolls at 2 s, 4 s and 6 s (breaks 1–3) and a post-roll (break 4).
    static let plan = AdPlan(breaks: [
        AdBreak(position: .preroll, ads: [testAd("pre")]),
        AdBreak(position: .midroll(seconds(2)), ads: [testAd("m2")]),
        AdBreak(position: .midroll(seconds(4)), ads: [testAd("m4")]),
        AdBreak(position: .midroll(seconds(6)), ads: [testAd("m6")]),
        AdBreak(position: .postroll, ads: [testAd("post")]),
    ])

    static func run(start: Int64, script: String = "", ads: AdsRenderingSettings = AdsRenderingSettings()) throws
        -> (SessionRun, PlaybackSession) {
        let media = FakeAdMedia(rate: tenFPS, seconds: ["pre": 1, "m2": 1, "m4": 1, "m6": 1, "post": 1])
        let session = try PlaybackSession(
            plan: plan, configuration: testConfiguration(contentSeconds: 10, script: script, ads: ads, start: seconds(start)),
            media: media, appDelegate: nil)
        return (runToEnd(session), session)
    }

    static func started(_ run: SessionRun) -> [Int] {
        run.events.filter { $0.type == .adBreakStarted }.compactMap(\.columns.breakIndex)
    }

    /// What each output frame shows, as runs: `"ad b0 0-9"`, `"content 50-59"`.
    static func runs(_ run: SessionRun) -> [String] {
        var out: [(String, Int64, Int64)] = []
        for decision in run.decisions {
            let (key, tick): (String, Int64) = switch decision.source {
            case .content(let tick): ("content", tick)
            case .ad(let ad, let tick): ("ad b\(ad.breakIndex)", tick)
            }
            if let last = out.last, last.0 == key, last.2 + 1 == tick {
                out[out.count - 1].2 = tick
            } else {
                out.append((key, tick, tick))
            }
        }
        return out.map { "\($0.0) \($0.1)-\($0.2)" }
    }

    @Test func theContentStartsAtTheStartAfterThePrerollAndTheMidrollsBehindItArePassed() throws {
        let (run, session) = try Self.run(start: 5)
        // Frames 0-9 the pre-roll, 10-19 content 5.0-5.9 s, 20-29 the 6 s mid-roll, 30-69 content 6-9.9 s, 70-79 the post-roll.
        #expect(Self.runs(run) == ["ad b0 0-9", "content 50-59", "ad b3 0-9", "content 60-99", "ad b4 0-9"])
        #expect(Self.started(run) == [0, 3, 4])
        let passed = run.events.filter { $0.columns.reason == .startPosition }
        #expect(passed.map(\.compact) == ["0 LOG b1", "0 LOG b2"])
        #expect(session.plan.breaks.map { $0.ads[0].state } == [.played, .available, .available, .played, .played])
    }

    @Test func aMidrollCuedExactlyAtTheStartPlaysAfterThePrerollBeforeTheFirstContentFrame() throws {
        let (run, _) = try Self.run(start: 4)
        #expect(Self.runs(run) == ["ad b0 0-9", "ad b2 0-9", "content 40-59", "ad b3 0-9", "content 60-99", "ad b4 0-9"])
        #expect(run.events.filter { $0.columns.reason == .startPosition }.map(\.compact) == ["0 LOG b1"])
    }

    @Test func theSeekPolicyDoesNotBringBackBreaksBehindTheStart() throws {
        let (run, _) = try Self.run(start: 5, ads: AdsRenderingSettings(seekPolicy: .all))
        #expect(Self.started(run) == [0, 3, 4])
        #expect(Self.runs(run).prefix(2) == ["ad b0 0-9", "content 50-59"])
    }

    @Test func aSeekBackBeforeAPassedCueArmsItAgain() throws {
        // seek 1@1.5 applies at frame 15 (content 5.5 s): back to 1 s, so 2 s and 4 s play on the way.
        let (run, _) = try Self.run(start: 5, script: "seek 1@1.5")
        #expect(Self.started(run) == [0, 1, 2, 3, 4])
        #expect(Self.runs(run) == ["ad b0 0-9", "content 50-54", "content 10-19", "ad b1 0-9", "content 20-39",
                                   "ad b2 0-9", "content 40-59", "ad b3 0-9", "content 60-99", "ad b4 0-9"])
    }

    @Test func playAdsAfterTheStartSkipsThePrerollAndEveryBreakUpToIt() throws {
        // --start-at 5 --play-ads-after 5: IMA's resume idiom, only breaks after 5 s play.
        let (run, session) = try Self.run(start: 5, ads: AdsRenderingSettings(playAdsAfterTime: seconds(5)))
        #expect(Self.runs(run) == ["content 50-59", "ad b3 0-9", "content 60-99", "ad b4 0-9"])
        #expect(run.events.filter { $0.type == .adBreakSkipped }.map { "\($0.compact) \($0.columns.reason?.rawValue ?? "")" } == [
            "0 AD_BREAK_SKIPPED b0 playAdsAfterTime", "0 AD_BREAK_SKIPPED b1 playAdsAfterTime",
            "0 AD_BREAK_SKIPPED b2 playAdsAfterTime",
        ])
        #expect(session.plan.breaks.map { $0.ads[0].state } == [.skipped, .skipped, .skipped, .played, .played])
    }

    @Test func playAdsAfterBeyondTheStartAlsoSkipsTheBreaksBetweenThem() throws {
        // --start-at 3 --play-ads-after 5: no pre-roll, 2 s is behind the start, 4 s is at or before 5 s.
        let (run, _) = try Self.run(start: 3, ads: AdsRenderingSettings(playAdsAfterTime: seconds(5)))
        #expect(Self.runs(run) == ["content 30-59", "ad b3 0-9", "content 60-99", "ad b4 0-9"])
        #expect(run.events.filter { $0.type == .adBreakSkipped }.compactMap(\.columns.breakIndex) == [0, 1, 2])
    }

    @Test func playAdsAfterBeforeTheStartSkipsThePrerollOnly() throws {
        // --start-at 5 --play-ads-after 1: the pre-roll (cued at 0) is skipped; 2 s and 4 s are behind the start.
        let (run, _) = try Self.run(start: 5, ads: AdsRenderingSettings(playAdsAfterTime: seconds(1)))
        #expect(Self.runs(run) == ["content 50-59", "ad b3 0-9", "content 60-99", "ad b4 0-9"])
        #expect(run.events.filter { $0.type == .adBreakSkipped }.compactMap(\.columns.breakIndex) == [0])
        #expect(run.events.filter { $0.columns.reason == .startPosition }.compactMap(\.columns.breakIndex) == [1, 2])
    }

    @Test func noPrerollWithAStartSkipsThePrerollAndStartsOnTheContent() throws {
        let (run, _) = try Self.run(start: 5, ads: AdsRenderingSettings(playsPrerolls: false))
        #expect(Self.runs(run).first == "content 50-59")
        #expect(run.first(.adBreakSkipped)?.columns.reason == .prerollsOff)
    }

    @Test func aStartAtOrAfterTheEndIsRefused() throws {
        let media = FakeAdMedia(rate: tenFPS, seconds: [:])
        #expect(throws: SessionError.self) {
            try PlaybackSession(plan: .empty, configuration: testConfiguration(contentSeconds: 10, start: seconds(10)),
                                media: media, appDelegate: nil)
        }
    }
}
