import AdPlayback
import Foundation
import MediaCore

/// What a cache entry lists: its files, each with the size it was written with, checked on every read back.
package protocol StitchCacheEntry: Codable, Sendable {
    var files: [StitchCache.CachedFile] { get }
}

/// `--cache DIR`: what the server builds once and every viewer shares (docs/SERVE.md, "The cache").
///
/// - `media/`: the ads' media files, downloaded by AdPlayback's `MediaCache` (content-addressed, resumable, locked).
/// - `cuts/KEY/`: the two pieces of one cut of one rendition (`before.ts`, `after.ts`); KEY hashes the segment files'
///   identities (path, size, modification time), the cut and the encoder's settings.
/// - `ads/KEY/`: one ad conditioned for one rendition (`seg00000.ts`, …); KEY hashes the media's content name and the
///   rendition's size, rate, sound and bit-rate ceiling.
/// - `packaged/KEY/`: MP4 content packaged as MPEG-TS segments (`MP4Packager`); KEY hashes the file's path, size and
///   modification time.
///
/// Each entry is built into a temporary directory beside it and renamed into place with its `entry.json` last
/// written, so no reader sees half of one. An entry read back is trusted only when its `entry.json` decodes and
/// every file it lists is there with its size, inside the entry; anything else is removed and built again.
/// Concurrent requests for one entry wait for one build (single flight); builds run one at a time on a thread of
/// their own, never on the threads that answer requests.
///
/// **Bounded.** After each build, while the entries hold more than `limits.maximumBytes`, the least recently used
/// entry is removed (an entry is used when it is read back for a session or one of its segments is served), but
/// never one used within `limits.keepRecent`, which a viewer may still be playing (so the bound can be passed while
/// every entry is that recent). Entries from before the server started count as older than any used since, in
/// the order of their last use on disk (`entry.json`'s modification time). The ads' media have their own cache
/// (`media/`, AdPlayback's `MediaCache`).
public final class StitchCache: Sendable {
    public struct Limits: Sendable {
        /// What `cuts/`, `ads/` and `packaged/` may hold together (`--cache-size`, 10 GiB).
        public var maximumBytes: Int64
        /// An entry used this recently is never removed.
        public var keepRecent: Duration

        public init(maximumBytes: Int64 = 10 << 30, keepRecent: Duration = .seconds(3600)) {
            self.maximumBytes = maximumBytes
            self.keepRecent = keepRecent
        }
    }

    public struct CachedFile: Codable, Hashable, Sendable {
        public var name: String
        public var bytes: Int64

        package init(name: String, bytes: Int64) {
            self.name = name
            self.bytes = bytes
        }
    }

    public let directory: String
    public let limits: Limits
    let media: MediaCache
    /// Each entry used since the server started ("kind/key"): the order of its last use, and when.
    private let uses = LockedState((next: UInt64(0), last: [String: (order: UInt64, at: ContinuousClock.Instant)]()))
    private let counted = LockedState(Counts())
    private let flights = LockedState([String: Task<Result<Data, StitchBuildError>, Never>]())
    private static let builds = DispatchQueue(label: "pipctl.serve.builds")

    /// - Throws: `StitchBuildError` when the directory cannot be made.
    public init(directory: String, limits: Limits = Limits()) throws(StitchBuildError) {
        self.directory = directory
        self.limits = limits
        do {
            for sub in ["", "/cuts", "/ads", "/packaged", "/audio", "/loudness", "/timelines", "/media", "/locks"] {
                try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true)
            }
        } catch {
            throw StitchBuildError("\(directory): cannot make the cache directory: \((error as NSError).localizedDescription)")
        }
        var settings = MediaCacheSettings(directory: directory + "/media")
        settings.timeout = .seconds(30)
        media = MediaCache(settings: settings)
    }

    /// What one kind of entry has done since the server started (`/metrics`).
    public struct KindCounts: Sendable {
        public var hits = 0
        public var misses = 0
        public var builds = 0
        public var failures = 0
        package var buildTime = Histogram(buckets: ServeMetrics.buildBuckets)
    }

    public struct Counts: Sendable {
        /// By kind: `cuts`, `ads`, `packaged`, `loudness`.
        public var kinds: [String: KindCounts] = [:]
        /// Entries removed to keep within `limits.maximumBytes`.
        public var evictions = 0
    }

    public var counts: Counts { counted.withLock { $0 } }

    /// The directory of entry `key` of `kind` (`cuts`, `ads` or `packaged`).
    func path(_ kind: String, _ key: String) -> String { "\(directory)/\(kind)/\(key)" }

    /// Entry `key` of `kind`: read back when it is whole, else built by `build` (into the directory it is given, on
    /// the build thread) once, however many callers ask at the same time.
    package func entry<Entry: StitchCacheEntry>(_ kind: String, key: String, as type: Entry.Type,
                                        build: @escaping @Sendable (String) throws(StitchBuildError) -> Entry) async -> Result<Entry, StitchBuildError> {
        if let found = readBack(kind, key, as: type) {
            noteUse(kind, key)
            counted.withLock { $0.kinds[kind, default: KindCounts()].hits += 1 }
            return .success(found)
        }
        counted.withLock { $0.kinds[kind, default: KindCounts()].misses += 1 }
        let flightKey = kind + "/" + key
        let task = flights.withLock { all -> Task<Result<Data, StitchBuildError>, Never> in
            if let running = all[flightKey] { return running }
            let task = Task<Result<Data, StitchBuildError>, Never> {
                // Another process sharing the directory may be building the same entry: wait for its lock (on a
                // suspended task, not the build thread), then find its entry, or build it.
                let lock: FileLock
                switch await FileLock.acquire(self.lockPath(kind, key), until: .now + Self.lockWait) {
                case .success(let taken): lock = taken
                case .failure(let failure): return .failure(StitchBuildError("\(flightKey): the cache's lock was not taken (\(failure))"))
                }
                defer { lock.release() }
                return await withCheckedContinuation { continuation in
                    Self.builds.async {
                        continuation.resume(returning: self.buildNow(kind, key, build))
                    }
                }
            }
            all[flightKey] = task
            return task
        }
        let result = await task.value
        flights.withLock { all in
            if all[flightKey] == task { all[flightKey] = nil }
        }
        return result.flatMap { data in
            guard let entry = try? JSONDecoder().decode(type, from: data) else { return .failure(StitchBuildError("\(flightKey): the entry does not decode")) }
            return .success(entry)
        }
    }

    private func buildNow<Entry: StitchCacheEntry>(_ kind: String, _ key: String,
                                                   _ build: @Sendable (String) throws(StitchBuildError) -> Entry) -> Result<Data, StitchBuildError> {
        let fm = FileManager.default
        if let found = readBack(kind, key, as: Entry.self), let data = try? JSONEncoder().encode(found) { return .success(data) }
        let final = path(kind, key)
        let started = ContinuousClock.now
        var built = false
        defer {
            let time = ContinuousClock.now - started
            counted.withLock { c in
                if built { c.kinds[kind, default: KindCounts()].builds += 1 } else { c.kinds[kind, default: KindCounts()].failures += 1 }
                if built { c.kinds[kind, default: KindCounts()].buildTime.observe(time) }
            }
        }
        let temporary = "\(directory)/\(kind)/.building-\(key)-\(SessionStore.newID().prefix(8))"
        defer { try? fm.removeItem(atPath: temporary) }
        do {
            try fm.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        } catch {
            return .failure(StitchBuildError("\(temporary): cannot be made: \((error as NSError).localizedDescription)"))
        }
        do throws(StitchBuildError) {
            let entry = try build(temporary)
            guard let data = try? JSONEncoder().encode(entry),
                  (try? data.write(to: URL(fileURLWithPath: temporary + "/entry.json"))) != nil else {
                throw StitchBuildError("\(temporary)/entry.json: cannot be written")
            }
            try? fm.removeItem(atPath: final)
            guard rename(temporary, final) == 0 else {
                throw StitchBuildError("\(final): cannot be put in place (errno \(errno))")
            }
            built = true
            noteUse(kind, key)
            sweep()
            return .success(data)
        } catch {
            return .failure(error)
        }
    }

    /// The entry, when its `entry.json` decodes and each file it lists is a regular file inside the entry with the
    /// size it was written with. A broken entry is left for the builder, which replaces it under the entry's lock
    /// (removing it here could remove another process's entry as it is renamed into place).
    private func readBack<Entry: StitchCacheEntry>(_ kind: String, _ key: String, as type: Entry.Type) -> Entry? {
        let entryDirectory = path(kind, key)
        guard let data = FileManager.default.contents(atPath: entryDirectory + "/entry.json") else { return nil }
        guard data.count <= 1 << 20, let entry = try? JSONDecoder().decode(type, from: data),
              entry.files.allSatisfy({ file in
                  Self.isPlainName(file.name) && Self.regularFileSize(entryDirectory + "/" + file.name) == file.bytes
              }) else {
            return nil
        }
        return entry
    }

    /// A file name made by the server itself (letters, digits, `.`, `-`, `_`), never a path.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0) }
    }

    static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// A cached segment's path, for `/v1/cache/KIND/KEY/NAME`: only names an entry could hold, in a whole entry.
    package func segmentFile(kind: String, key: String, name: String) -> String? {
        guard ["cuts", "ads", "packaged"].contains(kind), key.utf8.count == 64,
              key.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
              Self.isPlainName(name), name.hasSuffix(".ts") else { return nil }
        let file = path(kind, key) + "/" + name
        guard Self.regularFileSize(file) != nil else { return nil }
        noteUse(kind, key)
        return file
    }

    /// Entries removed to keep within `limits.maximumBytes` since the server started.
    public var evictions: Int { counted.withLock { $0.evictions } }

    /// How long a build waits for another process's build of the same entry (or of one sharing its lock).
    static let lockWait: Duration = .seconds(600)

    /// The lock of entry `key` of `kind`: one of 256 per kind, by the key's first two hex digits, so that lock
    /// files never pile up (they are never removed: see `FileLock`), and two builds of one entry in two processes
    /// take turns.
    func lockPath(_ kind: String, _ key: String) -> String {
        "\(directory)/locks/\(kind)-\(key.prefix(2)).lock"
    }

    /// Marks entry `key` of `kind` as used now: in memory, and on disk (`entry.json`'s time) for the next server.
    private func noteUse(_ kind: String, _ key: String) {
        let now = ContinuousClock.now
        let stale = uses.withLock { state -> Bool in
            let previous = state.last[kind + "/" + key]
            state.last[kind + "/" + key] = (state.next, now)
            state.next += 1
            return previous.map { now - $0.at > .seconds(60) } ?? true
        }
        // The file's time says the order to a server started later; written at most once a minute per entry.
        if stale { _ = utimes(path(kind, key) + "/entry.json", nil) }
    }

    /// Removes the least recently used entries while the entries hold more than `limits.maximumBytes` (on the build
    /// thread, so no entry is being put in place meanwhile).
    private func sweep() {
        struct Found {
            var name: String
            var bytes: Int64
            var order: UInt64?
            var usedAt: ContinuousClock.Instant?
            var modified: Int
        }
        let fm = FileManager.default
        let known = uses.withLock { $0.last }
        var all: [Found] = []
        for kind in ["cuts", "ads", "packaged", "audio"] {
            for key in (try? fm.contentsOfDirectory(atPath: "\(directory)/\(kind)")) ?? [] where !key.hasPrefix(".") {
                let entry = path(kind, key)
                let files = (try? fm.contentsOfDirectory(atPath: entry)) ?? []
                let bytes = files.reduce(Int64(0)) { $0 + (Self.regularFileSize(entry + "/" + $1) ?? 0) }
                var info = stat()
                let modified = stat(entry + "/entry.json", &info) == 0 ? info.st_mtim.tv_sec : 0
                let use = known[kind + "/" + key]
                all.append(Found(name: kind + "/" + key, bytes: bytes, order: use?.order, usedAt: use?.at, modified: modified))
            }
        }
        var total = all.reduce(Int64(0)) { $0 + $1.bytes }
        guard total > limits.maximumBytes else { return }
        // One process sweeps at a time; another that finds the sweep taken leaves it to that one.
        guard let sweeping = FileLock.tryAcquire(directory + "/locks/sweep.lock") else { return }
        defer { sweeping.release() }
        let wallNow = time(nil)
        // Oldest first: entries unused since the start by their time on disk, then the rest by their last use.
        all.sort { a, b in
            switch (a.order, b.order) {
            case (nil, nil): a.modified < b.modified
            case (nil, _): true
            case (_, nil): false
            case (let x?, let y?): x < y
            }
        }
        let now = ContinuousClock.now
        for found in all where total > limits.maximumBytes {
            if let at = found.usedAt, now - at < limits.keepRecent { continue }
            // Used as recently by another process sharing the directory: its uses touch `entry.json` (the first
            // use, then at most once a minute).
            if .seconds(wallNow - found.modified) < limits.keepRecent { continue }
            // Renamed aside first, so that no reader ever finds half of it, then removed.
            let aside = "\(directory)/\(found.name.split(separator: "/")[0])/.evicted-\(SessionStore.newID().prefix(8))"
            guard rename("\(directory)/\(found.name)", aside) == 0 else { continue }
            try? fm.removeItem(atPath: aside)
            total -= found.bytes
            uses.withLock { _ = $0.last.removeValue(forKey: found.name) }
            counted.withLock { $0.evictions += 1 }
        }
    }
}

/// Why a piece or an ad could not be built (the viewer then gets the content there).
public struct StitchBuildError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    package init(_ description: String) { self.description = description }
}
