/// A native placement's load phase, as the `onAdLoadPhase` event names it (`NativeLoadState` moves through them).
public enum NativeLoadPhase: String, Hashable, Sendable, CaseIterable {
    case idle, loading, loaded, failed
}

/// Why a native load failed, as the `onAdFailure` event names it.
public enum NativeFailureKind: String, Hashable, Sendable, CaseIterable {
    /// The server answered with an HTTP error, or could not be reached (or the file is missing).
    case httpError
    case timeout
    /// The response is not JSON, not the schema, or too large.
    case invalidResponse
    case noFill
}
