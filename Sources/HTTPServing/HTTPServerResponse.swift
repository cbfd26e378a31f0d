import Foundation
import MediaCore

/// What a responder answers.
public struct HTTPServerResponse: Sendable {
    public enum Body: Sendable {
        /// Bytes in memory, copied once into libmicrohttpd's response.
        case bytes([UInt8])
        /// A whole file, sent from its descriptor (sendfile where it can); a file that cannot be opened is a 500.
        case file(path: String)
    }

    public var status: Int
    /// Headers in order; `Content-Length` is libmicrohttpd's.
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// Extra fields for this request's access-log line (a session id, say), written as JSON strings.
    public var logFields: [(name: String, value: String)]
    /// What was asked, in the responder's words (a route's name, never a path): the label `/metrics` counts it by.
    public var route: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([]),
                logFields: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.logFields = logFields
    }

    /// A JSON body with its content type.
    public static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(Array(text.utf8)))
    }

    /// `{"error": {"status": N, "message": "…"}}`: how every refusal is answered.
    public static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        .json(status, "{\"error\":{\"status\":\(status),\"message\":\(JSONString.quoted(message))}}\n", headers: headers)
    }
}
