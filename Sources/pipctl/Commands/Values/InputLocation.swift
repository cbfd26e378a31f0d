import Foundation

/// Where a document comes from: a local file or an `http`/`https` URL.
enum InputLocation: Hashable, Sendable, CustomStringConvertible {
    case file(path: String)
    case url(URL)

    var description: String {
        switch self {
        case .file(let path): path
        case .url(let url): url.absoluteString
        }
    }
}

extension ArgumentValue where Value == InputLocation {
    /// A file path, or a URL when the text starts with `http://` or `https://`; other schemes are refused
    /// (`file://` URLs become paths).
    static func location(_ placeholder: String) -> ArgumentValue {
        ArgumentValue(placeholder: placeholder, parse: { text throws(InvalidValue) in
            let lower = text.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
                    throw .not(text, "a valid http(s) URL")
                }
                return .url(url)
            }
            if lower.hasPrefix("file://"), let url = URL(string: text), url.isFileURL, !url.path.isEmpty {
                return .file(path: url.path)
            }
            if text.contains("://") { throw .not(text, "a file or an http(s) URL") }
            guard !text.isEmpty else { throw InvalidValue("the value is empty") }
            return .file(path: text)
        }, describe: \.description)
    }
}
