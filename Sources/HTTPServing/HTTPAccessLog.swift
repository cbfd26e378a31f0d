import CMicroHTTPD
import Foundation
import MediaCore

/// One JSON line per request, written when it ends: when it began (UTC), method, path as sent (cut to 256
/// bytes), status, bytes of the body sent, milliseconds from its first byte read to its end, the client, how it
/// ended, and the responder's own fields.
public enum HTTPAccessLog {
    /// How a request ended (libmicrohttpd's `MHD_RequestTerminationCode`).
    public enum Outcome: String, Sendable {
        case completed, error, timeout, shutdown, readError = "read-error", clientClosed = "client-closed"

        init(_ code: MHD_RequestTerminationCode) {
            switch code {
            case .REQUEST_TERMINATED_COMPLETED_OK: self = .completed
            case .REQUEST_TERMINATED_TIMEOUT_REACHED: self = .timeout
            case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: self = .shutdown
            case .REQUEST_TERMINATED_READ_ERROR: self = .readError
            case .REQUEST_TERMINATED_CLIENT_ABORT: self = .clientClosed
            default: self = .error
            }
        }
    }

    nonisolated(unsafe) private static let timeFormat: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()
    private static let timeLock = NSLock()

    static func line(_ exchange: Exchange, outcome: Outcome) -> String {
        let elapsed = ContinuousClock.now - exchange.started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let sent = exchange.sent
        let time = timeLock.withLock { timeFormat.string(from: exchange.startedAt) }
        var path = exchange.rawPath
        if path.utf8.count > 256 { path = String(decoding: path.utf8.prefix(256), as: UTF8.self) + "…" }
        var line = "{\"time\":\"\(time)\",\"method\":\(JSONString.quoted(String(exchange.method.prefix(16)))),\"path\":\(JSONString.quoted(path))"
        line += ",\"status\":\(sent.status),\"bytes\":\(sent.bytes),\"ms\":\(String(format: "%.3f", milliseconds))"
        line += ",\"client\":\(JSONString.quoted(exchange.clientAddress)),\"outcome\":\"\(outcome.rawValue)\""
        for field in exchange.response?.logFields ?? [] { line += ",\(JSONString.quoted(field.name)):\(JSONString.quoted(field.value))" }
        return line + "}"
    }
}
