import Foundation
import MediaCore

/// One HTTP(S) GET: where, with which headers, and the bounds it must stay within.
public struct HTTPRequest: Sendable {
    public var url: URL
    /// Extra request headers (`Range`, `If-None-Match`, …).
    public var headers: [String: String]
    /// The whole exchange (connecting, redirects, headers and body) must end within this.
    public var timeout: Duration
    /// Opening the connection must end within this (and within `timeout`); `nil` for `timeout`.
    public var connectTimeout: Duration?
    /// The body may not be longer than this: the transfer stops as soon as more arrives (`.tooLarge`); `nil` for
    /// no bound.
    public var maximumBytes: Int64?
    /// How many redirects are followed (only to http and https URLs).
    public var maximumRedirects: Int
    /// Which final statuses deliver a body; any other ends the transfer with `.status`. Below 400 by default.
    public var acceptsStatus: @Sendable (Int) -> Bool

    public init(url: URL, headers: [String: String] = [:], timeout: Duration, connectTimeout: Duration? = nil,
                maximumBytes: Int64? = nil, maximumRedirects: Int = 5,
                acceptsStatus: @escaping @Sendable (Int) -> Bool = { $0 < 400 }) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.acceptsStatus = acceptsStatus
    }
}

/// What the server answered, after redirects.
public struct HTTPResponse: Hashable, Sendable {
    public var status: Int
    /// Header names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The URL that answered, after redirects.
    public var url: URL
    /// How many body bytes were received (after content decoding).
    public var bodyBytes: Int64

    public init(status: Int, headers: [String: String], url: URL, bodyBytes: Int64) {
        self.status = status
        self.headers = headers
        self.url = url
        self.bodyBytes = bodyBytes
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why an HTTP request did not deliver what was asked.
public enum HTTPFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// No connection could be opened (refused, host not found): the server saw nothing of the request, so
    /// sending it again cannot count twice.
    case couldNotConnect(String)
    /// The deadline passed before a connection was opened: the server saw nothing of the request either.
    case connectTimedOut(Duration)
    /// The deadline passed after the connection was opened (the server may have seen the request).
    case timedOut(Duration)
    /// The server answered with a status the request does not accept.
    case status(Int)
    /// The body grew past the request's bound (the transfer stopped there).
    case tooLarge(limit: Int64)
    /// The caller cancelled (its task was cancelled).
    case cancelled
    /// The body could not be stored (disk full, …).
    case storage(String)
    /// Not an http(s) URL, or a redirect to another scheme.
    case unsupportedURL(String)
    /// Anything else after the connection was opened: reset, TLS failure, too many redirects, a bad answer.
    case transport(String)

    public var description: String {
        switch self {
        case .couldNotConnect(let reason): reason
        case .connectTimedOut(let limit): "could not connect within \(limit.secondsText)"
        case .timedOut(let limit): "timed out after \(limit.secondsText)"
        case .status(let status): "HTTP status \(status)"
        case .tooLarge(let limit): "larger than the limit of \(limit) bytes"
        case .cancelled: "cancelled"
        case .storage(let reason): "cannot store the body: \(reason)"
        case .unsupportedURL(let url): "not an http(s) URL: \(url)"
        case .transport(let reason): reason
        }
    }

    /// True when the request certainly never reached the server, so that a retry cannot repeat it.
    public var neverReachedServer: Bool {
        switch self {
        case .couldNotConnect, .connectTimedOut, .unsupportedURL: true
        default: false
        }
    }
}
