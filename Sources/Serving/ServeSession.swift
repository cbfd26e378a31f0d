import CSystem
import Foundation
import MediaCore

/// One viewer's session: the content, what the viewer sent (parameters, agent, address), and the ad decision,
/// started when the session is made (or rebuilt from its token on another instance) and awaited by its first
/// playlist.
public final class ServeSession: Sendable {
    /// What its URLs name it by: its nonce (in memory), or its signed token (shared).
    public let id: String
    public let content: OriginContent
    public let values: AdRequestTemplate.Values
    public let mode: ServeMode
    /// The instances' shared directory, when the session is shared (`--secret-file`).
    private let shared: SharedSessions?
    private let decision: Task<SessionAds, Never>
    private let lastUsed: LockedState<ContinuousClock.Instant>
    /// When this instance last touched the shared record (its last use for every instance).
    private let lastTouched = LockedState<ContinuousClock.Instant?>(nil)
    private let stitching = LockedState<Task<SessionStitch, Never>?>(nil)
    /// A guided session's breaks as its asset lists give them, each decided once, when the player first asks.
    private let guidedBreaks = LockedState([Int: Task<GuidedBreak, Never>]())
    /// The server-side beacons this session has sent.
    let beacons: SessionBeacons
    /// Each media playlist once written: it cannot change after the session's breaks are decided.
    private let mediaPlaylists = LockedState([MediaPlaylist: String]())

    /// A media playlist of the session: a rendition's, or a subtitle rendition's.
    enum MediaPlaylist: Hashable {
        case rendition(Int)
        case subtitles(Int)
    }

    /// Media playlist `which`: written once by `make`, then the same text.
    func mediaPlaylist(_ which: MediaPlaylist, _ make: () -> String?) -> String? {
        if let written = mediaPlaylists.withLock({ $0[which] }) { return written }
        guard let text = make() else { return nil }
        mediaPlaylists.withLock { $0[which] = text }
        return text
    }

    /// - Parameter shared: where a shared session's decision and beacons are kept; its name there is
    ///   `values.sessionID`, the token's nonce.
    init(id: String, content: OriginContent, values: AdRequestTemplate.Values, mode: ServeMode, decider: SessionDecider,
         shared: SharedSessions? = nil, now: ContinuousClock.Instant) {
        self.id = id
        self.content = content
        self.values = values
        self.mode = mode
        self.shared = shared
        self.lastUsed = LockedState(now)
        beacons = SessionBeacons(shared: shared, nonce: values.sessionID)
        if let shared {
            // The lock is waited for as long as the winner may take to decide, and a little more.
            let wait = (decider.settings.decisionTimeout ?? .seconds(3)) + .seconds(10)
            decision = Task { await shared.decision(values.sessionID, wait: wait) { await decider.decide(values, content: content) } }
        } else {
            decision = Task { await decider.decide(values, content: content) }
        }
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

    /// Marks the session as used at `now`: in memory, and for a shared session on its record, at most every
    /// `SharedSessions.touchInterval`.
    func touch(_ now: ContinuousClock.Instant) {
        lastUsed.withLock { $0 = now }
        guard let shared else { return }
        let due = lastTouched.withLock { last -> Bool in
            if let last, now - last < shared.touchInterval { return false }
            last = now
            return true
        }
        if due { shared.touch(values.sessionID) }
    }

    var idleSince: ContinuousClock.Instant { lastUsed.withLock { $0 } }

    /// Stops asking the ad server for a session forgotten; a shared session's decision goes on, since another
    /// instance may be waiting for its record.
    func cancel() {
        if shared == nil { decision.cancel() }
    }
}

/// The sessions of one server: at most `maximumSessions`, each forgotten after `idleTimeout` without a request,
/// as `clock` tells the time.
///
/// Without `shared`, the store is where sessions live: ids are random, and a full store refuses new sessions. With
/// it (`--secret-file`), a session lives in its token and the shared directory, and the store is a cache of the
/// sessions made or rebuilt here: a full store forgets its least recently used one instead.
public final class SessionStore: Sendable {
    public let maximumSessions: Int
    public let idleTimeout: Duration
    private let clock: any WallClock
    /// The instances' shared sessions (`--secret-file` with `--cache`), or nil.
    let shared: SharedSessions?
    private let sessions = LockedState([String: ServeSession]())
    private let made = LockedState(0)
    private let lastForget = LockedState<ContinuousClock.Instant?>(nil)
    private let lastTrim: LockedState<ContinuousClock.Instant>

    /// How long a shared session (which any instance rebuilds from its token and the shared folder) stays in memory
    /// without a request: a player that plays asks for a segment every few seconds, so one silent for a minute has
    /// stopped, paused or filled its buffer far ahead, and is rebuilt if it comes back (from its token and the shared folder,
    /// reading its decision, never asking the ad server again). So memory holds the sessions being played, not every
    /// session of the idle timeout.
    public static let sharedMemoryIdle: Duration = .seconds(60)

    /// How long a session stays in memory without a request: the idle timeout, or `sharedMemoryIdle` for shared ones.
    public var memoryIdle: Duration { shared == nil ? idleTimeout : min(idleTimeout, Self.sharedMemoryIdle) }

    public convenience init(maximumSessions: Int, idleTimeout: Duration, clock: any WallClock = SystemClock()) {
        self.init(maximumSessions: maximumSessions, idleTimeout: idleTimeout, clock: clock, shared: nil)
    }

    init(maximumSessions: Int, idleTimeout: Duration, clock: any WallClock, shared: SharedSessions?) {
        self.maximumSessions = maximumSessions
        self.idleTimeout = idleTimeout
        self.clock = clock
        self.shared = shared
        lastTrim = LockedState(clock.now)
    }

    /// What `create` made.
    enum Creation {
        case made(ServeSession)
        /// The store holds `maximumSessions` that are not idle (sessions in memory only).
        case full
        /// A shared session's token would be longer than `SessionToken.maximumBytes` (its parameters and agent).
        case tooLong(bytes: Int)
    }

    /// A new session: only a session that is kept asks the ad server.
    func create(content: OriginContent, mode: ServeMode = .stitched, userAgent: String, clientIP: String,
                parameters: [String: String], decider: SessionDecider) -> Creation {
        let nonce = Self.newID()
        let values = AdRequestTemplate.Values(sessionID: nonce, userAgent: userAgent, clientIP: clientIP, parameters: parameters)
        var id = nonce
        if let shared {
            let token = SessionToken(content: content.path, mode: mode, parameters: parameters, userAgent: userAgent,
                                     clientIP: clientIP, nonce: nonce, created: Int64(time(nil)))
            id = token.signed(with: shared.secret)
            guard id.utf8.count <= SessionToken.maximumBytes else { return .tooLong(bytes: id.utf8.count) }
            shared.sweepWhenDue(clock)
        }
        let now = clock.now
        let forget = lastForget.withLock { last -> Bool in
            guard last.map({ now - $0 >= .seconds(10) }) ?? true else { return false }
            last = now
            return true
        }
        let made = sessions.withLock { all -> ServeSession? in
            // At most every 10 s, a scan of the store forgets the sessions silent past `memoryIdle`.
            if forget { expire(&all, after: memoryIdle) }
            guard room(&all) else { return nil }
            let session = ServeSession(id: id, content: content, values: values, mode: mode, decider: decider, shared: shared, now: clock.now)
            all[id] = session
            self.made.withLock { $0 += 1 }
            return session
        }
        if forget { releaseFreedMemory(now) }
        return made.map { .made($0) } ?? .full
    }

    /// At most once a minute (the first a minute after the store is made), gives the memory the allocator holds
    /// free back to the system (`malloc_trim`), in the background: glibc keeps what its arenas freed, so a burst of
    /// sessions left the server at its peak size once they were forgotten (`bench/run.py --jobs serve-burst`: 227 MiB
    /// after a burst of 6,000 viewers and a quiet minute, 78 once trimmed). Off the request's path: the trim walks
    /// every arena, each under its lock.
    private func releaseFreedMemory(_ now: ContinuousClock.Instant) {
        let due = lastTrim.withLock { last -> Bool in
            guard now - last >= .seconds(60) else { return false }
            last = now
            return true
        }
        if due { DispatchQueue.global(qos: .utility).async { _ = csystem_release_free_memory() } }
    }

    /// Shared session `id` rebuilt from its checked `token` on this instance, or the one a concurrent request
    /// rebuilt first.
    func rebuilt(id: String, token: SessionToken, content: OriginContent, decider: SessionDecider) -> ServeSession? {
        guard let shared else { return nil }
        let values = AdRequestTemplate.Values(sessionID: token.nonce, userAgent: token.userAgent, clientIP: token.clientIP,
                                              parameters: token.parameters)
        let now = clock.now
        let session = sessions.withLock { all -> ServeSession? in
            if let current = all[id] { return current }
            guard room(&all) else { return nil }
            let session = ServeSession(id: id, content: content, values: values, mode: token.mode, decider: decider, shared: shared, now: now)
            all[id] = session
            return session
        }
        session?.touch(now)
        return session
    }

    /// Makes room for one more session: forgets the idle ones when full, then (shared sessions, which any instance
    /// rebuilds) the least recently used; false when there is none.
    private func room(_ all: inout [String: ServeSession]) -> Bool {
        if all.count >= maximumSessions { expire(&all, after: memoryIdle) }
        if all.count >= maximumSessions, shared != nil, let oldest = all.min(by: { $0.value.idleSince < $1.value.idleSince }) {
            all[oldest.key] = nil
        }
        return all.count < maximumSessions
    }

    /// The session `id` held here, marked as used; nil when unknown or expired (a shared one is then rebuilt from
    /// its token, when its shared record says it is live).
    func session(_ id: String) -> ServeSession? {
        if shared == nil {
            guard id.utf8.count == 32, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        } else {
            guard id.utf8.count <= SessionToken.maximumBytes else { return nil }
        }
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

    private func expire(_ all: inout [String: ServeSession], after idle: Duration) {
        let now = clock.now
        for (id, session) in all where now - session.idleSince > idle {
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
