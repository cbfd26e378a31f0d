import Foundation
import MediaCore

/// Why an ad response, an ad tag or a decisioning input could not be used at all.
///
/// Only whole-document failures are thrown: a single bad ad, wrapper or break never throws, it becomes an
/// `AdError` in the result (`AdPlan.errors`, a failed `PlannedAd`). Each case carries the VAST error code a
/// player would report (`code`), and `description` is one line naming the file, URL or value and what is wrong.
/// Cases for which `isUserError` is true are mistakes in what the user typed (a `--break` value, a URL map file):
/// the command line reports them with its usage hint (exit 2); the others are runtime failures (exit 1).
public enum DecisioningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 100: `source` is not well-formed XML; `line` is where the XML parser stopped (1-based) and `reason` what
    /// it found there.
    case malformedXML(source: String, line: Int, reason: String)
    /// 100: `source` has a DTD that declares entities (entity expansion, "billion laughs", or external entities);
    /// refused before parsing, because VAST never needs them.
    case forbiddenEntities(source: String)
    /// 100: `source` is larger than `limit` bytes (`AdsLoaderSettings.maximumDocumentBytes`), refused unread;
    /// `bytes` is its size when known (a file), `nil` when a download was stopped at the limit.
    case documentTooLarge(source: String, bytes: Int?, limit: Int)
    /// 100: `source` nests elements deeper than, or holds more elements than, `limit` allows
    /// (`XMLTreeReader.maximumDepth`, `.maximumElements`); parsing stopped at `line`, where the limit was passed.
    case xmlLimitExceeded(source: String, limit: XMLLimit, line: Int)
    /// 101: the root element of `source` is `root`, not what was expected (`VAST`, `VMAP`).
    case unexpectedRoot(source: String, root: String, expected: String)
    /// 102: `source` is a VAST 1 response (`<VideoAdServingTemplate>` root or `version="1.x"`), which is not supported.
    case unsupportedVersion(source: String, version: String)
    /// 301: the ad tag `source` could not be loaded: missing file, HTTP error status, unreachable host,
    /// unsupported scheme.
    case unreachable(source: String, reason: String)
    /// 301: loading the ad tag `source` took longer than `timeout`.
    case timedOut(source: String, timeout: Duration)
    /// 301: loading `source` was still under way when the decision deadline (`AdsLoaderSettings.decisionTimeout`,
    /// counted from the start of the load) passed.
    case decisionDeadline(source: String, timeout: Duration)
    /// 301: loading `source` was stopped because the load was cancelled (the user interrupted).
    case cancelled(source: String)
    /// A `--break TIME=FILE[,FILE…]` value that cannot be used (user error).
    case invalidBreak(value: String, reason: String)
    /// A URL map file that cannot be read or has a malformed line (user error); `line` is 1-based, `nil` when the
    /// file itself cannot be read.
    case invalidURLMap(file: String, line: Int?, reason: String)

    /// The VAST error code a player reports for this failure; `900` (undefined) for user errors.
    public var code: VASTErrorCode {
        switch self {
        case .malformedXML, .forbiddenEntities, .documentTooLarge, .xmlLimitExceeded: .xmlParsing
        case .unexpectedRoot: .schemaValidation
        case .unsupportedVersion: .versionNotSupported
        case .unreachable, .timedOut, .decisionDeadline, .cancelled: .wrapperTimeout
        case .invalidBreak, .invalidURLMap: .undefined
        }
    }

    /// True for mistakes in the user's own input (`--break`, `--url-map`), false for failures of the ad response.
    public var isUserError: Bool {
        switch self {
        case .invalidBreak, .invalidURLMap: true
        default: false
        }
    }

    /// The same failure as an `AdError`, for lists of errors.
    public var adError: AdError { AdError(code, message) }

    /// What went wrong, without the code.
    public var message: String {
        switch self {
        case .malformedXML(let source, let line, let reason):
            "\(source) is not well-formed XML: line \(line): \(reason)"
        case .forbiddenEntities(let source):
            "\(source) declares XML entities in a DTD (entity expansion or external entities); refused"
        case .documentTooLarge(let source, let bytes, let limit):
            bytes.map { "\(source) is \($0) bytes, more than the limit of \(limit) bytes (\(DecisioningError.mebibytes(limit)))" }
                ?? "\(source) is larger than the limit of \(limit) bytes (\(DecisioningError.mebibytes(limit))); the download was stopped there"
        case .xmlLimitExceeded(let source, .depth(let limit), let line):
            "\(source) nests elements more than \(limit) deep (line \(line)); refused"
        case .xmlLimitExceeded(let source, .elements(let limit), let line):
            "\(source) has more than \(limit) XML elements (line \(line)); refused"
        case .unexpectedRoot(let source, let root, let expected):
            "\(source) has root element <\(root)>, expected \(expected)"
        case .unsupportedVersion(let source, let version):
            "\(source) is VAST \(version); VAST 1 is not supported"
        case .unreachable(let source, let reason):
            "cannot load \(source): \(reason)"
        case .timedOut(let source, let timeout):
            "loading \(source) timed out after \(timeout.secondsText)"
        case .decisionDeadline(let source, let timeout):
            "loading \(source) was stopped: the decision deadline of \(timeout.secondsText) passed"
        case .cancelled(let source):
            "loading \(source) was stopped before it finished"
        case .invalidBreak(let value, let reason):
            "invalid --break value '\(value)': \(reason)"
        case .invalidURLMap(let file, let line, let reason):
            line.map { "URL map \(file), line \($0): \(reason)" } ?? "URL map \(file): \(reason)"
        }
    }

    public var description: String {
        isUserError ? message : "VAST error \(code.rawValue): \(message)"
    }

    static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}

/// A limit of `XMLTreeReader` that a document passed.
public enum XMLLimit: Hashable, Sendable {
    /// Elements nested deeper than this many levels (the root is level 1).
    case depth(Int)
    /// More than this many elements in the document.
    case elements(Int)
}
