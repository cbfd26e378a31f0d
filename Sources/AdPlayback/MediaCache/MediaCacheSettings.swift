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
    /// Whether a directory that other users can write to (or that belongs to another user) is used anyway
    /// (`--media-cache-shared`). Off, such a directory is refused: whoever can write there can change which ads
    /// play (a file changed in place is caught by its SHA-256, a forged entry is not) and fill the disk.
    public var isShared = false
    /// How many media files download at once, ahead of their breaks.
    public var concurrency = 3

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

extension MediaCacheSettings {
    /// Checks the cache directory as it is, without making anything: when it exists it must be a directory, and
    /// unless `isShared`, belong to this user and be writable by nobody else (group and other write bits clear;
    /// a sticky bit does not make it private). Only the directory itself is checked: a private directory in a
    /// world-writable one (`/tmp/ads` in `/tmp`) is fine, since others can neither rename nor enter it.
    ///
    /// - Throws: `MediaCacheDirectoryError` naming the directory.
    public func checkDirectory() throws(MediaCacheDirectoryError) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            switch errno {
            case ENOENT: return  // made (private) when the first file is downloaded
            case ENOTDIR: throw .notADirectory(path: directory)
            default: throw .cannotCreate(path: directory, reason: String(cString: strerror(errno)))
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: directory) }
        guard !isShared else { return }
        guard info.st_uid == geteuid() else { throw .ownedByAnotherUser(path: directory, owner: info.st_uid) }
        let mode = UInt16(truncatingIfNeeded: info.st_mode & 0o7777)
        guard mode & 0o022 == 0 else { throw .writableByOthers(path: directory, mode: mode) }
    }

    /// Makes the cache directory when it is missing, with mode 0700 (its missing parents as `mkdir -p` makes
    /// them), then checks it (`checkDirectory`).
    public func prepareDirectory() throws(MediaCacheDirectoryError) {
        var info = stat()
        if stat(directory, &info) != 0, errno == ENOENT {
            let parent = (directory as NSString).deletingLastPathComponent
            do {
                if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
            } catch {
                throw .cannotCreate(path: directory, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
            }
            // EEXIST: another run made it meanwhile; the check below judges it like any other.
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw .cannotCreate(path: directory, reason: String(cString: strerror(errno)))
            }
        }
        try checkDirectory()
    }
}
