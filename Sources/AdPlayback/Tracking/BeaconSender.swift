import Foundation
import Networking
import MediaCore

/// Sends tracking beacons (impressions, quartiles, errors) with HTTP GET, without ever slowing the caller, and at
/// most once each.
///
/// `send(_:at:)` returns at once: up to `maxConcurrentRequests` beacons are under way, up to `queueCapacity` more
/// wait their turn, and any beyond that are dropped and counted, so a render never waits for a tracking server.
/// A beacon given a due instant (`Pacing.realtime`) waits for it first, so that an ad server sees it when a real
/// player would have sent it.
///
/// At most once, because an ad server counts every impression it receives: a request that may have reached the
/// server is never repeated — any HTTP answer (a 5xx included), a timeout, a connection lost mid-request. Only a
/// connection that could not be opened at all (refused, host not found, DNS failure, no network) is tried again,
/// a bounded number of times with a doubling delay, and each such retry is listed in the `Summary`.
/// `finish(grace:)` waits for what is outstanding (beacons not yet due included) and reports what happened to
/// every beacon. Only `http` and `https` URLs are sent; anything else is counted as failed with the reason.
///
/// The HTTP exchange itself lives in one method, `request(_:completion:)`, which only classifies the outcome;
/// the policy above does not depend on how the request is made. Thread-safe: every piece of state is behind one
/// lock.
public final class BeaconSender: Sendable {
    /// A beacon to send: the text as given (for the report) and the URL it parsed to.
    private struct Beacon {
        var text: String
        var url: URL
    }

    /// A beacon that holds a request slot: being requested or waiting to retry.
    private struct Flight {
        var beacon: Beacon
        var attempts = 0
        /// Cancels the request under way; nil while waiting to retry.
        var cancel: (@Sendable () -> Void)?
    }

    private struct State {
        var queue: [Beacon] = []
        var flights: [Int: Flight] = [:]
        /// Beacons waiting for their due instant, by id.
        var waiting: [Int: Beacon] = [:]
        /// The latest due instant given to `send`.
        var lastDue: ContinuousClock.Instant?
        var nextID = 0
        var summary = Summary()
        /// `finish` was called: new beacons are refused.
        var finishing = false
        /// The summary was delivered: late results are ignored.
        var closed = false
        var waiter: CheckedContinuation<Summary, Never>?
        var deadlineTimer: ClockTimer?

        var isIdle: Bool { flights.isEmpty && queue.isEmpty && waiting.isEmpty }
    }

    public let configuration: Configuration
    public let pacing: Pacing
    /// What due instants, retry delays and `finish`'s deadline are read on (a `ManualClock` in tests and `play --step`).
    public let clock: any WallClock
    private let client: HTTPClient
    private let state = LockedState(State())

    public init(configuration: Configuration = Configuration(), pacing: Pacing = .asap, client: HTTPClient = .shared,
                clock: any WallClock = SystemClock()) {
        self.configuration = configuration
        self.pacing = pacing
        self.client = client
        self.clock = clock
    }

    /// Queues a beacon and returns at once; with `due`, it is sent no earlier than that instant. An invalid or
    /// non-http(s) URL is counted as failed; a beacon that finds the queue full is dropped and counted; one sent
    /// after `finish` is counted as failed.
    public func send(_ url: String, at due: ContinuousClock.Instant? = nil) {
        let beacon: Beacon
        switch Self.parse(url) {
        case .failure(let reason):
            state.withLock { $0.summary.failures.append(Failure(url: url, reason: reason.text, attempts: 0)) }
            return
        case .success(let parsed):
            beacon = Beacon(text: url, url: parsed)
        }
        if let due, due > clock.now {
            let id: Int? = state.withLock { state in
                if state.finishing {
                    state.summary.failures.append(Failure(url: url, reason: "sent after finish", attempts: 0))
                    return nil
                }
                let id = state.nextID
                state.nextID += 1
                state.waiting[id] = beacon
                state.lastDue = max(state.lastDue ?? due, due)
                return id
            }
            guard let id else { return }
            clock.schedule(at: due) { [self] in release(id) }
            return
        }
        let slot: Int? = state.withLock { state in
            if state.finishing {
                state.summary.failures.append(Failure(url: url, reason: "sent after finish", attempts: 0))
                return nil
            }
            return admit(&state, beacon)
        }
        if let slot { attempt(slot) }
    }

    /// A waiting beacon is due: it queues like any other (even after `finish`, which waits for it).
    private func release(_ id: Int) {
        let slot: Int? = state.withLock { state in
            guard !state.closed, let beacon = state.waiting.removeValue(forKey: id) else { return nil }
            return admit(&state, beacon)
        }
        if let slot { attempt(slot) }
    }

    /// Gives `beacon` a slot, or a place in the queue, or drops it. Returns the slot to start.
    private func admit(_ state: inout State, _ beacon: Beacon) -> Int? {
        if state.flights.count < configuration.maxConcurrentRequests { return take(&state, beacon) }
        if state.queue.count < configuration.queueCapacity {
            state.queue.append(beacon)
        } else {
            state.summary.dropped += 1
        }
        return nil
    }

    /// Stops accepting beacons and waits until every outstanding one (those not yet due included) is delivered
    /// or given up, or until `grace` after the later of now and the last due instant; what is still outstanding
    /// then is cancelled and reported as failed.
    public func finish(grace: Duration) async -> Summary {
        let lastDue = state.withLock { $0.lastDue }
        let now = clock.now
        return await finish(deadline: max(now, lastDue ?? now) + grace)
    }

    /// Stops accepting beacons and waits until every outstanding one is delivered or given up, or until
    /// `deadline`; what is still outstanding then is cancelled and reported as failed.
    public func finish(deadline: ContinuousClock.Instant) async -> Summary {
        await withCheckedContinuation { continuation in
            let now: Summary? = state.withLock { state in
                state.finishing = true
                if state.closed || state.isIdle {
                    state.closed = true
                    return state.summary
                }
                state.waiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now); return }
            // The clock's timer rather than a sleeping task: it fires on time even when the cooperative pool is busy
            // with the caller's work. Set outside the lock: a deadline already passed expires at once, here.
            let timer = clock.schedule(at: deadline) { [self] in expire() }
            let kept = state.withLock { state in
                guard !state.closed else { return false }
                state.deadlineTimer = timer
                return true
            }
            if !kept { timer.cancel() }
        }
    }

    /// Gives `beacon` a request slot.
    private func take(_ state: inout State, _ beacon: Beacon) -> Int {
        let id = state.nextID
        state.nextID += 1
        state.flights[id] = Flight(beacon: beacon)
        return id
    }

    /// Makes one request for the beacon in slot `id`.
    private func attempt(_ id: Int) {
        guard let beacon = state.withLock({ state -> Beacon? in
            guard !state.closed, state.flights[id] != nil else { return nil }
            state.flights[id]!.attempts += 1
            return state.flights[id]!.beacon
        }) else { return }
        let cancel = request(beacon.url) { [self] outcome in conclude(id, outcome) }
        let open = state.withLock { state in
            guard !state.closed, state.flights[id] != nil else { return false }
            state.flights[id]!.cancel = cancel
            return true
        }
        if !open { cancel() }
    }

    /// The one HTTP exchange: a GET of `url` on `HTTPClient` (libcurl; it costs no CPU while the server is slow),
    /// within `configuration.timeout`, the body dropped as it arrives, classified for the retry policy. Calls
    /// `completion` exactly once, on another thread. Returns a function that cancels the request.
    private func request(_ url: URL, completion: @escaping @Sendable (BeaconOutcome) -> Void) -> @Sendable () -> Void {
        let request = HTTPRequest(url: url, timeout: configuration.timeout)
        let task = Task { [client] in completion(Self.classify(await client.send(request))) }
        return { task.cancel() }
    }

    /// What one request came to. Only `couldNotConnect` is ever retried.
    enum BeaconOutcome: Hashable, Sendable {
        /// The server answered 2xx or 3xx.
        case delivered
        /// No connection could be opened, so nothing reached the server.
        case couldNotConnect(String)
        /// The request may have reached the server (an HTTP error status, a timeout, a connection lost).
        case failedAfterSending(String)
    }

    static func classify(_ result: Result<HTTPResponse, HTTPFailure>) -> BeaconOutcome {
        switch result {
        case .success: .delivered
        case .failure(let failure) where failure.neverReachedServer: .couldNotConnect(failure.description)
        case .failure(.status(let status)): .failedAfterSending("HTTP \(status)")
        case .failure(let failure): .failedAfterSending(failure.description)
        }
    }

    /// Records the result of the request in slot `id`; retries it, or gives the slot to the next queued beacon.
    private func conclude(_ id: Int, _ outcome: BeaconOutcome) {
        enum Next {
            case retry(after: Duration)
            case start(Int)
            case report(CheckedContinuation<Summary, Never>, Summary)
            case nothing
        }
        let next: Next = state.withLock { state in
            guard !state.closed, let flight = state.flights[id] else { return .nothing }
            switch outcome {
            case .couldNotConnect(let reason) where flight.attempts <= configuration.maxRetries:
                state.flights[id]!.cancel = nil
                state.summary.retries.append(Retry(url: flight.beacon.text, attempt: flight.attempts + 1,
                                                   reason: reason))
                return .retry(after: configuration.retryDelay * (1 << (flight.attempts - 1)))
            case .couldNotConnect(let reason), .failedAfterSending(let reason):
                state.summary.failures.append(Failure(url: flight.beacon.text, reason: reason, attempts: flight.attempts))
            case .delivered:
                state.summary.sent += 1
            }
            state.flights[id] = nil
            if !state.queue.isEmpty { return .start(take(&state, state.queue.removeFirst())) }
            if state.isIdle, let waiter = state.waiter {
                state.closed = true
                state.waiter = nil
                state.deadlineTimer?.cancel()
                return .report(waiter, state.summary)
            }
            return .nothing
        }
        switch next {
        case .retry(let delay):
            clock.schedule(at: clock.now + delay) { [self] in attempt(id) }
        case .start(let slot): attempt(slot)
        case .report(let waiter, let summary): waiter.resume(returning: summary)
        case .nothing: break
        }
    }

    /// The deadline of `finish` has passed: gives up on everything outstanding and reports.
    private func expire() {
        let taken: (CheckedContinuation<Summary, Never>, Summary, [@Sendable () -> Void])? = state.withLock { state in
            guard !state.closed, let waiter = state.waiter else { return nil }
            state.closed = true
            state.waiter = nil
            var cancels: [@Sendable () -> Void] = []
            for (_, flight) in state.flights.sorted(by: { $0.key < $1.key }) {
                state.summary.failures.append(Failure(url: flight.beacon.text, reason: "not finished by the deadline",
                                                      attempts: flight.attempts))
                if let cancel = flight.cancel { cancels.append(cancel) }
            }
            for beacon in state.queue + state.waiting.sorted(by: { $0.key < $1.key }).map(\.value) {
                state.summary.failures.append(Failure(url: beacon.text, reason: "not sent by the deadline", attempts: 0))
            }
            state.flights = [:]
            state.queue = []
            state.waiting = [:]
            return (waiter, state.summary, cancels)
        }
        guard let (waiter, summary, cancels) = taken else { return }
        cancels.forEach { $0() }
        waiter.resume(returning: summary)
    }

    private struct Refusal: Error {
        let text: String
    }

    private static func parse(_ text: String) -> Result<URL, Refusal> {
        guard let url = URL(string: text) else { return .failure(Refusal(text: "not a valid URL")) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .failure(Refusal(text: "not an http(s) URL"))
        }
        guard let host = url.host, !host.isEmpty else { return .failure(Refusal(text: "the URL has no host")) }
        return .success(url)
    }
}
