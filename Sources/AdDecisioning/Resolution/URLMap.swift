import MediaCore
import Foundation

/// Rewrites remote URLs to local files, so that ad tags and media files can be served from disk in offline runs
/// and tests.
///
/// A map file has one rule per line: `URL-prefix<TAB>local-path-prefix`. Blank lines and lines starting with `#`
/// are ignored; a relative local path is relative to the map file's directory. For a URL, the rule with the
/// longest matching prefix wins, then:
/// - if the local side is an existing regular file, the URL maps to that file (so that many URLs can share one
///   file: all IAB sample media → one MP4);
/// - otherwise the rest of the URL after the prefix, without its query and fragment and percent-decoded, is
///   appended to the local side, with a `/` between when the local side is an existing directory
///   (`https://cdn.example/ads/` → `media/` maps `…/ads/a%201.mp4?cb=9` to `media/a 1.mp4`).
public struct URLMap: Hashable, Sendable {
    /// One rule.
    public struct Rule: Hashable, Sendable {
        public var urlPrefix: String
        /// Absolute path prefix.
        public var localPrefix: String

        public init(urlPrefix: String, localPrefix: String) {
            self.urlPrefix = urlPrefix
            self.localPrefix = localPrefix
        }
    }

    /// The rules, longest URL prefix first.
    public let rules: [Rule]

    public init(rules: [Rule]) {
        self.rules = rules.sorted { $0.urlPrefix.count > $1.urlPrefix.count }
    }

    /// Loads a map file.
    ///
    /// - Throws: `DecisioningError.invalidURLMap` naming the file (and the line for a malformed rule: no TAB, an
    ///   empty side, a URL prefix without `scheme://`).
    public static func load(contentsOfFile path: String) throws(DecisioningError) -> URLMap {
        let absolute = ResourceLocation.standardised(
            path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path))
        guard let data = FileManager.default.contents(atPath: absolute) else {
            throw .invalidURLMap(file: path, line: nil, reason: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidURLMap(file: path, line: nil, reason: "not UTF-8 text")
        }
        return try URLMap(parsing: text, file: path, directory: (absolute as NSString).deletingLastPathComponent)
    }

    /// Reads map rules from `text`; `file` names it in errors and `directory` anchors relative local paths.
    public init(parsing text: String, file: String, directory: String) throws(DecisioningError) {
        var rules: [Rule] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let tab = line.firstIndex(of: "\t") else {
                throw .invalidURLMap(file: file, line: index + 1, reason: "expected URL-prefix<TAB>local-path-prefix, found no TAB")
            }
            let prefix = line[..<tab].trimmingSpaces
            let local = line[tab...].trimmingSpaces
            guard !prefix.isEmpty, !local.isEmpty else {
                throw .invalidURLMap(file: file, line: index + 1, reason: "empty URL prefix or local path")
            }
            guard prefix.contains("://"), ResourceLocation.scheme(of: prefix) != nil else {
                throw .invalidURLMap(file: file, line: index + 1, reason: "URL prefix '\(prefix.excerpt)' has no scheme (http://…)")
            }
            var localPath = local.hasPrefix("/") ? local : (directory as NSString).appendingPathComponent(local)
            if local.hasSuffix("/"), !localPath.hasSuffix("/") { localPath += "/" }
            rules.append(Rule(urlPrefix: prefix, localPrefix: localPath))
        }
        self.init(rules: rules)
    }

    /// What a rule makes of a URL.
    public enum Target: Hashable, Sendable {
        /// No rule matches: the URL is fetched as it is.
        case unmapped
        /// The local file the URL maps to, inside its rule's local prefix.
        case file(String)
        /// A rule matches but the rest of the URL would leave the rule's folder (`../`, an encoded `/` or `..`):
        /// refused, never fetched over the network instead.
        case refused(Refusal)
    }

    /// Why a URL that a rule matches cannot be mapped.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        public var url: String
        public var reason: String
        public var description: String { "--url-map refuses \(url.excerpt): \(reason)" }
    }

    /// Where `url` goes under this map.
    ///
    /// The rest of the URL after the prefix is confined to the rule's folder: an encoded slash, backslash or NUL
    /// (`%2f`, `%5c`, `%00`, any case) is refused before decoding, a `..` segment after decoding (so `%2e%2e`
    /// too), and the
    /// standardised result must still lie under the rule's local prefix. A remote ad server chooses these URLs,
    /// so without this a mapped prefix would reach any file of the user's.
    public func target(for url: String) -> Target {
        guard let rule = rules.first(where: { url.hasPrefix($0.urlPrefix) }) else { return .unmapped }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: rule.localPrefix, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue { return .file(ResourceLocation.standardised(rule.localPrefix)) }
        var rest = Substring(url.dropFirst(rule.urlPrefix.count))
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        func refused(_ reason: String) -> Target { .refused(Refusal(url: url, reason: reason)) }
        let lowered = rest.lowercased()
        for encoded in ["%2f", "%5c", "%00"] where lowered.contains(encoded) {
            return refused("the path after '\(rule.urlPrefix.excerpt)' encodes '\(encoded.excerpt)' (a slash, backslash or NUL written in %-form)")
        }
        let decoded = String(rest).removingPercentEncoding ?? String(rest)
        if decoded.split(separator: "/", omittingEmptySubsequences: false).contains("..") || decoded.contains("\\") {
            return refused("the path after '\(rule.urlPrefix.excerpt)' leaves its mapped folder ('..' or '\\')")
        }
        // An existing directory is joined with "/", whether or not either side wrote one.
        let joined = exists ? (rule.localPrefix as NSString).appendingPathComponent(decoded) : rule.localPrefix + decoded
        let path = ResourceLocation.standardised(joined)
        let base = ResourceLocation.standardised(rule.localPrefix)
        let folder = exists || rule.localPrefix.hasSuffix("/") ? base : (base as NSString).deletingLastPathComponent
        guard path == base || path.hasPrefix(folder == "/" ? "/" : folder + "/") else {
            return refused("it maps to \(path.excerpt), outside \(folder.excerpt)")
        }
        return .file(path)
    }

    /// The local path for `url`, or `nil` when no rule matches or the mapping is refused.
    public func localPath(for url: String) -> String? {
        if case .file(let path) = target(for: url) { path } else { nil }
    }

    /// `location` rewritten to a local file when a rule matches a remote URL; otherwise unchanged.
    ///
    /// - Throws: `Refusal` when a rule matches but the URL would leave its folder.
    public func apply(to location: ResourceLocation) throws(Refusal) -> ResourceLocation {
        guard case .remote(let url) = location else { return location }
        switch target(for: url.absoluteString) {
        case .unmapped: return location
        case .file(let path): return .file(path)
        case .refused(let refusal): throw refusal
        }
    }
}
