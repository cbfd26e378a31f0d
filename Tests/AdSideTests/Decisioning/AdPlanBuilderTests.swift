@testable import AdDecisioning
import Foundation
import MediaCore
import Testing

/// Placing VMAP breaks on the content clock, through the real loader on real fixture files.
@Suite struct AdPlanBuilderTests {
    func load(_ name: String, duration: Int64? = nil, cuePoints: [MediaTime] = []) async throws -> AdsLoadResult {
        try await AdsLoader().load(AdsRequest(adTag: DecisioningFixtures.path(name),
                                              contentDuration: duration.map { MediaDuration(seconds: $0) },
                                              cuePoints: cuePoints))
    }

    @Test func placesEveryOffsetFormAgainstTheContentDuration() async throws {
        let result = try await load("VMAP/schedule.xml", duration: 1200)
        #expect(result.kind == .vmap)
        #expect(result.plan.breaks.map(\.position) == [.preroll, .midroll(MediaTime(seconds: 300)),
                                                       .midroll(MediaTime(seconds: Rational(623_125, 1000))), .postroll])
        #expect(result.plan.breaks.map(\.id) == ["pre", "mid-percent", "mid-time", "post"])
        #expect(result.plan.errors.isEmpty)
        #expect(result.plan.breaks[0].tracking.map(\.event.rawValue) == ["breakStart", "breakEnd", "error"])
    }

    @Test func resolvesAnAdTagURIRelativeToTheVMAP() async throws {
        let post = try #require(try await load("VMAP/schedule.xml", duration: 1200).plan.breaks.last)
        #expect(post.ads.map(\.ad.id) == ["inline-1"])
        #expect(post.ads[0].ad.wrappers.isEmpty)
    }

    @Test func leavesOutPercentBreaksWithoutADuration() async throws {
        let result = try await load("VMAP/schedule.xml")
        #expect(result.plan.breaks.map(\.id) == ["pre", "mid-time", "post"])
        #expect(result.plan.errors.count == 1)
        #expect(result.plan.errors[0].code == .trafficking)
        #expect(result.plan.errors[0].message.hasSuffix("break 'mid-percent' at 25% (line 44) left out: 25% needs the content duration"))
    }

    @Test func leavesOutAMidRollAtOrPastTheEnd() async throws {
        // 623.125 s is past a 600 s content; 25% is 150 s.
        let result = try await load("VMAP/schedule.xml", duration: 600)
        #expect(result.plan.breaks.map(\.id) == ["pre", "mid-percent", "post"])
        #expect(result.plan.errors.map(\.code) == [.trafficking])
        #expect(result.plan.errors[0].message.contains("mid-roll at 0:10:23.125 is at or after the end of the content (0:10:00.000)"))
        let justAfter = try await load("VMAP/schedule.xml", duration: 624)
        #expect(justAfter.plan.breaks.map(\.id) == ["pre", "mid-percent", "mid-time", "post"])
    }

    @Test func mergesBreaksWithTheSameOffsetAndId() async throws {
        let result = try await load("VMAP/pods.xml", duration: 60)
        #expect(result.plan.breaks.map(\.id) == ["preroll", "midroll-1", "midroll-other"])
        let pod = result.plan.breaks[1]
        #expect(pod.position == .midroll(MediaTime(seconds: 15)))
        #expect(pod.ads.map(\.ad.id) == ["pod-a", "pod-b", "pod-c"])
        #expect(pod.tracking.map(\.url) == ["https://track.example/pod-breakStart-1", "https://track.example/pod-breakEnd-2"])
        #expect(result.plan.breaks[2].ads.map(\.ad.id) == ["other"])
    }

    @Test func expandsRepeatAfterThroughTheContent() async throws {
        let result = try await load("VMAP/repeat.xml", duration: 100)
        #expect(result.plan.breaks.map(\.position) == [.midroll(MediaTime(seconds: 30)), .midroll(MediaTime(seconds: 60)),
                                                       .midroll(MediaTime(seconds: 90)), .postroll])
        #expect(result.plan.breaks.prefix(3).allSatisfy { $0.id == "every-30s" && $0.ads.map(\.ad.id) == ["repeat-ad"] })
        #expect(result.plan.errors.isEmpty)
    }

    @Test func repeatsOnlyStrictlyBeforeTheEnd() async throws {
        let result = try await load("VMAP/repeat.xml", duration: 90)
        #expect(result.plan.breaks.map(\.position) == [.midroll(MediaTime(seconds: 30)), .midroll(MediaTime(seconds: 60)), .postroll])
    }

    @Test func playsARepeatingBreakOnceWithoutADuration() async throws {
        let result = try await load("VMAP/repeat.xml")
        #expect(result.plan.breaks.map(\.position) == [.midroll(MediaTime(seconds: 30)), .postroll])
        #expect(result.plan.errors.map(\.message).contains { $0.hasSuffix("repeatAfter needs the content duration; played once") })
    }

    @Test func stopsRepeatingAtTheBreakLimit() async throws {
        var settings = AdsLoaderSettings()
        settings.maximumBreaks = 5
        let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: DecisioningFixtures.path("VMAP/repeat.xml"),
                                                                             contentDuration: MediaDuration(seconds: 100_000)))
        #expect(result.plan.breaks.count == 5)
        #expect(result.plan.errors.count == 1)
        #expect(result.plan.errors[0].message.hasSuffix("more than 5 breaks; the rest are left out"))
    }

    @Test func placesPositionsOnTheContentsCuePoints() async throws {
        let result = try await load("VMAP/positions.xml", duration: 600,
                                    cuePoints: [MediaTime(seconds: 0), MediaTime(seconds: 120)])
        #expect(result.plan.breaks.map(\.id) == ["first", "second"])
        #expect(result.plan.breaks.map(\.position) == [.preroll, .midroll(MediaTime(seconds: 120))])
    }

    @Test func leavesOutPositionsWithoutCuePointsAndFiresTheBreakError() async throws {
        let result = try await load("VMAP/positions.xml", duration: 600, cuePoints: [MediaTime(seconds: 10)])
        #expect(result.plan.breaks.map(\.id) == ["first"])
        #expect(result.plan.errors.count == 1)
        #expect(result.plan.errors[0].message.hasSuffix("position #2 needs the content's ad break opportunities (cue points); 1 known"))
        #expect(result.plan.errors[0].errorURLs == ["https://track.example/second-error?c=[ERRORCODE]"])
    }

    @Test func ignoresPositionsMixedWithOtherOffsets() {
        let builder = AdPlanBuilder(contentDuration: MediaDuration(seconds: 60), cuePoints: [MediaTime(seconds: 5)])
        let ad = BreakDraft.Ad(ad: LinearAd(id: "a"))
        let plan = builder.build([BreakDraft(offset: .start, ads: [ad], label: "pre"),
                                  BreakDraft(offset: .position(1), ads: [ad], label: "#1")], errors: [])
        #expect(plan.breaks.map(\.position) == [.preroll])
        #expect(plan.errors.map(\.message) == ["#1 left out: position #1 is not honoured when the VMAP also uses other timeOffset forms (VMAP 1.0)"])
    }

    @Test(arguments: [
        (BreakOffset.time(.zero), BreakPosition.preroll as BreakPosition?),
        (.fraction(.zero), .preroll),
        (.fraction(.one), .postroll),
        (.fraction(Rational(1, 2)), .midroll(MediaTime(seconds: 30))),
        (.time(MediaTime(seconds: 59)), .midroll(MediaTime(seconds: 59))),
        (.time(MediaTime(seconds: 60)), nil),
        (.time(MediaTime(seconds: 61)), nil),
    ])
    func placesOffsetsOnSixtySecondsOfContent(offset: BreakOffset, expected: BreakPosition?) {
        let placed = AdPlanBuilder(contentDuration: MediaDuration(seconds: 60)).place(offset, mixedWithOtherOffsets: true)
        #expect((try? placed.get()) == expected)
    }

    @Test func marksAdsThatCannotPlayAsFailedInTheirBreak() {
        let failure = AdError(.noSupportedMedia, "nothing fits")
        let plan = AdPlanBuilder().build([
            BreakDraft(offset: .end, ads: [.init(ad: LinearAd(id: "late"))], label: "post"),
            BreakDraft(offset: .start, ads: [.init(ad: LinearAd(id: "ok")), .init(ad: LinearAd(id: "bad"), error: failure)], label: "pre"),
        ], errors: [])
        #expect(plan.breaks.map(\.position) == [.preroll, .postroll])
        #expect(plan.breaks[0].ads.map(\.state) == [.available, .failed])
        #expect(plan.breaks[0].ads[1].error == failure)
        #expect(plan.breaks[1].ads.map(\.state) == [.available])
    }

    @Test func treatsAPlainVASTDocumentAsOnePreRoll() async throws {
        let result = try await load("VAST/inline-linear.xml", duration: 60)
        #expect(result.kind == .vast)
        #expect(result.plan.breaks.map(\.position) == [.preroll])
        #expect(result.plan.breaks[0].breakType == "linear")
        #expect(result.plan.breaks[0].ads.map(\.ad.id) == ["inline-1"])
    }
}
