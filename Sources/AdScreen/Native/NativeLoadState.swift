import AdPlayback

/// A native placement's load phases, `idle → loading → loaded | failed`, and how many failed loads its retries
/// have used.
///
/// Nothing loads by itself: only `begin()` (a `load slider` command) leaves `idle`. After a failure a new
/// `begin()` is a retry, allowed `maxRetries` times; past that it is refused with the reason. A load that
/// succeeds starts the count again. A request with other parameters is another `NativeLoadState` (keyed by
/// its request in `NativeLoadStates`), as an app makes a new ad loader for it.
public struct NativeLoadState: Hashable, Sendable {
    public typealias Phase = NativeLoadPhase

    /// Retries after a failure when the placement does not say: 3.
    public static let defaultMaximumRetries = 3

    public private(set) var phase: Phase = .idle
    /// Failed loads since the last success.
    public private(set) var failures = 0
    public let maximumRetries: Int

    public init(maximumRetries: Int = defaultMaximumRetries) {
        self.maximumRetries = maximumRetries
    }

    /// Starts a load: `loading`.
    ///
    /// - Throws: `NativeError.loadRefused` while a load is under way, or when `maximumRetries` retries have
    ///   failed already; the phase is unchanged.
    public mutating func begin(placement: String) throws(NativeError) {
        if phase == .loading { throw .loadRefused(placement: placement, reason: "a load is already under way") }
        if phase == .failed, failures > maximumRetries {
            throw .loadRefused(placement: placement,
                               reason: "\(failures) loads failed; maxRetries \(maximumRetries) allows no more retries")
        }
        phase = .loading
    }

    /// Drops the load under way without an outcome (`play` refused to draw its placement): the phase it had
    /// before, `idle` (or `failed` after failures, so the retries stay counted).
    public mutating func cancel() {
        precondition(phase == .loading, "cancel() drops a load begun with begin()")
        phase = failures > 0 ? .failed : .idle
    }

    /// Ends the load under way: `loaded`, or `failed` counting one more failure.
    public mutating func finish(succeeded: Bool) {
        precondition(phase == .loading, "finish(succeeded:) ends a load begun with begin()")
        if succeeded {
            phase = .loaded
            failures = 0
        } else {
            phase = .failed
            failures += 1
        }
    }
}

/// The load states of one placement, one per distinct request: new parameters, new state.
public struct NativeLoadStates: Hashable, Sendable {
    public private(set) var states: [String: NativeLoadState] = [:]
    public let maximumRetries: Int

    public init(maximumRetries: Int = NativeLoadState.defaultMaximumRetries) {
        self.maximumRetries = maximumRetries
    }

    /// The state of `request` (the URL as sent): `idle` for a request not made before.
    public func state(for request: String) -> NativeLoadState {
        states[request] ?? NativeLoadState(maximumRetries: maximumRetries)
    }

    public mutating func begin(_ request: String, placement: String) throws(NativeError) {
        var state = state(for: request)
        try state.begin(placement: placement)
        states[request] = state
    }

    public mutating func cancel(_ request: String) {
        var state = state(for: request)
        state.cancel()
        states[request] = state
    }

    public mutating func finish(_ request: String, succeeded: Bool) {
        var state = state(for: request)
        state.finish(succeeded: succeeded)
        states[request] = state
    }
}

extension NativeError {
    /// The failure kind of a failed load; `nil` for an error that is not a load's outcome.
    public var failureKind: NativeFailureKind? {
        switch self {
        case .fetch(.timedOut), .fetch(.decisionDeadline): .timeout
        case .fetch(.documentTooLarge): .invalidResponse
        case .fetch: .httpError
        case .invalidResponse: .invalidResponse
        case .noFill: .noFill
        case .invalidTemplate, .loadRefused, .unknownPlacement, .overlappingPlacements: nil
        }
    }
}
