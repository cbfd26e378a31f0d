import Foundation

/// Where an ad tag, a VAST document or a media file lives: an HTTP(S) URL or a local file.
///
/// References inside a document are resolved against the document's own location, as a browser resolves links:
/// `next.xml` in `http://ads.example/a/top.xml` is `http://ads.example/a/next.xml`; in `/srv/ads/top.xml` it is
/// `/srv/ads/next.xml`. `file://` URLs and absolute paths are local files wherever they appear.
public enum ResourceLocation: Hashable, Sendable, CustomStringConvertible {
    case remote(URL)
    /// An absolute, standardised path.
    case file(String)

    /// Reads what a user typed (an ad tag, `--url-map` entries aside): a `http(s)://` or `file://` URL, or a path
    /// (relative to `directory`, the current directory by default). `nil` for other URL schemes.
    public init?(userInput text: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) {
        let base = ResourceLocation.file(ResourceLocation.standardised((directory as NSString).appendingPathComponent("-")))
        guard let resolved = base.resolving(text) else { return nil }
        self = resolved
    }

    /// Resolves `reference` (surrounding white space removed) against this location as the including document's.
    ///
    /// Spaces inside a reference are kept: they are part of a file name (`VAST 4.0 Samples/…`), and are written
    /// `%20` when the reference is resolved against an HTTP URL. (URLs read from a document have already lost
    /// their line breaks and spaces.)
    ///
    /// - Returns: `nil` for an empty reference or an unsupported scheme (`ftp:`, `data:`, `javascript:`…).
    public func resolving(_ reference: String) -> ResourceLocation? {
        let ref = reference.trimmingSpaces
        guard !ref.isEmpty else { return nil }
        if let scheme = ResourceLocation.scheme(of: ref) {
            switch scheme {
            case "http", "https":
                return ResourceLocation.url(ref, relativeTo: nil).map { .remote($0) }
            case "file":
                guard let url = URL(string: ref), url.isFileURL else { return nil }
                return .file(ResourceLocation.standardised(url.path))
            default:
                return nil
            }
        }
        switch self {
        case .remote(let base):
            return ResourceLocation.url(ref, relativeTo: base).map { .remote($0) }
        case .file(let path):
            if ref.hasPrefix("/") { return .file(ResourceLocation.standardised(ref)) }
            let directory = (path as NSString).deletingLastPathComponent
            return .file(ResourceLocation.standardised((directory as NSString).appendingPathComponent(ref)))
        }
    }

    /// `text` as an absolute URL, with spaces written `%20` when it cannot be read as it is.
    static func url(_ text: String, relativeTo base: URL?) -> URL? {
        let url = URL(string: text, relativeTo: base) ?? URL(string: text.replacingOccurrences(of: " ", with: "%20"), relativeTo: base)
        return url?.absoluteURL
    }

    /// The URL scheme of `text` in lower case (`http`), or `nil` for a path. A one-letter "scheme" is taken for a
    /// Windows drive, not a scheme.
    static func scheme(of text: String) -> String? {
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
