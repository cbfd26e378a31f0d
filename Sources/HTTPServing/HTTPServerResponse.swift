import Foundation

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
        .json(status, "{\"error\":{\"status\":\(status),\"message\":\(JSONText.quoted(message))}}\n", headers: headers)
    }
}

/// JSON string literals, written by hand where a whole encoder is more than a line needs (the access log's lines).
public enum JSONText {
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
