import AdPlayback
import Foundation
import MediaCore

/// What a cache entry lists: its files, each with the size it was written with, checked on every read back.
protocol StitchCacheEntry: Codable, Sendable {
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
public final class StitchCache: Sendable {
    public struct CachedFile: Codable, Hashable, Sendable {
        public var name: String
        public var bytes: Int64
    }

    public let directory: String
    let media: MediaCache
    private let flights = LockedState([String: Task<Result<Data, StitchBuildError>, Never>]())
    private static let builds = DispatchQueue(label: "pipctl.serve.builds")

    /// - Throws: `StitchBuildError` when the directory cannot be made.
    public init(directory: String) throws(StitchBuildError) {
        self.directory = directory
        do {
            for sub in ["", "/cuts", "/ads", "/packaged", "/media"] {
                try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true)
            }
        } catch {
            throw StitchBuildError("\(directory): cannot make the cache directory: \((error as NSError).localizedDescription)")
        }
        var settings = MediaCacheSettings(directory: directory + "/media")
        settings.timeout = .seconds(30)
        media = MediaCache(settings: settings)
    }

    /// The directory of entry `key` of `kind` (`cuts`, `ads` or `packaged`).
    func path(_ kind: String, _ key: String) -> String { "\(directory)/\(kind)/\(key)" }

    /// Entry `key` of `kind`: read back when it is whole, else built by `build` (into the directory it is given, on
    /// the build thread) once, however many callers ask at the same time.
    func entry<Entry: StitchCacheEntry>(_ kind: String, key: String, as type: Entry.Type,
                                        build: @escaping @Sendable (String) throws(StitchBuildError) -> Entry) async -> Result<Entry, StitchBuildError> {
        if let found = readBack(kind, key, as: type) { return .success(found) }
        let flightKey = kind + "/" + key
        let task = flights.withLock { all -> Task<Result<Data, StitchBuildError>, Never> in
            if let running = all[flightKey] { return running }
            let task = Task<Result<Data, StitchBuildError>, Never> {
                await withCheckedContinuation { continuation in
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
            return .success(data)
        } catch {
            return .failure(error)
        }
    }

    /// The entry, when its `entry.json` decodes and each file it lists is a regular file inside the entry with the
    /// size it was written with; a broken entry is removed.
    private func readBack<Entry: StitchCacheEntry>(_ kind: String, _ key: String, as type: Entry.Type) -> Entry? {
        let entryDirectory = path(kind, key)
        guard let data = FileManager.default.contents(atPath: entryDirectory + "/entry.json") else { return nil }
        guard data.count <= 1 << 20, let entry = try? JSONDecoder().decode(type, from: data),
              entry.files.allSatisfy({ file in
                  Self.isPlainName(file.name) && Self.regularFileSize(entryDirectory + "/" + file.name) == file.bytes
              }) else {
            try? FileManager.default.removeItem(atPath: entryDirectory)
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
    func segmentFile(kind: String, key: String, name: String) -> String? {
        guard ["cuts", "ads", "packaged"].contains(kind), key.utf8.count == 64,
              key.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
              Self.isPlainName(name), name.hasSuffix(".ts") else { return nil }
        let file = path(kind, key) + "/" + name
        return Self.regularFileSize(file) != nil ? file : nil
    }
}

/// Why a piece or an ad could not be built (the viewer then gets the content there).
public struct StitchBuildError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
