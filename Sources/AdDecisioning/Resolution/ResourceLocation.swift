import Foundation

/// Where an ad tag, a VAST document or a media file lives: an HTTP(S) URL or a local file.
///
/// References inside a document are resolved against the document's own location by RFC 3986 §5, as a browser
/// resolves links: `next.xml?a=b` in `http://ads.example/a/top.xml` is `http://ads.example/a/next.xml?a=b`; in
/// `/srv/ads/top.xml` it is the file `/srv/ads/next.xml` (a file has no query or fragment; `%20` in a local
/// document's reference is a space). `file://` URLs and absolute paths are local files wherever they appear. A
/// protocol-relative reference (`//cdn.example/x.mp4`) takes the document's scheme, and in a local document it is
/// `https:` (what the same document served over https would get), never the local path `/cdn.example/x.mp4`.
public enum ResourceLocation: Hashable, Sendable, CustomStringConvertible {
    case remote(URL)
    /// An absolute, standardised path.
    case file(String)

    /// Reads what a user typed (an ad tag, `--url-map` entries aside): a `http(s)://` or `file://` URL, or a path
    /// (relative to `directory`, the current directory by default), taken as it is: a path typed by the user has
    /// no query, and `?`, `#` and `%` are part of its file name. `nil` for other URL schemes.
    public init?(userInput text: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) {
        let input = text.trimmingSpaces
        guard !input.isEmpty else { return nil }
        if ResourceLocation.scheme(of: input) == nil {
            let path = input.hasPrefix("/") ? input : (directory as NSString).appendingPathComponent(input)
            self = .file(ResourceLocation.standardised(path))
            return
        }
        guard let absolute = ResourceLocation.file("/").resolving(input) else { return nil }
        self = absolute
    }

    /// Resolves `reference` (surrounding white space removed) against this location as the including document's,
    /// by RFC 3986 §5 (dot segments removed; a query and a fragment stay a query and a fragment).
    ///
    /// Spaces inside a reference are kept: they are part of a file name (`VAST 4.0 Samples/…`), and are written
    /// `%20` when the reference is resolved against an HTTP URL. (URLs read from a document have already lost
    /// their line breaks and spaces.) A first segment with a one-letter "scheme" (`C:\ads\x.xml`) is a path.
    ///
    /// - Returns: `nil` for an empty reference or an unsupported scheme (`ftp:`, `data:`, `javascript:`…).
    public func resolving(_ reference: String) -> ResourceLocation? {
        var ref = reference.trimmingSpaces
        guard !ref.isEmpty else { return nil }
        // RFC 3986 §4.2: a relative path whose first segment has a colon is written `./` first.
        if ResourceLocation.scheme(of: ref) == nil,
           ref.prefix(while: { !"/?#".contains($0) }).contains(":") {
            ref = "./" + ref
        }
        let parsed = URIReference(parsing: ref)
        let base: URIReference
        switch self {
        case .remote(let url):
            base = URIReference(parsing: url.absoluteString)
        case .file(let path):
            // A protocol-relative reference in a local document goes to the network, as it would from a served one.
            base = parsed.scheme == nil && parsed.authority != nil
                ? URIReference(scheme: "https", authority: "", path: "/")
                : URIReference(scheme: "file", authority: "", path: URIReference.percentEncodedPath(path))
        }
        let resolved = parsed.resolved(against: base)
        switch resolved.scheme?.lowercased() {
        case "http", "https":
            return ResourceLocation.url(resolved.text, relativeTo: nil).map { .remote($0) }
        case "file":
            // `file://host/path` names the path on this machine, as `URL.path` reads it.
            let path = URIReference.percentDecoded(resolved.path)
            guard path.hasPrefix("/") else { return nil }
            return .file(ResourceLocation.standardised(path))
        default:
            return nil
        }
    }

    /// `text` as an absolute URL, with spaces written `%20` when it cannot be read as it is.
    static func url(_ text: String, relativeTo base: URL?) -> URL? {
        let url = URL(string: text, relativeTo: base) ?? URL(string: text.replacingOccurrences(of: " ", with: "%20"), relativeTo: base)
        return url?.absoluteURL
    }

    /// The URL scheme of `text` in lower case (`http`), or `nil` for a path. A one-letter "scheme" is taken for a
    /// Windows drive, not a scheme.
    package static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard scheme.count > 1, let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return scheme.lowercased()
    }

    static func standardised(_ path: String) -> String { (path as NSString).standardizingPath }

    /// The URL or path as a string.
    public var description: String {
        switch self {
        case .remote(let url): url.absoluteString
        case .file(let path): path
        }
    }

    /// True for an HTTP(S) location.
    public var isRemote: Bool { if case .remote = self { true } else { false } }
}
