import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Sends tracking beacons (impressions, quartiles, errors) with HTTP GET, without ever slowing the caller.
///
/// `send(_:)` returns at once: up to `maxConcurrentRequests` beacons are under way, up to `queueCapacity` more
/// wait their turn, and any beyond that are dropped and counted, so a render never waits for a tracking server.
/// Each request has its own timeout; network errors, timeouts and 5xx answers are retried a bounded number of
/// times with a doubling delay, 4xx answers are not. `finish(deadline:)` waits for what is outstanding, up to a
/// deadline, and reports what happened to every beacon. Only `http` and `https` URLs are sent; anything else is
/// counted as failed with the reason.
///
/// Requests are callback-based URLSession tasks, so they need no thread of their own and do not compete with the
/// caller's tasks for the cooperative thread pool. Thread-safe: every piece of state is behind one lock.
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
        /// The request under way; nil while waiting to retry.
        var task: URLSessionDataTask?
    }

    private struct State {
        var queue: [Beacon] = []
        var flights: [Int: Flight] = [:]
        var nextID = 0
        var summary = Summary()
        /// `finish` was called: new beacons are refused.
        var finishing = false
        /// The summary was delivered: late results are ignored.
        var closed = false
        var waiter: CheckedContinuation<Summary, Never>?
        var deadlineTimer: DispatchWorkItem?
    }

    /// The result of one request.
    private enum Outcome {
        case delivered
        case retryable(String)
        case final(String)
    }

    public let configuration: Configuration
    private let session: URLSession
    private let state = Mutex(State())

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConcurrentRequests
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: sessionConfiguration)
    }

    // The last reference often goes away on the session's own queue (with a task's completion handler), where a
    // synchronous invalidation would wait for itself; invalidate from elsewhere.
    deinit { DispatchQueue.global().async { [session] in session.invalidateAndCancel() } }

    /// Queues a beacon and returns at once. An invalid or non-http(s) URL is counted as failed; a beacon that
    /// finds the queue full is dropped and counted; one sent after `finish` is counted as failed.
    public func send(_ url: String) {
        let beacon: Beacon
        switch Self.parse(url) {
        case .failure(let reason):
            state.withLock { $0.summary.failures.append(Failure(url: url, reason: reason.text, attempts: 0)) }
            return
        case .success(let parsed):
            beacon = Beacon(text: url, url: parsed)
        }
        let slot: Int? = state.withLock { state in
            if state.finishing {
                state.summary.failures.append(Failure(url: url, reason: "sent after finish", attempts: 0))
                return nil
            }
            if state.flights.count < configuration.maxConcurrentRequests { return take(&state, beacon) }
            if state.queue.count < configuration.queueCapacity {
                state.queue.append(beacon)
            } else {
                state.summary.dropped += 1
            }
            return nil
        }
        if let slot { attempt(slot) }
    }

    /// Stops accepting beacons and waits until every outstanding one is delivered or given up, or until
    /// `deadline`; what is still outstanding then is cancelled and reported as failed.
    public func finish(deadline: ContinuousClock.Instant) async -> Summary {
        await withCheckedContinuation { continuation in
            let now: Summary? = state.withLock { state in
                state.finishing = true
                if state.closed || state.flights.isEmpty {
                    state.closed = true
                    return state.summary
                }
                state.waiter = continuation
                // A Dispatch timer rather than a sleeping task: it fires on time even when the cooperative pool
                // is busy with the caller's work.
                let timer = DispatchWorkItem { [self] in expire() }
                state.deadlineTimer = timer
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, (deadline - .now).timeInterval),
                                                  execute: timer)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Gives `beacon` a request slot.
    private func take(_ state: inout State, _ beacon: Beacon) -> Int {
        let id = state.nextID
        state.nextID += 1
        state.flights[id] = Flight(beacon: beacon)
        return id
    }

    /// Makes one request for the beacon in slot `id`, guarded by a timeout of our own: FoundationNetworking
    /// rounds `timeoutInterval` down to whole seconds (0.3 s times out at once), so it only serves as a backstop.
    private func attempt(_ id: Int) {
        guard let beacon = state.withLock({ state -> Beacon? in
            guard !state.closed, state.flights[id] != nil else { return nil }
            state.flights[id]!.attempts += 1
            return state.flights[id]!.beacon
        }) else { return }
        var request = URLRequest(url: beacon.url)
        request.httpMethod = "GET"
        request.timeoutInterval = (configuration.timeout.timeInterval + 1).rounded(.up)
        let watch = AttemptWatch()
        let task = session.dataTask(with: request) { [self] _, response, error in
            let timedOut = watch.complete()
            conclude(id, outcome(response: response, error: error, timedOut: timedOut))
        }
        let open = state.withLock { state in
            guard !state.closed, state.flights[id] != nil else { return false }
            state.flights[id]!.task = task
            return true
        }
        guard open else { return }
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + configuration.timeout.timeInterval) {
            if watch.expire() { task.cancel() }
        }
    }

    private func outcome(response: URLResponse?, error: (any Error)?, timedOut: Bool) -> Outcome {
        if timedOut { return .retryable("timed out after \(configuration.timeout.secondsText)") }
        if let error { return .retryable(Self.describe(error)) }
        guard let http = response as? HTTPURLResponse else { return .retryable("no HTTP response") }
        switch http.statusCode {
        case 200..<400: return .delivered
        case 400..<500: return .final("HTTP \(http.statusCode)")
        default: return .retryable("HTTP \(http.statusCode)")
        }
    }

    /// Records the result of the request in slot `id`; retries it, or gives the slot to the next queued beacon.
    private func conclude(_ id: Int, _ outcome: Outcome) {
        enum Next {
            case retry(after: Duration)
            case start(Int)
            case report(CheckedContinuation<Summary, Never>, Summary)
            case nothing
        }
        let next: Next = state.withLock { state in
            guard !state.closed, let flight = state.flights[id] else { return .nothing }
            switch outcome {
            case .retryable where flight.attempts <= configuration.maxRetries:
                state.flights[id]!.task = nil
                return .retry(after: configuration.retryDelay * (1 << (flight.attempts - 1)))
            case .retryable(let reason), .final(let reason):
                state.summary.failures.append(Failure(url: flight.beacon.text, reason: reason, attempts: flight.attempts))
            case .delivered:
                state.summary.sent += 1
            }
            state.flights[id] = nil
            if !state.queue.isEmpty { return .start(take(&state, state.queue.removeFirst())) }
            if state.flights.isEmpty, let waiter = state.waiter {
                state.closed = true
                state.waiter = nil
                state.deadlineTimer?.cancel()
                return .report(waiter, state.summary)
            }
            return .nothing
        }
        switch next {
        case .retry(let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.timeInterval) { [self] in attempt(id) }
        case .start(let slot): attempt(slot)
        case .report(let waiter, let summary): waiter.resume(returning: summary)
        case .nothing: break
        }
    }

    /// The deadline of `finish` has passed: gives up on everything outstanding and reports.
    private func expire() {
        let taken: (CheckedContinuation<Summary, Never>, Summary, [URLSessionDataTask])? = state.withLock { state in
            guard !state.closed, let waiter = state.waiter else { return nil }
            state.closed = true
            state.waiter = nil
            var tasks: [URLSessionDataTask] = []
            for (_, flight) in state.flights.sorted(by: { $0.key < $1.key }) {
                state.summary.failures.append(Failure(url: flight.beacon.text, reason: "not finished by the deadline",
                                                      attempts: flight.attempts))
                if let task = flight.task { tasks.append(task) }
            }
            for beacon in state.queue {
                state.summary.failures.append(Failure(url: beacon.text, reason: "not sent by the deadline", attempts: 0))
            }
            state.flights = [:]
            state.queue = []
            return (waiter, state.summary, tasks)
        }
        guard let (waiter, summary, tasks) = taken else { return }
        tasks.forEach { $0.cancel() }
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

    /// A network error in a few words.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        return switch error.code {
        case .cannotConnectToHost: "cannot connect to the host"
        case .cannotFindHost: "cannot find the host"
        case .dnsLookupFailed: "DNS lookup failed"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "not connected to the network"
        case .timedOut: "timed out"
        case .badServerResponse: "bad server response"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot: "TLS failure"
        default: "network error \(error.code.rawValue)"
        }
    }
}

/// Decides, once, whether a request completed or timed out first.
private final class AttemptWatch: Sendable {
    private let state = Mutex<(done: Bool, timedOut: Bool)>((false, false))

    /// Called when the request completes; returns whether the timeout had already fired.
    func complete() -> Bool {
        state.withLock { state in
            state.done = true
            return state.timedOut
        }
    }

    /// Called when the timeout fires; returns whether the request is still under way (and must be cancelled).
    func expire() -> Bool {
        state.withLock { state in
            guard !state.done else { return false }
            state.timedOut = true
            return true
        }
    }
}

extension Duration {
    /// Seconds as a `TimeInterval`, for Dispatch and Foundation.
    fileprivate var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// `5 s`, `0.2 s`.
    fileprivate var secondsText: String {
        let ms = (timeInterval * 1000).rounded()
        let text = ms.truncatingRemainder(dividingBy: 1000) == 0 ? String(Int(ms / 1000)) : String(ms / 1000)
        return text + " s"
    }
}
