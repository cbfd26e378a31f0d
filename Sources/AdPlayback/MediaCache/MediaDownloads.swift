import AdDecisioning
import Dispatch
import Foundation
import MediaCore

/// Fetches a plan's remote media ahead of need and hands each ad its file when the session reaches it.
///
/// `start()` begins the downloads in break order, at most `concurrency` at a time, so that the next break's media
/// arrives while the content before it plays. `file(for:)` blocks the calling thread (the render's own, never a
/// cooperative one) until that one file is ready; a file still queued behind others is started at once. `cancel()`
/// (Ctrl-C, or the end of the render) stops every transfer and wakes every waiter at once.
public final class MediaDownloads: Sendable {
    /// A wait in progress, reported to the observer about ten times a second, and once more when it is over
    /// (`ended`), so that whoever draws it can take it away.
    public struct Wait: Hashable, Sendable {
        public var url: URL
        /// Bytes of the file held so far.
        public var receivedBytes: Int64
        /// How long the caller has waited.
        public var elapsed: Duration
        /// The wait is over (the file is there, or failed): the last report of this wait.
        public var ended: Bool

        public init(url: URL, receivedBytes: Int64, elapsed: Duration, ended: Bool = false) {
            self.url = url
            self.receivedBytes = receivedBytes
            self.elapsed = elapsed
            self.ended = ended
        }
    }

    /// What `file(for:)` found: the file or why there is none, and how long it had to wait (`nil` when the
    /// download had already ended).
    public struct Outcome: Sendable {
        public var result: Result<String, MediaCacheError>
        public var waited: Duration?
        /// The cache entries of this URL dropped as untrustworthy before it was fetched again; given to the first
        /// caller for the URL only, so that each is reported once.
        public var dropped: [MediaCacheDrop] = []
    }

    private enum Phase {
        case queued
        case running(Task<Void, Never>?)
        case done(Result<String, MediaCacheError>)
    }

    private struct Slot {
        var phase: Phase = .queued
        var received: Int64 = 0
        var waiters: [DispatchSemaphore] = []
        /// Not yet handed to a caller.
        var dropped: [MediaCacheDrop] = []
    }

    private struct State {
        var order: [URL]
        var slots: [URL: Slot]
        var running = 0
        var started = false
        var cancelled = false
        var observer: (@Sendable (Wait) -> Void)?
    }

    public let cache: MediaCache
    public let concurrency: Int
    private let state: LockedState<State>

    /// Downloads for `urls`, in that order (duplicates count once); nothing starts before `start()`.
    public init(urls: [URL], cache: MediaCache, concurrency: Int = 3) {
        var seen: Set<URL> = []
        let order = urls.filter { seen.insert($0).inserted }
        self.cache = cache
        self.concurrency = max(1, concurrency)
        state = LockedState(State(order: order, slots: Dictionary(uniqueKeysWithValues: order.map { ($0, Slot()) })))
    }

    /// Downloads for the remote media of every ad of `plan` that can still play, in break order.
    public convenience init(plan: AdPlan, cache: MediaCache, concurrency: Int = 3) {
        let urls = plan.breaks.flatMap(\.ads).filter { $0.state == .available }.compactMap { $0.ad.selection?.remoteURL }
        self.init(urls: urls, cache: cache, concurrency: concurrency)
    }

    /// The URLs this will download, in order.
    public var urls: [URL] { state.withLock { $0.order } }

    /// Starts the downloads (later calls do nothing).
    public func start() {
        let go = state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started && !s.cancelled
        }
        if go { pump() }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Receives every wait in progress (on the waiting thread).
    public func setWaitObserver(_ observer: (@Sendable (Wait) -> Void)?) {
        state.withLock { $0.observer = observer }
    }

    /// Stops every download and makes every waiter (and later caller) fail with `.cancelled` at once.
    public func cancel() {
        let (tasks, waiters) = state.withLock { s -> ([Task<Void, Never>], [DispatchSemaphore]) in
            s.cancelled = true
            var tasks: [Task<Void, Never>] = []
            var waiters: [DispatchSemaphore] = []
            for url in s.order {
                guard var slot = s.slots[url] else { continue }
                if case .done = slot.phase { continue }
                if case .running(let task?) = slot.phase { tasks.append(task) }
                slot.phase = .done(.failure(.cancelled(url: url.absoluteString)))
                waiters += slot.waiters
                slot.waiters = []
                s.slots[url] = slot
            }
            return (tasks, waiters)
        }
        tasks.forEach { $0.cancel() }
        waiters.forEach { $0.signal() }
    }

    /// Blocks until `url`'s file is ready and returns it; starts it at once if it was still queued (or was not
    /// part of the plan).
    public func file(for url: URL) -> Outcome {
        let semaphore = DispatchSemaphore(value: 0)
        let (ready, startNow): (Result<String, MediaCacheError>?, Bool) = state.withLock { s in
            if s.cancelled, s.slots[url] == nil { return (.failure(.cancelled(url: url.absoluteString)), false) }
            if s.slots[url] == nil {
                s.order.append(url)
                s.slots[url] = Slot()
            }
            var slot = s.slots[url]!
            if case .done(let result) = slot.phase { return (result, false) }
            var startNow = false
            if case .queued = slot.phase {
                slot.phase = .running(nil)
                s.running += 1
                startNow = true
            }
            slot.waiters.append(semaphore)
            s.slots[url] = slot
            return (nil, startNow)
        }
        if let ready { return Outcome(result: ready, waited: nil, dropped: takeDropped(url)) }
        if startNow { launch(url) }
        let start = ContinuousClock.now
        var reported = false
        while semaphore.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            let (observer, received) = state.withLock { ($0.observer, $0.slots[url]?.received ?? 0) }
            observer?(Wait(url: url, receivedBytes: received, elapsed: ContinuousClock.now - start))
            reported = reported || observer != nil
        }
        if reported {
            let (observer, received) = state.withLock { ($0.observer, $0.slots[url]?.received ?? 0) }
            observer?(Wait(url: url, receivedBytes: received, elapsed: ContinuousClock.now - start, ended: true))
        }
        let result = state.withLock { s -> Result<String, MediaCacheError> in
            if case .done(let result) = s.slots[url]?.phase { return result }
            return .failure(.cancelled(url: url.absoluteString))
        }
        return Outcome(result: result, waited: ContinuousClock.now - start, dropped: takeDropped(url))
    }

    private func takeDropped(_ url: URL) -> [MediaCacheDrop] {
        state.withLock { s in
            defer { s.slots[url]?.dropped = [] }
            return s.slots[url]?.dropped ?? []
        }
    }

    /// The result for `url` if its download has ended, without waiting.
    public func finishedResult(for url: URL) -> Result<String, MediaCacheError>? {
        state.withLock { s in
            if case .done(let result) = s.slots[url]?.phase { return result }
            return nil
        }
    }

    /// Starts queued downloads, in order, while fewer than `concurrency` run.
    private func pump() {
        let next: [URL] = state.withLock { s in
            guard s.started, !s.cancelled else { return [] }
            var picked: [URL] = []
            for url in s.order where s.running < concurrency {
                guard case .queued = s.slots[url]?.phase else { continue }
                s.slots[url]?.phase = .running(nil)
                s.running += 1
                picked.append(url)
            }
            return picked
        }
        next.forEach(launch)
    }

    private func launch(_ url: URL) {
        let task = Task { [self] in
            let result = await cache.file(for: url, progress: { [self] bytes in
                state.withLock { $0.slots[url]?.received = bytes }
            }, dropped: { [self] drop in
                state.withLock { $0.slots[url]?.dropped.append(drop) }
            })
            finish(url, result)
        }
        let cancelled = state.withLock { s -> Bool in
            if case .running(.none) = s.slots[url]?.phase { s.slots[url]?.phase = .running(task) }
            return s.cancelled
        }
        if cancelled { task.cancel() }
    }

    private func finish(_ url: URL, _ result: Result<String, MediaCacheError>) {
        let waiters = state.withLock { s -> [DispatchSemaphore] in
            s.running -= 1
            guard var slot = s.slots[url] else { return [] }
            if case .done = slot.phase { return [] }
            slot.phase = .done(result)
            defer { slot.waiters = []; s.slots[url] = slot }
            return slot.waiters
        }
        waiters.forEach { $0.signal() }
        pump()
    }
}
