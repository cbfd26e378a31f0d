import Foundation
import Networking
import MediaCore
#if canImport(Glibc)
import Glibc
#endif

/// Makes remote media files local: downloads each one once into a shared cache directory and hands back the
/// path of a whole file, reusing it across runs while it is fresh.
///
/// Layout of the directory:
/// - `<sha256 of the body>.<ext>`: the media files, content-addressed, so that equal creatives share one file and
///   a name never stands for two contents;
/// - `entries/<sha256 of the URL>.json`: per URL, which file holds it, its validators and freshness
///   (`MediaCacheEntry`);
/// - `partial/<key>.part` (+ `.part.json`): a download in progress, or one that broke off and will be resumed;
/// - `locks/<key>.lock`: one `flock` per URL, held while that URL is checked or downloaded.
///
/// A download streams into its `.part` file (never into memory), bounded by `maximumBytes` while it streams and by
/// `timeout` in all; when it is whole it is hashed and renamed to its content name, and only then is the entry
/// written, so no reader ever sees a half-written file. A transfer that breaks off is resumed with
/// `Range: bytes=N-` and `If-Range`, or started again when the server cannot resume, up to `maximumAttempts`.
public final class MediaCache: Sendable {
    public let settings: MediaCacheSettings
    /// `nil` for `HTTPClient.shared`, reached only when something must be downloaded, so a render whose ads are
    /// all local never starts the network thread.
    private let client: HTTPClient?
    private let now: @Sendable () -> Int64
    /// Files whose content was hashed and found to match their name, by path, with the identity the file had then
    /// (device, inode, size, modification and change times): a file changed since in any way (written, replaced,
    /// its times set) no longer matches and is hashed again. A server looks its ads up once per session.
    private let verified = LockedState([String: FileVersion]())
    static let maximumVerified = 4096

    /// - Parameter now: the wall clock in whole seconds since 1970, for freshness (a fixed one in tests).
    public init(settings: MediaCacheSettings, client: HTTPClient? = nil,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.settings = settings
        self.client = client
        self.now = now
    }

    /// The path of a fresh cached copy of `url`, without any request; `nil` when there is none (or when its entry
    /// cannot be trusted: it is left for `file(for:)` to drop and report).
    public func freshCopy(of url: URL) -> String? {
        guard case .found(let entry) = lookUp(MediaCache.key(url), url: url, removingUntrusted: false),
              entry.isFresh(at: now()) else { return nil }
        return path(entry.file)
    }

    /// The local path of `url`'s body: a fresh cached copy, a stale one the server confirmed (304), or a new
    /// download.
    ///
    /// A cached copy is played only after its SHA-256 (read back, once per call) matches its name, and only when its
    /// entry names a file inside the directory; an entry that fails either is dropped, reported to `dropped`, and
    /// the media is fetched again.
    ///
    /// - Parameters:
    ///   - progress: bytes of the body held so far (a resumed download counts what it resumed from); called on the
    ///     HTTP client's thread.
    ///   - dropped: told of each entry found untrustworthy, before the media is fetched again.
    /// - Returns: the path, or why there is none (see `MediaCacheError` for the VAST code of each case; a directory
    ///   refused by `MediaCacheSettings.prepareDirectory` is `.storage`).
    public func file(for url: URL, progress: (@Sendable (Int64) -> Void)? = nil,
                     dropped: (@Sendable (MediaCacheDrop) -> Void)? = nil) async -> Result<String, MediaCacheError> {
        let deadline = ContinuousClock.now + settings.timeout
        let key = MediaCache.key(url)
        let fm = FileManager.default
        do throws(MediaCacheDirectoryError) { try settings.prepareDirectory() } catch {
            return .failure(.storage(url: url.absoluteString, path: settings.directory, reason: "\(error)"))
        }
        do {
            for sub in ["entries", "partial", "locks"] {
                try fm.createDirectory(atPath: path(sub), withIntermediateDirectories: true)
            }
        } catch {
            return .failure(.storage(url: url.absoluteString, path: settings.directory, reason: Self.reason(error)))
        }
        let lock: FileLock
        switch await FileLock.acquire(path("locks/\(key).lock"), until: deadline) {
        case .success(let l): lock = l
        case .failure(.cancelled): return .failure(.cancelled(url: url.absoluteString))
        case .failure(.deadline): return .failure(.timedOut(url: url.absoluteString, limit: settings.timeout))
        case .failure(.cannotOpen(let reason)):
            return .failure(.storage(url: url.absoluteString, path: path("locks"), reason: reason))
        }
        defer { lock.release() }
        // Checked under the lock: another run may have just finished this very download.
        var stale: MediaCacheEntry?
        switch lookUp(key, url: url, removingUntrusted: true) {
        case .found(let entry):
            if entry.isFresh(at: now()) { return .success(path(entry.file)) }
            if entry.reusable, entry.hasValidators { stale = entry }
        case .dropped(let drop):
            dropped?(drop)
        case .none:
            break
        }
        return await download(url, key: key, revalidating: stale, deadline: deadline, progress: progress)
    }

    /// The head of the response being received, kept for a transfer that breaks off after it.
    private final class Head: Sendable {
        let value = LockedState<(status: Int, headers: [String: String])?>(nil)
    }

    private func download(_ url: URL, key: String, revalidating stale: MediaCacheEntry?,
                          deadline: ContinuousClock.Instant,
                          progress: (@Sendable (Int64) -> Void)?) async -> Result<String, MediaCacheError> {
        let name = url.absoluteString
        let part = path("partial/\(key).part"), partMeta = part + ".json"
        var lastFailure = MediaCacheError.unreachable(url: name, reason: "no attempt was made")
        for attempt in 1...max(1, settings.maximumAttempts) {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .failure(.timedOut(url: name, limit: settings.timeout)) }
            var headers: [String: String] = [:]
            var offset: Int64 = 0
            let resumable = readPartial(partMeta).flatMap { $0.url == name ? $0.validator : nil }
            if let resumable, let size = Self.fileSize(part), size > 0 {
                offset = size
                headers["Range"] = "bytes=\(size)-"
                headers["If-Range"] = resumable
            } else if attempt == 1, let stale {
                if let etag = stale.etag { headers["If-None-Match"] = etag }
                if let date = stale.lastModified { headers["If-Modified-Since"] = date }
            }
            let fd = open(part, O_WRONLY | O_CREAT | O_CLOEXEC | (offset > 0 ? O_APPEND : O_TRUNC), 0o644)
            guard fd >= 0 else {
                return .failure(.storage(url: name, path: part, reason: String(cString: strerror(errno))))
            }
            if offset == 0 { unlink(partMeta) }
            let head = Head()
            let start = offset
            // A resumed request must be answered with the rest (206); a whole new body (200) would be appended to
            // the old part, so it is refused before a byte is written and the download starts again.
            let resuming = offset > 0
            let accepts: @Sendable (Int) -> Bool = { status in resuming ? status == 206 : status < 400 }
            let bound: Int64 = max(0, settings.maximumBytes - offset)
            let request = HTTPRequest(url: url, headers: headers, timeout: remaining, maximumBytes: bound,
                                      acceptsStatus: accepts)
            let report: (@Sendable (Int64) -> Void)? = progress.map { report in { @Sendable bytes in report(start + bytes) } }
            let result = await (client ?? .shared).download(request, to: fd, progress: report, head: { status, headers in
                head.value.withLock { $0 = (status, headers) }
            })
            close(fd)
            switch result {
            case .success(let response) where response.status == 304:
                guard let stale else { break }
                unlink(part)
                var refreshed = stale
                refreshed.storedAt = now()
                // RFC 9111 §4.3.4: the 304's header fields replace the stored ones; a 304 without Cache-Control
                // keeps the stored directives (a `no-cache` entry stays one to revalidate every time).
                if response.header("cache-control") != nil {
                    let fresh = MediaCacheEntry.freshness(of: response.headers, defaultFreshness: settings.defaultFreshness)
                    refreshed.freshFor = fresh.freshFor
                    refreshed.reusable = fresh.reusable
                }
                refreshed.etag = response.header("etag") ?? stale.etag
                refreshed.lastModified = response.header("last-modified") ?? stale.lastModified
                try? writeEntry(refreshed, key: key)
                return .success(path(stale.file))
            case .success(let response):
                if offset > 0, !Self.range(of: response, startsAt: offset) {
                    // The server sent another stretch than asked: start again from nothing.
                    unlink(part)
                    unlink(partMeta)
                    lastFailure = .unreachable(url: name, reason: "the server resumed at the wrong offset")
                    continue
                }
                return finish(url, key: key, part: part, response: response)
            case .failure(.status(let status)) where offset > 0:
                // 200 (the file changed, or ranges are not served) or 416: the part cannot be continued.
                unlink(part)
                unlink(partMeta)
                lastFailure = .unreachable(url: name, reason: "HTTP status \(status) to a resumed request")
                continue
            case .failure(.status(let status)):
                unlink(part)
                return .failure(.unreachable(url: name, reason: "HTTP status \(status)"))
            case .failure(.timedOut), .failure(.connectTimedOut):
                keepResumable(part: part, meta: partMeta, url: name, head: head)
                return .failure(.timedOut(url: name, limit: settings.timeout))
            case .failure(.cancelled):
                keepResumable(part: part, meta: partMeta, url: name, head: head)
                return .failure(.cancelled(url: name))
            case .failure(.tooLarge):
                unlink(part)
                unlink(partMeta)
                return .failure(.tooLarge(url: name, limit: settings.maximumBytes))
            case .failure(.storage(let reason)):
                unlink(part)
                unlink(partMeta)
                return .failure(.storage(url: name, path: part, reason: reason))
            case .failure(.unsupportedURL(let reason)):
                unlink(part)
                return .failure(.unreachable(url: name, reason: "not an http(s) URL: \(reason)"))
            case .failure(.couldNotConnect(let reason)), .failure(.transport(let reason)):
                // Broke off (or never connected): resume what arrived, if it can be resumed safely.
                keepResumable(part: part, meta: partMeta, url: name, head: head)
                lastFailure = .unreachable(url: name, reason: reason)
                continue
            }
            lastFailure = .unreachable(url: name, reason: "HTTP status 304 to an unconditional request")
        }
        return .failure(lastFailure)
    }

    /// After a transfer broke off: keeps the part and its validator when it can be resumed, else removes it.
    private func keepResumable(part: String, meta: String, url: String, head: Head) {
        if let (status, headers) = head.value.withLock({ $0 }), status == 200 {
            let partial = PartialDownload(url: url, etag: headers["etag"], lastModified: headers["last-modified"])
            if partial.validator != nil, let data = try? JSONEncoder().encode(partial), (try? data.writeAtomically(to: meta)) != nil {
                return
            }
        } else if head.value.withLock({ $0?.status }) == 206 {
            return  // a resumed part keeps the validator it was resumed with
        } else if head.value.withLock({ $0 }) == nil, readPartial(meta) != nil {
            return  // nothing new arrived; what was there can still be resumed
        }
        unlink(part)
        unlink(meta)
    }

    /// Names a whole download by its content, moves it into place, and records the entry.
    private func finish(_ url: URL, key: String, part: String, response: HTTPResponse) -> Result<String, MediaCacheError> {
        let name = url.absoluteString
        guard let digest = Self.sha256(ofFile: part) else {
            return .failure(.storage(url: name, path: part, reason: "cannot read the downloaded file back"))
        }
        let file = "\(digest).\(Self.fileExtension(of: url))"
        let final = path(file)
        // Renamed over whatever holds the name, which may have been changed; a file that cannot be replaced (another
        // user's, in a shared directory) is used only when it holds these very bytes.
        if rename(part, final) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(part)
            guard Self.sha256(ofFile: final) == digest else {
                return .failure(.storage(url: name, path: final, reason: reason))
            }
        }
        unlink(part + ".json")
        let fresh = MediaCacheEntry.freshness(of: response.headers, defaultFreshness: settings.defaultFreshness)
        let entry = MediaCacheEntry(url: name, file: file, etag: response.header("etag"),
                                    lastModified: response.header("last-modified"), storedAt: now(),
                                    freshFor: fresh.freshFor, reusable: fresh.reusable)
        do { try writeEntry(entry, key: key) } catch {
            return .failure(.storage(url: name, path: path("entries"), reason: Self.reason(error)))
        }
        return .success(final)
    }

    // MARK: - Files

    static func key(_ url: URL) -> String { SHA256.hex(url.absoluteString) }

    /// The URL's file extension for the cached file's name (`mp4`), when it is a plain short one: the URL comes
    /// from a stranger, so anything else (long, odd characters) becomes `media`.
    static func fileExtension(of url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        let plain = !ext.isEmpty && ext.count <= 8 && ext.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return plain ? ext : "media"
    }

    private func path(_ name: String) -> String { (settings.directory as NSString).appendingPathComponent(name) }

    /// What the cache holds for a URL.
    private enum Lookup {
        /// No entry, an entry of another URL (a key collision), or one whose file is gone.
        case none
        /// An entry whose file is inside the directory and holds the bytes its name says.
        case found(MediaCacheEntry)
        /// An entry that could not be trusted (removed when `removingUntrusted`).
        case dropped(MediaCacheDrop)
    }

    /// The entry of `url`, checked: its file must be a content name (`<sha256>.<ext>`, so no `/`, `..` or absolute
    /// path), resolve to a regular file directly inside the directory (no link that leads out), and hash to that
    /// name. The file is hashed once here, never opened when its name fails.
    private func lookUp(_ key: String, url: URL, removingUntrusted: Bool) -> Lookup {
        guard let entry = readEntry(key), entry.url == url.absoluteString else { return .none }
        let drop: MediaCacheDrop
        if let digest = Self.digest(named: entry.file), let resolved = realpath(path(entry.file)) {
            var info = stat()
            guard resolved == realpath(settings.directory).map({ $0 + "/" + entry.file }), stat(resolved, &info) == 0,
                  info.st_mode & S_IFMT == S_IFREG else {
                return dropping(.outsideCache(url: entry.url, file: entry.file), key: key, removing: removingUntrusted)
            }
            let version = FileVersion(info)
            if verified.withLock({ $0[resolved] }) == version { return .found(entry) }
            guard let found = Self.sha256(ofFile: resolved) else { return .none }
            if found == digest {
                verified.withLock { all in
                    if all.count >= Self.maximumVerified { all.removeAll() }
                    all[resolved] = version
                }
                return .found(entry)
            }
            drop = .contentChanged(url: entry.url, file: entry.file, found: found)
            if removingUntrusted { unlink(resolved) }
        } else if Self.digest(named: entry.file) != nil {
            return .none  // a content name whose file is gone: fetched again, nothing to report
        } else {
            drop = .outsideCache(url: entry.url, file: entry.file)
        }
        return dropping(drop, key: key, removing: removingUntrusted)
    }

    private func dropping(_ drop: MediaCacheDrop, key: String, removing: Bool) -> Lookup {
        if removing { unlink(path("entries/\(key).json")) }
        return .dropped(drop)
    }

    /// The SHA-256 a content name (`<64 lower-case hex digits>.<plain extension>`) gives; `nil` for any other name.
    static func digest(named file: String) -> String? {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 64, (1...8).contains(parts[1].count),
              parts[0].unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }),
              parts[1].unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else { return nil }
        return String(parts[0])
    }

    /// The canonical absolute path (links followed), or `nil` when it does not resolve.
    private func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func readEntry(_ key: String) -> MediaCacheEntry? {
        FileManager.default.contents(atPath: path("entries/\(key).json"))
            .flatMap { try? JSONDecoder().decode(MediaCacheEntry.self, from: $0) }
    }

    private func writeEntry(_ entry: MediaCacheEntry, key: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(entry).writeAtomically(to: path("entries/\(key).json"))
    }

    private func readPartial(_ meta: String) -> PartialDownload? {
        FileManager.default.contents(atPath: meta).flatMap { try? JSONDecoder().decode(PartialDownload.self, from: $0) }
    }

    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Whether a 206 answer holds the bytes from `offset` on (`Content-Range: bytes OFFSET-…`).
    static func range(of response: HTTPResponse, startsAt offset: Int64) -> Bool {
        guard response.status == 206 else { return false }
        guard let range = response.header("content-range") else { return false }
        return range.lowercased().hasPrefix("bytes \(offset)-")
    }

    /// The SHA-256 of a file, read 1 MiB at a time.
    static func sha256(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            // `nil` or an empty chunk: the end of the file.
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        } catch {
            return nil
        }
        return hasher.finalHex()
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
