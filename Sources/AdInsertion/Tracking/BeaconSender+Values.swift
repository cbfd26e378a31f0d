extension BeaconSender {
    /// How beacons are sent.
    public struct Configuration: Hashable, Sendable {
        /// How long one request may take before it counts as timed out.
        public var timeout: Duration
        /// How many times a request is tried again after a network error, a timeout or a 5xx answer (never
        /// after a 4xx).
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

    /// What happened to every beacon given to `send`.
    public struct Summary: Hashable, Sendable {
        /// Answered with a 2xx or 3xx status.
        public var sent: Int
        /// In the order they were given up.
        public var failures: [Failure]
        /// Refused because the queue was full.
        public var dropped: Int

        public init(sent: Int = 0, failures: [Failure] = [], dropped: Int = 0) {
            self.sent = sent
            self.failures = failures
            self.dropped = dropped
        }
    }
}
