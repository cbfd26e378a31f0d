import Foundation
import MediaCore

/// `--ads`: the ad server's URL with MediaTailor's dynamic variables, filled in per session, each value
/// percent-encoded (RFC 3986's unreserved characters kept):
/// `[session.id]`, `[session.user_agent]`, `[session.client_ip]`, `[player_params.NAME]` (empty when the session
/// has no such parameter). Any other `[…]` is refused when the server starts, and so is a template that is not an
/// http(s) URL once filled.
public struct AdRequestTemplate: Sendable, Equatable {
    public let text: String
    private let pieces: [Piece]

    enum Piece: Equatable {
        case literal(String)
        case sessionID, userAgent, clientIP
        case playerParameter(String)
    }

    /// What a session gives the template.
    public struct Values: Sendable {
        public var sessionID: String
        public var userAgent: String
        public var clientIP: String
        public var parameters: [String: String]

        public init(sessionID: String, userAgent: String, clientIP: String, parameters: [String: String]) {
            self.sessionID = sessionID
            self.userAgent = userAgent
            self.clientIP = clientIP
            self.parameters = parameters
        }
    }

    public init(_ text: String) throws(ServeSetupError) {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "]") else {
                throw ServeSetupError("--ads: \"[\" at \"\(String(rest[open...]).excerpt)\" is not closed")
            }
            let name = String(rest[rest.index(after: open)..<close])
            switch name {
            case "session.id": pieces.append(.sessionID)
            case "session.user_agent": pieces.append(.userAgent)
            case "session.client_ip": pieces.append(.clientIP)
            case _ where name.hasPrefix("player_params.") && SessionParameters.isName(String(name.dropFirst(14))):
                pieces.append(.playerParameter(String(name.dropFirst(14))))
            default:
                throw ServeSetupError("--ads: [\(name.excerpt)] is not one of [session.id], [session.user_agent], [session.client_ip], [player_params.NAME]")
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        self.text = text
        self.pieces = pieces
        let sample = url(for: Values(sessionID: "0", userAgent: "", clientIP: "", parameters: [:]))
        guard let scheme = URL(string: sample)?.scheme?.lowercased(), scheme == "http" || scheme == "https",
              URL(string: sample)?.host?.isEmpty == false else {
            throw ServeSetupError("--ads \"\(text.excerpt)\": not an http(s) URL")
        }
    }

    /// The ad request of one session.
    public func url(for values: Values) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): text
            case .sessionID: Self.encoded(values.sessionID)
            case .userAgent: Self.encoded(values.userAgent)
            case .clientIP: Self.encoded(values.clientIP)
            case .playerParameter(let name): Self.encoded(values.parameters[name] ?? "")
            }
        }.joined()
    }

    static func encoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// A session's player parameters: at most `maximumCount`, names of letters, digits, `_`, `-` and `.` up to 64
/// characters, values up to `maximumValueBytes`.
public enum SessionParameters {
    public static let maximumCount = 32
    public static let maximumValueBytes = 1024

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E }
    }

    /// Checks `pairs`; the error names the parameter, for a 400.
    public static func validated(_ pairs: [(name: String, value: String)], where place: String) -> Result<[String: String], SessionRequestError> {
        guard pairs.count <= maximumCount else { return .failure(.init("\(place): more than \(maximumCount) parameters")) }
        var result: [String: String] = [:]
        for (name, value) in pairs {
            guard isName(name) else { return .failure(.init("\(place): parameter name \"\(name.excerpt)\" is not letters, digits, _, - and . (at most 64)")) }
            guard value.utf8.count <= maximumValueBytes else { return .failure(.init("\(place).\(name): over \(maximumValueBytes) bytes")) }
            result[name] = value
        }
        return .success(result)
    }
}

/// Why a request for a session is refused (a 400), in one line naming the field.
public struct SessionRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
