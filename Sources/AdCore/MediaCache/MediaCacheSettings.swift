import Foundation

/// Where remote media files are kept between runs, and the bounds every download stays within.
///
/// The cache is shared: several runs (even at the same time) may use one directory. Freshness follows the
/// server where it speaks (`Cache-Control: max-age`, `no-cache`, `no-store`), otherwise a download stays fresh
/// for `defaultFreshness`; a stale copy is revalidated with `If-None-Match` / `If-Modified-Since`, so a creative
/// that did not change is never fetched twice.
public struct MediaCacheSettings: Hashable, Sendable {
    /// The cache directory (created when needed).
    public var directory: String
    /// A media file larger than this fails with VAST 401, stopped as soon as its body passes it: 1 GiB.
    public var maximumBytes: Int64 = 1 << 30
    /// One media file must arrive within this, every attempt and the wait for another run's download of the same
    /// URL included; past it the ad fails with VAST 402: 30 s.
    public var timeout: Duration = .seconds(30)
    /// Attempts per download: a transfer that breaks off is resumed from where it stopped (`Range` + `If-Range`)
    /// or, when the server cannot resume it, started again, this many times in all: 3.
    public var maximumAttempts = 3
    /// How long a download whose response says nothing about freshness is used without asking the server: 24 h.
    public var defaultFreshness: Duration = .seconds(24 * 3600)

    public init(directory: String) {
        self.directory = directory
    }

    /// The default cache directory: `$XDG_CACHE_HOME/pipctl/media`, else `$HOME/.cache/pipctl/media`, else
    /// `pipctl-media` in the temporary directory (a process without a home).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return (xdg as NSString).appendingPathComponent("pipctl/media")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return (home as NSString).appendingPathComponent(".cache/pipctl/media")
        }
        return (NSTemporaryDirectory() as NSString).appendingPathComponent("pipctl-media")
    }
}
