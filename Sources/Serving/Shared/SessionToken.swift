import Foundation
import MediaCore

/// A shared session's id: what rebuilds the session on any instance started with the same secret, signed with it.
///
/// `PAYLOAD.CODE`, both unpadded base64url (RFC 4648 §5): PAYLOAD is a compact JSON object (the content's path,
/// the mode, the player parameters, the viewer's agent and address, a random nonce and the time it was made), CODE
/// its HMAC-SHA256 under the secret. A token is refused before any work when it is longer than `maximumBytes` or
/// holds anything but those characters, and its code is checked in constant time before any of it is decoded.
package struct SessionToken: Sendable, Equatable, Codable {
    /// The longest token (a URL path segment; nginx's default header buffers take 8 KiB lines).
    package static let maximumBytes = 4096
    package static let domain = "pipctl-session-token-v1"

    /// The content's path under the origin.
    package var content: [String]
    package var mode: ServeMode
    package var parameters: [String: String]
    package var userAgent: String
    package var clientIP: String
    /// 128 random bits as 32 lower-case hex digits: the session's name in the shared directory and the ad
    /// request's `[session.id]`.
    package var nonce: String
    /// When the session was made, in seconds since 1970 (its record's age decides its expiry once it has one).
    package var created: Int64

    enum CodingKeys: String, CodingKey {
        case content = "c", mode = "m", parameters = "p", userAgent = "u", clientIP = "i", nonce = "n", created = "t"
    }

    package init(content: [String], mode: ServeMode, parameters: [String: String], userAgent: String, clientIP: String,
                 nonce: String, created: Int64) {
        self.content = content
        self.mode = mode
        self.parameters = parameters
        self.userAgent = userAgent
        self.clientIP = clientIP
        self.nonce = nonce
        self.created = created
    }

    /// The token as a URL path segment, signed with `secret`.
    package func signed(with secret: ServeSecret) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = Base64URL.encode(Array((try? encoder.encode(self)) ?? Data()))
        return payload + "." + Base64URL.encode(secret.sign(Self.domain, Array(payload.utf8)))
    }

    /// The token `text`, when `secret` signed it and what it holds is well-formed; nil for anything else (too long,
    /// another secret's, tampered with, truncated), before any of it is decoded.
    package init?(verifying text: String, with secret: ServeSecret) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumBytes, let dot = bytes.lastIndex(of: UInt8(ascii: ".")),
              bytes.allSatisfy({ Base64URL.isDigit($0) || $0 == UInt8(ascii: ".") }) else { return nil }
        let payload = Array(bytes[..<dot])
        guard let code = Base64URL.decode(bytes[(dot + 1)...]), code.count == 32,
              HMACSHA256.same(code, secret.sign(Self.domain, payload)) else { return nil }
        guard let json = Base64URL.decode(payload[...]),
              let token = try? JSONDecoder().decode(SessionToken.self, from: Data(json)), token.isWellFormed else { return nil }
        self = token
    }

    /// What a signed token holds is what the server put there; checked again all the same.
    private var isWellFormed: Bool {
        nonce.utf8.count == 32 && nonce.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
            && !content.isEmpty && content.count <= 32 && parameters.count <= SessionParameters.maximumCount
    }
}

/// Unpadded base64url (RFC 4648 §5).
package enum Base64URL {
    package static func isDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
    }

    package static func encode(_ bytes: [UInt8]) -> String {
        String(Data(bytes).base64EncodedString().compactMap { character -> Character? in
            switch character {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: character
            }
        })
    }

    /// The bytes of `text`, or nil when it is not unpadded base64url.
    package static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.allSatisfy(isDigit), text.count % 4 != 1 else { return nil }
        var standard = text.map { $0 == 0x2D ? UInt8(ascii: "+") : $0 == 0x5F ? UInt8(ascii: "/") : $0 }
        standard += [UInt8](repeating: UInt8(ascii: "="), count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: Data(standard)).map(Array.init)
    }
}
