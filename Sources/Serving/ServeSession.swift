import Foundation
import MediaCore

/// One viewer's session: the content, what the viewer sent (parameters, agent, address), and the ad decision,
/// started when the session is made and awaited by its first playlist.
public final class ServeSession: Sendable {
    public let id: String
    public let content: OriginContent
    public let values: AdRequestTemplate.Values
    public let mode: ServeMode
    private let decision: Task<SessionAds, Never>
    private let lastUsed: LockedState<ContinuousClock.Instant>
    private let stitching = LockedState<Task<SessionStitch, Never>?>(nil)
    /// A guided session's breaks as its asset lists give them, each decided once, when the player first asks.
    private let guidedBreaks = LockedState([Int: Task<GuidedBreak, Never>]())
    /// The server-side beacons this session has sent.
    let beacons = SessionBeacons()
    /// Each rendition's media playlist once written: it cannot change after the session's breaks are decided.
    private let mediaPlaylists = LockedState([Int: String]())

    /// Rendition `index`'s media playlist: written once by `make`, then the same text.
    func mediaPlaylist(_ index: Int, _ make: () -> String?) -> String? {
        if let written = mediaPlaylists.withLock({ $0[index] }) { return written }
        guard let text = make() else { return nil }
        mediaPlaylists.withLock { $0[index] = text }
        return text
    }

    init(id: String, content: OriginContent, values: AdRequestTemplate.Values, mode: ServeMode, decider: SessionDecider,
         now: ContinuousClock.Instant) {
        self.id = id
        self.content = content
        self.values = values
        self.mode = mode
        self.lastUsed = LockedState(now)
        decision = Task { await decider.decide(values, content: content) }
    }

    /// The decision (waits for it: it is bounded by `--decision-timeout`).
    public var ads: SessionAds { get async { await decision.value } }

    /// The decided breaks as `stitcher` cuts them into the content, made once for the session (bounded by the
    /// stitcher's wait); without a stitcher, none.
    func stitch(_ stitcher: BreakStitcher?) async -> SessionStitch {
        guard let stitcher else { return SessionStitch(breaks: [], notes: ["this server stitches no ads"]) }
        let task = stitching.withLock { current -> Task<SessionStitch, Never> in
            if let current { return current }
            let made = Task { await stitcher.stitch(self, await self.ads) }
            current = made
            return made
        }
        return await task.value
    }

    /// Break `index` of a guided session's decision with its ads as `stitcher` conditions them (those ready within
    /// its wait), made once for the session, so that the asset list, the ads' playlists and their beacons agree;
    /// nil when the decision has no such break.
    func guidedBreak(_ index: Int, _ stitcher: BreakStitcher?) async -> GuidedBreak? {
        let ads = await self.ads
        guard ads.breaks.indices.contains(index) else { return nil }
        guard let stitcher else { return GuidedBreak(index: index, ads: [], notes: ["this server conditions no ads"]) }
        let task = guidedBreaks.withLock { all -> Task<GuidedBreak, Never> in
            if let current = all[index] { return current }
            let made = Task { await stitcher.guidedBreak(index, ads.breaks[index], content: self.content) }
            all[index] = made
            return made
        }
        return await task.value
    }

    func touch(_ now: ContinuousClock.Instant) { lastUsed.withLock { $0 = now } }
    var idleSince: ContinuousClock.Instant { lastUsed.withLock { $0 } }

    func cancel() { decision.cancel() }
}

/// The sessions of one server: at most `maximumSessions`, each forgotten after `idleTimeout` without a request,
/// as `clock` tells the time.
public final class SessionStore: Sendable {
    public let maximumSessions: Int
    public let idleTimeout: Duration
    private let clock: any WallClock
    private let sessions = LockedState([String: ServeSession]())
    private let made = LockedState(0)

    public init(maximumSessions: Int, idleTimeout: Duration, clock: any WallClock = SystemClock()) {
        self.maximumSessions = maximumSessions
        self.idleTimeout = idleTimeout
        self.clock = clock
    }

    /// A new session, or nil when the store is full (after forgetting the idle ones): only a session that is kept
    /// asks the ad server.
    func create(content: OriginContent, mode: ServeMode = .stitched, values: (String) -> AdRequestTemplate.Values,
                decider: SessionDecider) -> ServeSession? {
        let id = Self.newID()
        let values = values(id)
        return sessions.withLock { all -> ServeSession? in
            if all.count >= maximumSessions { expire(&all) }
            guard all.count < maximumSessions else { return nil }
            let session = ServeSession(id: id, content: content, values: values, mode: mode, decider: decider, now: clock.now)
            all[id] = session
            made.withLock { $0 += 1 }
            return session
        }
    }

    /// The session `id`, marked as used; nil when unknown or expired.
    func session(_ id: String) -> ServeSession? {
        guard id.utf8.count == 32, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        let now = clock.now
        let found = sessions.withLock { all -> ServeSession? in
            guard let session = all[id] else { return nil }
            if now - session.idleSince > idleTimeout {
                all[id] = nil
                session.cancel()
                return nil
            }
            return session
        }
        found?.touch(now)
        return found
    }

    public var count: Int { sessions.withLock { $0.count } }

    /// Sessions made since the server started.
    public var created: Int { made.withLock { $0 } }

    /// The ids of the sessions held.
    public var ids: [String] { sessions.withLock { Array($0.keys) } }

    private func expire(_ all: inout [String: ServeSession]) {
        let now = clock.now
        for (id, session) in all where now - session.idleSince > idleTimeout {
            all[id] = nil
            session.cancel()
        }
    }

    /// 128 random bits (the system's CSPRNG) as 32 lower-case hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
