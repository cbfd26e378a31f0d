import Foundation

/// What the cache knows about one URL: the file holding its body, the validators to revalidate it with, and
/// until when it may be used without asking. Stored as `entries/<sha256 of the URL>.json`.
struct MediaCacheEntry: Codable, Hashable, Sendable {
    var url: String
    /// The content-addressed file name in the cache directory: `<sha256 of the body>.<extension>`.
    var file: String
    var etag: String?
    var lastModified: String?
    /// Whole seconds since 1970 when it was stored or last revalidated.
    var storedAt: Int64
    /// Seconds after `storedAt` during which it is used without a request.
    var freshFor: Int64
    /// False for `Cache-Control: no-store`: used by the run that fetched it, never by a later one.
    var reusable: Bool

    /// Whether it may be used at `now` without a request.
    func isFresh(at now: Int64) -> Bool { reusable && now - storedAt < freshFor }

    /// Whether a stale copy can be revalidated with a conditional request.
    var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The freshness rule for a response's headers: `no-store` → not reusable; `no-cache` → revalidate every time;
    /// `max-age=N` → N seconds; otherwise `defaultFreshness`.
    static func freshness(of headers: [String: String], defaultFreshness: Duration) -> (freshFor: Int64, reusable: Bool) {
        let directives = (headers["cache-control"] ?? "").lowercased().split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") { return (0, false) }
        if directives.contains("no-cache") { return (0, true) }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }).flatMap({ Int64($0.dropFirst(8)) }) {
            return (max(0, maxAge), true)
        }
        return (defaultFreshness.components.seconds, true)
    }
}

/// What a partial download needs to be resumed: which URL it is, and the validator that `If-Range` sends so that
/// a server whose file changed answers with the whole new file instead of the rest of the old one. Stored beside
/// it as `partial/<key>.part.json`.
struct PartialDownload: Codable, Hashable, Sendable {
    var url: String
    var etag: String?
    var lastModified: String?

    /// A strong ETag, else the Last-Modified date; `nil` when the partial file cannot be resumed safely.
    var validator: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }
}

extension Data {
    /// Writes atomically: a temporary file in the same directory, renamed over the destination.
    func writeAtomically(to path: String) throws {
        try write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
