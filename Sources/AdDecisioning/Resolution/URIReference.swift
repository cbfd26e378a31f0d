/// A URI reference split into its five parts as RFC 3986 reads it, and resolved against a base URI by its §5.2.
///
/// Foundation's `URL(string:relativeTo:)` is not used for this: it keeps dot segments in an absolute reference and
/// differs between platforms, and the resolution of a document's references decides which file or server is read.
struct URIReference: Hashable, Sendable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(scheme: String? = nil, authority: String? = nil, path: String, query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` as the regular expression of RFC 3986 Appendix B does; every string is some reference.
    init(parsing text: String) {
        var rest = Substring(text)
        if let end = rest.firstIndex(where: { ":/?#".contains($0) }), rest[end] == ":", end != rest.startIndex {
            scheme = String(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        path = String(rest)
    }

    /// The reference recomposed (RFC 3986 §5.3).
    var text: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// This reference made absolute against `base` (RFC 3986 §5.2.2, the strict parser: a reference with the
    /// base's scheme keeps it, so `http:g` stays `http:g`).
    func resolved(against base: URIReference) -> URIReference {
        if scheme != nil {
            return URIReference(scheme: scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                                fragment: fragment)
        }
        if authority != nil {
            return URIReference(scheme: base.scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                                fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
                                fragment: fragment)
        }
        let merged = path.hasPrefix("/") ? path : Self.merging(path, into: base)
        return URIReference(scheme: base.scheme, authority: base.authority, path: Self.removingDotSegments(merged),
                            query: query, fragment: fragment)
    }

    /// A relative path appended to the base's directory (RFC 3986 §5.2.3).
    static func merging(_ path: String, into base: URIReference) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// `path` without its `.` and `..` segments (RFC 3986 §5.2.4). Linear in the path's length: the input is only
    /// ever shortened from the front and the output from the back.
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output = ""
        func dropLastSegment() {
            if let slash = output.lastIndex(of: "/") { output.removeSubrange(slash...) } else { output = "" }
        }
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                dropLastSegment()
            } else if input == "/.." {
                input = "/"
                dropLastSegment()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// `text` with each valid `%HH` escape decoded (as UTF-8); a `%` that starts no escape stays as it is.
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count, let high = hex(utf8[i + 1]), let low = hex(utf8[i + 2]) {
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A local path as the path of a `file:` URI: `%`, `?` and `#` escaped, so that none is read as a delimiter.
    static func percentEncodedPath(_ path: String) -> String {
        var out = ""
        for character in path {
            switch character {
            case "%": out += "%25"
            case "?": out += "%3F"
            case "#": out += "%23"
            default: out.append(character)
            }
        }
        return out
    }
}
