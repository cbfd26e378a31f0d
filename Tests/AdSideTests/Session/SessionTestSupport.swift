@testable import AdDecisioning
@testable import AdPlayback
import MediaCore

/// A fake ad-duration provider: each ad (by `LinearAd.id`) has a chosen length in seconds or a VAST error, as
/// the issue allows for this pure logic. It records every request.
final class FakeAdMedia: AdMediaProvider {
    let rate: FrameRate
    var outcomes: [String: Result<MediaDuration, AdError>]
    /// What opening each ad notes (waits, dropped cache entries, loudness), by `LinearAd.id`.
    var notes: [String: [MediaNote]] = [:]
    private(set) var requests: [String] = []

    init(rate: FrameRate, _ outcomes: [String: Result<MediaDuration, AdError>]) {
        self.rate = rate
        self.outcomes = outcomes
    }

    convenience init(rate: FrameRate, seconds: [String: Int64]) {
        self.init(rate: rate, exactSeconds: seconds.mapValues { Rational($0) })
    }

    convenience init(rate: FrameRate, exactSeconds: [String: Rational]) {
        self.init(rate: rate, exactSeconds.mapValues { .success(MediaDuration(seconds: $0)) })
    }

    func prepareAd(breakIndex: Int, adIndex: Int, ad: LinearAd) -> PreparedAdMedia {
        let id = ad.id ?? "?"
        requests.append(id)
        guard let outcome = outcomes[id] else {
            return PreparedAdMedia(.failure(AdError(.fileNotFound, "no media for ad \(id)")), notes: notes[id] ?? [])
        }
        return PreparedAdMedia(outcome.map { AdMediaInfo(duration: $0, rate: rate) }, notes: notes[id] ?? [])
    }
}

/// A small ad whose URLs name the ad, so that beacons can be told apart.
func testAd(_ id: String, skip: AdOffset? = nil, tracking: [TrackingEventName] = [], impressions: Int = 1,
            progress: [AdOffset] = []) -> LinearAd {
    var events = tracking.map { TrackingEvent(event: $0, url: "https://t.example/\(id)/\($0.rawValue)") }
    for (i, offset) in progress.enumerated() {
        events.append(TrackingEvent(event: .progress, offset: offset, url: "https://t.example/\(id)/progress\(i)"))
    }
    return LinearAd(id: id, skipOffset: skip, impressions: (0..<impressions).map { "https://t.example/\(id)/imp\($0)" },
                    errorURLs: ["https://t.example/\(id)/error?code=[ERRORCODE]"], tracking: events)
}

func seconds(_ value: Rational) -> MediaTime { MediaTime(seconds: value) }
func seconds(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }

let tenFPS = FrameRate(10)

/// 10 fps on a 1920x1080 screen, 16:9 content `contentSeconds` long.
func testConfiguration(contentSeconds: Int64 = 6, script: String = "", mode: SessionConfiguration.Mode = .batch,
                       ads: AdsRenderingSettings = AdsRenderingSettings(),
                       pip: PictureInPictureSettings = PictureInPictureSettings(),
                       start: MediaTime = .zero) throws -> SessionConfiguration {
    SessionConfiguration(frameRate: tenFPS, canvas: PixelSize(width: 1920, height: 1080),
                         contentFrameCount: contentSeconds * 10, contentAspect: Rational(16, 9), contentStart: start,
                         ads: ads, pictureInPicture: pip, script: try SessionScript(parsing: script), mode: mode)
}

/// Everything a session produced, frame by frame.
struct SessionRun {
    var decisions: [FrameDecision] = []
    var events: [SessionEvent] = []

    /// `"frame TYPE bB aA"` for every non-beacon event, the compact form the order tests compare.
    var timeline: [String] {
        events.filter { $0.type != .beacon }.map(\.compact)
    }

    func frames(of type: SessionEventType) -> [Int64] {
        events.filter { $0.type == type }.compactMap(\.frame)
    }

    func first(_ type: SessionEventType) -> SessionEvent? { events.first { $0.type == type } }

    func beacons(_ vastEvent: TrackingEventName) -> [SessionEvent] {
        events.filter { $0.type == .beacon && $0.columns.event == vastEvent }
    }

    /// Content ticks in the order they were shown, paused repeats removed.
    var contentTicks: [Int64] {
        decisions.compactMap { decision -> Int64? in
            guard !decision.isPaused, case .content(let tick) = decision.source else { return nil }
            return tick
        }
    }
}

extension SessionEvent {
    var compact: String {
        var text = "\(frame ?? -1) \(type.rawValue)"
        if let breakIndex = columns.breakIndex { text += " b\(breakIndex)" }
        if let adIndex = columns.adIndex { text += " a\(adIndex)" }
        return text
    }
}

/// Runs a session to its end (or `maxFrames`), draining events after every frame.
func runToEnd(_ session: PlaybackSession, maxFrames: Int = 100_000,
              each: (PlaybackSession, FrameDecision) -> Void = { _, _ in }) -> SessionRun {
    var run = SessionRun()
    while run.decisions.count < maxFrames, let decision = session.nextFrame() {
        run.decisions.append(decision)
        run.events += session.drainEvents()
        each(session, decision)
    }
    run.events += session.drainEvents()
    return run
}

/// Content ticks are consecutive except right after one of `seekFrames` (the first content frame after a seek
/// may land anywhere).
func contentIsContinuous(_ run: SessionRun, seekFrames: Set<Int64> = []) -> Bool {
    var previous: Int64?
    var seekPending = false
    for decision in run.decisions {
        if seekFrames.contains(decision.frame) { seekPending = true }
        guard case .content(let tick) = decision.source else { continue }
        if decision.isPaused {
            if let previous, tick != previous, !seekPending { return false }
            continue
        }
        if let previous, !seekPending, tick != previous + 1 { return false }
        previous = tick
        seekPending = false
    }
    return true
}
