import AdInsertion
import MediaCore

/// How ad responses are fetched, shared by `render`, `play` and `ads inspect`: wrapper limits and deadlines.
struct DecisioningOptions: Hashable, Sendable {
    var wrapperTimeout: MediaDuration
    var maxWrappers: Int
    var decisionTimeout: MediaDuration

    static let wrapperTimeout = Parameter.option(
        "wrapper-timeout", .seconds(), default: MediaDuration(seconds: 4),
        help: "How long to wait for each document a wrapper points to (IMA allows 4 seconds).")
    static let maxWrappers = Parameter.option(
        "max-wrappers", .integer("N", in: 0...20), default: 5,
        help: "How many wrappers may be followed to reach an inline ad before the chain fails with VAST error "
            + "302 (IMA's maxRedirects).")
    static let decisionTimeout = Parameter.option(
        "decision-timeout", .seconds(), default: MediaDuration(seconds: 15),
        help: "One deadline for all of decisioning: the ad tag, every VMAP AdTagURI and every wrapper (fetched "
            + "at the same time, break by break) must have arrived by then. Breaks still loading fail with VAST "
            + "error 301; the others play.")

    static let parameters: [any ParameterDeclaration] = [wrapperTimeout, maxWrappers, decisionTimeout]

    init(_ arguments: ParsedArguments) {
        wrapperTimeout = arguments[Self.wrapperTimeout]
        maxWrappers = arguments[Self.maxWrappers]
        decisionTimeout = arguments[Self.decisionTimeout]
    }

    /// Writes these options into loader settings.
    func apply(to settings: inout AdsLoaderSettings) {
        settings.wrapperTimeout = wrapperTimeout.duration
        settings.maximumWrapperDepth = maxWrappers
        settings.decisionTimeout = decisionTimeout.duration
    }
}
