/// One request as the responder sees it: everything read and bounded before it is handed over.
public struct HTTPServerRequest: Sendable {
    /// `GET`, `POST`, … as sent (libmicrohttpd refuses a malformed request line itself).
    public var method: String
    /// The path as sent, still percent-encoded (for the access log; decode with `pathComponents`).
    public var rawPath: String
    /// The query's names and values, percent-decoded (`+` is a space), in order; a name without `=` has an empty value.
    /// Nil when any of them is not valid percent-encoded UTF-8 or holds a NUL.
    public var query: [(name: String, value: String)]?
    /// Header values by lower-cased name; a repeated header's values joined by ", ".
    public var headers: [String: String]
    /// The client's numeric address (IPv4 or IPv6).
    public var clientAddress: String
    /// The body, at most `HTTPServerLimits.bodyBytes`.
    public var body: [UInt8]

    public init(method: String, rawPath: String, query: [(name: String, value: String)]?, headers: [String: String],
                clientAddress: String, body: [UInt8]) {
        self.method = method
        self.rawPath = rawPath
        self.query = query
        self.headers = headers
        self.clientAddress = clientAddress
        self.body = body
    }

    /// The path's segments, each percent-decoded on its own (so `%2F` stays inside its segment), empty segments
    /// dropped. Nil when a segment is not valid percent-encoded UTF-8 or holds a NUL.
    public var pathComponents: [String]? {
        var components: [String] = []
        for piece in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = PercentDecoding.decode(piece, plusIsSpace: false) else { return nil }
            components.append(decoded)
        }
        return components
    }

    /// The first value of the query parameter `name`.
    public func queryValue(_ name: String) -> String? {
        query?.first { $0.name == name }?.value
    }
}

/// `%XX` decoding of a URL's parts into UTF-8 text; refuses a broken escape, invalid UTF-8 and NUL.
public enum PercentDecoding {
    public static func decode(_ text: some StringProtocol, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
