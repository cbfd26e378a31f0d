import Foundation

/// A cache entry that was found untrustworthy and dropped before anything was played from it; the media is then
/// fetched again. Reported as a `LOG` line (`mediaCacheEntryDropped`) at the ad that needed it.
public enum MediaCacheDrop: Hashable, Sendable, CustomStringConvertible {
    /// The entry's file no longer hashes to the SHA-256 its name gives: it was replaced or changed in place (by
    /// another user of a shared cache, or a disk fault). The file is removed with the entry.
    case contentChanged(url: String, file: String, found: String)
    /// The entry names something other than a content-named file inside the cache directory (`../x.mp4`, an
    /// absolute path, a name with `/`, or a symbolic link that leads out); it is never opened.
    case outsideCache(url: String, file: String)

    public var description: String {
        switch self {
        case .contentChanged(let url, let file, let found):
            "media cache: \(file) (for \(url)) no longer matches its SHA-256 (its content hashes to \(found)); "
                + "dropped and fetched again"
        case .outsideCache(let url, let file):
            "media cache: the entry for \(url) names \(file.quotedPrefix), which is not a file inside the cache; "
                + "dropped and fetched again"
        }
    }
}

fileprivate extension String {
    /// The text in double quotes, cut to 200 characters (an entry file is written by whoever can write there).
    var quotedPrefix: String {
        let text = count > 200 ? String(prefix(200)) + "…" : self
        return "\"" + text + "\""
    }
}
