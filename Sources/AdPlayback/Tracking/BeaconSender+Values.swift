extension BeaconSender {
    /// How beacons are sent.
    public struct Configuration: Hashable, Sendable {
        /// How long one request may take before it counts as timed out.
        public var timeout: Duration
        /// How many times a request is tried again when its connection could not be opened (never when it may
        /// have reached the server).
        public var maxRetries: Int
        /// The wait before the first retry; it doubles for each further one.
        public var retryDelay: Duration
        /// How many requests may be under way at once (retries waiting included).
        public var maxConcurrentRequests: Int
        /// How many beacons may wait for a free request slot; more are dropped and counted.
        public var queueCapacity: Int

        public init(timeout: Duration = .seconds(5), maxRetries: Int = 2, retryDelay: Duration = .milliseconds(500),
                    maxConcurrentRequests: Int = 4, queueCapacity: Int = 256) {
            precondition(timeout > .zero && maxRetries >= 0 && retryDelay >= .zero)
            precondition(maxConcurrentRequests > 0 && queueCapacity >= 0)
            self.timeout = timeout
            self.maxRetries = maxRetries
            self.retryDelay = retryDelay
            self.maxConcurrentRequests = maxConcurrentRequests
            self.queueCapacity = queueCapacity
        }
    }

    /// A beacon that was not delivered.
    public struct Failure: Hashable, Sendable, CustomStringConvertible {
        /// The URL as given to `send`.
        public var url: String
        /// `HTTP 404`, `timed out after 5 s`, `not an http(s) URL`, `not finished by the deadline`…
        public var reason: String
        /// Requests made for it (0 when it was never sent).
        public var attempts: Int

        public init(url: String, reason: String, attempts: Int) {
            self.url = url
            self.reason = reason
            self.attempts = attempts
        }

        public var description: String {
            "\(url): \(reason)" + (attempts > 1 ? " (after \(attempts) attempts)" : "")
        }
    }

    /// A request tried again because its connection could not be opened.
    public struct Retry: Hashable, Sendable, CustomStringConvertible {
        /// The URL as given to `send`.
        public var url: String
        /// The attempt about to be made: 2 for the first retry.
        public var attempt: Int
        /// Why the previous attempt could not connect.
        public var reason: String

        public init(url: String, attempt: Int, reason: String) {
            self.url = url
            self.attempt = attempt
            self.reason = reason
        }

        public var description: String { "\(url): \(reason); attempt \(attempt)" }
    }

    /// When beacons are sent.
    public enum Pacing: Hashable, Sendable {
        /// As soon as they are given (a render sends them as fast as it goes).
        case asap
        /// Each beacon no earlier than `start` plus the output time of its event divided by `speed`, as a real
        /// player would have sent it.
        case realtime(start: ContinuousClock.Instant, speed: Double = 1)

        /// The instant a beacon of the event at `outputSeconds` is due; nil to send it at once.
        public func due(outputSeconds: Double) -> ContinuousClock.Instant? {
            switch self {
            case .asap: nil
            case .realtime(let start, let speed): start + .seconds(outputSeconds / speed)
            }
        }
    }

    /// What happened to every beacon given to `send`.
    public struct Summary: Hashable, Sendable {
        /// Answered with a 2xx or 3xx status.
        public var sent: Int
        /// In the order they were given up.
        public var failures: [Failure]
        /// Refused because the queue was full.
        public var dropped: Int
        /// Every retry, in the order they were decided.
        public var retries: [Retry]

        public init(sent: Int = 0, failures: [Failure] = [], dropped: Int = 0, retries: [Retry] = []) {
            self.sent = sent
            self.failures = failures
            self.dropped = dropped
            self.retries = retries
        }
    }
}
