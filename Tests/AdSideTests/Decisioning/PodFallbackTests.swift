@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// Stand-alone ads of a pod response as fallbacks for pod ads that cannot play (VAST 3 §2.3.5, VAST 4.x "Ad Pods
/// and Stand-Alone Ads"), at resolution, at media selection, and kept in the plan for the ads manager.
@Suite struct PodFallbackTests {
    /// An inline ad whose only rendition is streamed HLS, which is not played: it resolves but cannot play (403).
    static func hlsOnly(id: String, sequence: Int? = nil) -> String {
        let seq = sequence.map { " sequence=\"\($0)\"" } ?? ""
        return """
        <Ad id="\(id)"\(seq)><InLine><AdSystem>tests</AdSystem><AdTitle>\(id)</AdTitle>
          <Error>https://track.example/\(id)-error?c=[ERRORCODE]</Error>
          <Creatives><Creative><Linear><Duration>00:00:10</Duration>
            <MediaFiles><MediaFile delivery="streaming" type="application/x-mpegURL" width="640" height="360">https://cdn.example/\(id).m3u8</MediaFile></MediaFiles>
          </Linear></Creative></Creatives>
        </InLine></Ad>
        """
    }

    func resolve(_ path: String) async throws -> AdTagResolution {
        let doc = try VASTParser().parse(try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
        return await AdTagResolver().resolve(doc, at: .file(path))
    }

    @Test func aPodAdWithNoPlayableRenditionIsKeptAndFollowedByAStandaloneAd() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("pod.xml", VASTText.document(
            VASTText.inline(id: "s1"), Self.hlsOnly(id: "p1", sequence: 1), VASTText.inline(id: "p2", sequence: 2),
            VASTText.inline(id: "s2")))
        let r = try await resolve(path)
        #expect(r.ads.map(\.id) == ["p1", "s1", "p2"])
        #expect(r.replacements.map(\.code) == [.noSupportedMedia])
        #expect(r.replacements.map(\.message) == [
            "ad 's1' (stand-alone) replaces ad 'p1' (line 6), sequence 1 in \(path), which cannot play: ad 'p1': none of 1 "
                + "MediaFile(s) can be played: application/x-mpegurl is streaming (HLS/DASH), not supported yet",
        ])
        #expect(r.fallbacks.map(\.id) == ["s2"])
        #expect(r.errors.isEmpty)
    }

    @Test func anExplicitFallbackOnNoAdFalseMovesOnToTheNextPodAd() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("no-fill.xml", "<VAST version=\"4.0\"/>")
        let path = try dir.write("pod.xml", VASTText.document(
            VASTText.wrapper(id: "empty", tag: "no-fill.xml", attributes: "fallbackOnNoAd=\"false\"", sequence: 1),
            VASTText.inline(id: "p2", sequence: 2), VASTText.inline(id: "spare")))
        let r = try await resolve(path)
        #expect(r.ads.map(\.id) == ["p2"])
        #expect(r.errors.map(\.code) == [.noAdsAfterWrapper])
        #expect(r.replacements.isEmpty)
        #expect(r.fallbacks.map(\.id) == ["spare"])
    }

    @Test func whenTheBuffetIsUsedUpTheRestOfThePodStillPlays() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("pod.xml", VASTText.document(
            VASTText.wrapper(id: "gone1", tag: "missing1.xml", sequence: 1),
            VASTText.wrapper(id: "gone2", tag: "missing2.xml", sequence: 2),
            VASTText.inline(id: "p3", sequence: 3), Self.hlsOnly(id: "bad-spare"), VASTText.inline(id: "spare")))
        let r = try await resolve(path)
        // gone1 → bad-spare cannot play either (its 403 is reported) → spare; gone2 has nothing left; p3 plays.
        #expect(r.ads.map(\.id) == ["spare", "p3"])
        #expect(r.errors.map(\.code) == [.wrapperTimeout, .noSupportedMedia, .wrapperTimeout])
        #expect(r.errors[1].errorURLs == ["https://track.example/bad-spare-error?c=[ERRORCODE]"])
        #expect(r.replacements.count == 1)
        #expect(r.fallbacks.isEmpty)
    }

    @Test func aBuffetOnlyResponseKeepsItsOtherStandaloneAdsAsFallbacks() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("buffet.xml", VASTText.document(
            Self.hlsOnly(id: "first"), VASTText.inline(id: "second"), VASTText.inline(id: "third"), Self.hlsOnly(id: "fourth")))
        let r = try await resolve(path)
        #expect(r.ads.map(\.id) == ["first", "second"])
        #expect(r.fallbacks.map(\.id) == ["third"])
        // Left-over ads that cannot play are only warnings: nothing asked for them, no error URL fires.
        #expect(r.warnings.map(\.code) == [.noSupportedMedia])
        #expect(r.warnings.first?.message.hasPrefix("unused stand-alone ad 'fourth': none of 1 MediaFile(s)") == true)
        #expect(r.errors.isEmpty)
    }

    /// A media file that is missing (401) is found only when the creative is resolved: the break's fallback takes
    /// its place there, and the replacement is a warning of the load and a note of the break.
    @Test func aPodAdWhoseMediaIsMissingIsFollowedByAFallbackInThePlan() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("there.mp4", "not really a video, but it exists")
        let path = try dir.write("pod.xml", VASTText.document(
            VASTText.inline(id: "p1", sequence: 1, media: "missing.mp4"), VASTText.inline(id: "p2", sequence: 2, media: "there.mp4"),
            VASTText.inline(id: "s1", media: "also-missing.mp4"), VASTText.inline(id: "s2", media: "there.mp4"),
            VASTText.inline(id: "s3", media: "there.mp4")))
        let result = try await AdsLoader().load(AdsRequest(adTag: path))
        let ads = try #require(result.plan.breaks.first).ads
        #expect(ads.map { "\($0.ad.id ?? "-") \($0.state.rawValue)" } == ["p1 failed", "s2 available", "p2 available"])
        #expect(ads.map { $0.error?.code } == [.fileNotFound, nil, nil])
        #expect(ads[1].ad.localMediaPath == dir.path + "/there.mp4")
        // s1 was tried first; its media is missing too, so its failure is a plan error (its error URLs fire).
        #expect(result.plan.errors.map(\.code) == [.fileNotFound])
        #expect(result.plan.errors.first?.message.hasPrefix("ad 's1': ") == true)
        let notes = try #require(result.plan.breaks.first).replacements
        #expect(notes.map(\.message) == ["ad 's2' (stand-alone) replaces ad 'p1' (sequence 1), whose media cannot be used: "
            + (ads[0].error?.message ?? "")])
        #expect(result.warnings.map(\.message).contains(notes[0].message))
        #expect(try #require(result.plan.breaks.first).fallbacks.map(\.id) == ["s3"])
    }

    @Test func thePlanPutsTheNextFallbackRightAfterAFailedAd() throws {
        var plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [LinearAd(id: "a"), LinearAd(id: "b")],
                                           fallbacks: [LinearAd(id: "f1"), LinearAd(id: "f2")])])
        #expect(throws: AdPlanError.notFailed(breakIndex: 0, adIndex: 0)) {
            try plan.insertFallback(breakIndex: 0, after: 0)
        }
        try plan.markFailed(breakIndex: 0, adIndex: 0, error: AdError(.mediaDisplay, "cannot decode"))
        #expect(try plan.insertFallback(breakIndex: 0, after: 0) == 1)
        #expect(plan.breaks[0].ads.map(\.ad.id) == ["a", "f1", "b"])
        #expect(plan.breaks[0].ads.map(\.state) == [.failed, .available, .available])
        #expect(plan.breaks[0].fallbacks.map(\.id) == ["f2"])
        try plan.markFailed(breakIndex: 0, adIndex: 1, error: AdError(.mediaDisplay, "cannot decode"))
        #expect(try plan.insertFallback(breakIndex: 0, after: 1) == 2)
        try plan.markFailed(breakIndex: 0, adIndex: 2, error: AdError(.mediaDisplay, "cannot decode"))
        #expect(try plan.insertFallback(breakIndex: 0, after: 2) == nil)
        #expect(plan.breaks[0].ads.map(\.ad.id) == ["a", "f1", "f2", "b"])
    }

    @Test func theEventLogNamesEachReplacementWhenTheSessionBegins() throws {
        let note = AdError(.fileNotFound, "ad 's2' (stand-alone) replaces ad 'p1' (sequence 1), whose media cannot be used: gone")
        let plan = AdPlan(breaks: [
            AdBreak(position: .preroll, ads: [testAd("pre")]),
            AdBreak(position: .midroll(seconds(1)), ads: [testAd("s2")], replacements: [note]),
        ])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2),
                                               media: FakeAdMedia(rate: tenFPS, seconds: ["pre": 1, "s2": 1]), appDelegate: nil))
        let logs = run.events.filter { $0.columns.reason == .fallback }
        #expect(logs.map(\.compact) == ["0 LOG b1"])
        #expect(logs.first?.columns.message == note.message)
    }

    @Test func anAdWhoseMediaFailsWhenTheBreakPlaysIsReplacedByTheBreaksNextFallback() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)), ads: [testAd("bad"), testAd("good")],
                                           fallbacks: [testAd("spare"), testAd("unused")])])
        let session = try PlaybackSession(
            plan: plan, configuration: testConfiguration(contentSeconds: 2),
            media: FakeAdMedia(rate: tenFPS, seconds: ["spare": 1, "good": 1, "unused": 1]), appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.timeline.filter { $0.hasPrefix("10 ") } == [
            "10 AD_BREAK_READY b0", "10 AD_ERROR b0 a0", "10 LOG b0 a1", "10 LOADED b0 a1", "10 CONTENT_PAUSE_REQUESTED b0",
            "10 AD_BREAK_STARTED b0", "10 STARTED b0 a1", "10 IMPRESSION b0 a1",
        ])
        #expect(run.first(.log)?.columns.message == "ad 'spare' (stand-alone) replaces ad 0 of break 0, which failed: no media for ad bad")
        #expect(run.decisions[10].source == .ad(AdReference(0, 1), tick: 0))
        #expect(run.decisions[20].source == .ad(AdReference(0, 2), tick: 0))
        #expect(session.plan.breaks[0].ads.map { "\($0.ad.id ?? "-") \($0.state.rawValue)" } == ["bad failed", "spare played", "good played"])
        #expect(session.plan.breaks[0].fallbacks.map(\.id) == ["unused"])
    }

    @Test func anAdThatFailsMidwayIsReplacedByTheNextFallbackAtTheSameFrame() throws {
        let plan = AdPlan(breaks: [AdBreak(position: .preroll, ads: [testAd("breaks")], fallbacks: [testAd("spare")])])
        let session = try PlaybackSession(
            plan: plan, configuration: testConfiguration(contentSeconds: 1),
            media: FakeAdMedia(rate: tenFPS, seconds: ["breaks": 2, "spare": 1]), appDelegate: nil)
        var failed = false
        let run = runToEnd(session) { session, decision in
            if decision.frame == 4, !failed {
                failed = true
                session.adFailed(AdError(.mediaDisplay, "decode error"))
            }
        }
        // Frames 0-4 show the failing ad, whose frame 4 cannot be shown: frame 4 is decided again, the fallback's first.
        #expect(run.decisions.map(\.source).prefix(6) == [
            .ad(AdReference(0, 0), tick: 0), .ad(AdReference(0, 0), tick: 1), .ad(AdReference(0, 0), tick: 2),
            .ad(AdReference(0, 0), tick: 3), .ad(AdReference(0, 0), tick: 4), .ad(AdReference(0, 1), tick: 0),
        ])
        #expect(session.plan.breaks[0].ads.map(\.state) == [.failed, .played])
        #expect(run.events.filter { $0.columns.reason == .fallback }.map(\.compact) == ["4 LOG b0 a1"])
    }
}
