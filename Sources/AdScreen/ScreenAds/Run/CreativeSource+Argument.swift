
extension CreativeSource {
    /// The source a command-line value names: `vast:` then a URL or path, or a URL or path whose name ends in
    /// `.xml` or `.vast`, is a VAST document; anything else is an image.
    ///
    /// A VAST response and an image can come from the same kind of URL, and the request is sent once (an ad
    /// server counts it), so the kind is decided from the value before the request rather than by sniffing the
    /// answer.
    public init(argument: String) {
        if argument.lowercased().hasPrefix("vast:") {
            self = .vast(AdRequestTemplate(String(argument.dropFirst(5))))
            return
        }
        let path = argument.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let lower = path.lowercased()
        self = lower.hasSuffix(".xml") || lower.hasSuffix(".vast") ? .vast(AdRequestTemplate(argument)) : .image(AdRequestTemplate(argument))
    }

    /// Whether the request is a local file (a path or a `file:` URL) that the command should check is readable;
    /// `nil` for an http(s) URL or a path with request macros (which names a file only once expanded).
    public var localPath: String? {
        let text = template.text
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.contains("[") || lower.contains("%5b") { return nil }
        if lower.hasPrefix("file://") { return String(text.dropFirst(7)) }
        return text
    }
}
