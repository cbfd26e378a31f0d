@testable import AdDecisioning
@testable import AdPlayback
import MediaCore
import Testing

/// What opening an ad's media noted travels with the media (`PreparedAdMedia.notes`): the session logs the notes in
/// their order right before the ad's `LOADED`, or its `AD_ERROR` when it could not open, at the same moment.
@Suite struct MediaNoteTests {
    static let notes: [MediaNote] = [
        .log(.loudnessGainLarge, message: "break 0 ad 0 (/ads/m.mp4): gain +14.0 dB, from -37.0 to -23.0 LUFS"),
        .buffered(url: "https://ads.example/m.mp4", waited: .milliseconds(1500)),
        .log(.mediaCacheEntryDropped, message: "a cached entry of https://ads.example/m.mp4 did not match its record"),
    ]

    /// The kinds of the events from the `LOADED` (or `AD_ERROR`) back, for comparing.
    static func kinds(_ events: [SessionEvent]) -> [SessionEvent.Kind] { events.map(\.kind) }

    @Test func notesAreLoggedInOrderRightBeforeTheAdsLoadedAtItsMoment() throws {
        let media = FakeAdMedia(rate: tenFPS, seconds: ["m": 1])
        media.notes["m"] = Self.notes
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [testAd("m")])])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 4), media: media, appDelegate: nil)
        let events = runToEnd(session).events
        let loaded = try #require(events.firstIndex { $0.kind == .ad(.loaded, AdReference(0, 0)) })
        let ad = AdReference(0, 0)
        #expect(Self.kinds(Array(events[(loaded - 3)..<loaded])) == [
            .log(.ad(ad), reason: .loudnessGainLarge, message: "break 0 ad 0 (/ads/m.mp4): gain +14.0 dB, from -37.0 to -23.0 LUFS"),
            .adBuffering(ad, url: "https://ads.example/m.mp4", message: "waited 1.5 s for the media download"),
            .log(.ad(ad), reason: .mediaCacheEntryDropped, message: "a cached entry of https://ads.example/m.mp4 did not match its record"),
        ])
        // The same moment as the LOADED: the wait took no output time.
        for note in events[(loaded - 3)..<loaded] {
            #expect(note.frame == events[loaded].frame && note.time == events[loaded].time && note.contentTime == events[loaded].contentTime)
        }
        // Logged once: nothing else of the session repeats them.
        #expect(events.filter { if case .adBuffering = $0.kind { true } else { false } }.count == 1)
    }

    @Test func theNotesOfAnAdThatCouldNotOpenComeBeforeItsError() throws {
        let media = FakeAdMedia(rate: tenFPS, ["m": .failure(AdError(.fileNotFound, "media https://ads.example/m.mp4: HTTP 404"))])
        media.notes["m"] = [Self.notes[2]]
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [testAd("m")])])
        let session = try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 4), media: media, appDelegate: nil)
        let events = runToEnd(session).events
        let error = try #require(events.firstIndex { if case .adError(.ad(AdReference(0, 0)), _, _) = $0.kind { true } else { false } })
        #expect(events[error - 1].kind == .log(.ad(AdReference(0, 0)), reason: .mediaCacheEntryDropped,
                                               message: "a cached entry of https://ads.example/m.mp4 did not match its record"))
        #expect(events[error - 1].frame == events[error].frame)
        #expect(!events.contains { $0.kind == .ad(.loaded, AdReference(0, 0)) })
    }

    /// A note about a source that is not one of the session's ads (the content's, a full-screen video's loudness)
    /// is a `LOG` of the session at the frame being decided, in the scene it names.
    @Test func aSessionNoteIsLoggedAtTheFrameBeingDecidedInItsScene() throws {
        let session = try PlaybackSession(plan: AdPlan(breaks: []), configuration: testConfiguration(contentSeconds: 2),
                                          media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil)
        session.log(.log(.loudnessShortSource, message: "the content (/c.mp4): under 3 s of sound"), scene: nil)
        for _ in 0..<5 { _ = session.nextFrame() }
        session.log(.log(.loudnessGainLarge, message: "the full-screen ad"), scene: SceneID("right"))
        session.log(.buffered(url: "https://x/y.mp4", waited: .seconds(1)), scene: nil)
        let events = session.drainEvents()
        #expect(events.first?.kind == .log(.session, reason: .loudnessShortSource, message: "the content (/c.mp4): under 3 s of sound"))
        #expect(events.first?.frame == 0)
        let last = try #require(events.last)
        #expect(last.kind == .log(.session, reason: .loudnessGainLarge, message: "the full-screen ad"))
        #expect(last.frame == 4 && last.scene == SceneID("right"))
        #expect(!events.contains { if case .adBuffering = $0.kind { true } else { false } })
    }
}
