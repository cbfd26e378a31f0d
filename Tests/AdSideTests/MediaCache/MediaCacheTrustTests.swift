@testable import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the media cache trusts: a cached file is played only while it hashes to its name, an entry only names a
/// file directly inside the cache, and the directory must be private (unless shared on purpose). Real directories
/// and a real HTTP server on 127.0.0.1 for the fetch that follows a dropped entry.
@Suite(.serialized) struct MediaCacheTrustTests {
    static let body = MediaCacheTests.body
    static let digest = SHA256.hex(body)

    /// A cache with one fresh download of `/ad.mp4`; returns the URL and the cached file's path.
    static func cached(_ server: LoopbackHTTPServer, _ dir: TemporaryDirectory) async throws -> (URL, String) {
        server.route("/ad.mp4", MediaCacheTests.media())
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let path = try await MediaCache(settings: MediaCacheTests.settings(dir)).file(for: url).get()
        return (url, path)
    }

    /// The cached entry file of `url`, decoded as JSON text fields.
    static func entryPath(_ dir: TemporaryDirectory, _ url: URL) -> String {
        dir.path + "/media/entries/\(MediaCache.key(url)).json"
    }

    /// Rewrites the entry of `url` so that it names `file`.
    static func pointEntry(_ dir: TemporaryDirectory, _ url: URL, at file: String) throws {
        let path = entryPath(dir, url)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        object["file"] = file
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    /// Collects what the cache reports as dropped.
    final class Drops: Sendable {
        let list = LockedState<[MediaCacheDrop]>([])
        var all: [MediaCacheDrop] { list.withLock { $0 } }
        func add(_ drop: MediaCacheDrop) { list.withLock { $0.append(drop) } }
    }

    @Test func aCachedFileReplacedByOtherBytesIsDroppedReportedAndFetchedAgain() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let (url, path) = try await Self.cached(server, dir)
        // Same length, other bytes, as someone who can write there would leave it.
        let forged = Data(Self.body.reversed())
        try forged.write(to: URL(fileURLWithPath: path))
        let drops = Drops()
        let again = try await MediaCache(settings: MediaCacheTests.settings(dir)).file(for: url, dropped: drops.add).get()
        #expect(again == path)
        #expect(FileManager.default.contents(atPath: again) == Self.body)
        #expect(drops.all == [.contentChanged(url: url.absoluteString, file: "\(Self.digest).mp4", found: SHA256.hex(forged))])
        #expect(server.requests(for: "/ad.mp4").count == 2)
        // Trusted again: the next use makes no request and reports nothing.
        let quiet = Drops()
        #expect(try await MediaCache(settings: MediaCacheTests.settings(dir)).file(for: url, dropped: quiet.add).get() == path)
        #expect(quiet.all.isEmpty && server.requests(for: "/ad.mp4").count == 2)
    }

    /// A cache remembers which files it hashed (a server looks its ads up once per session), by each file's version:
    /// the same cache still catches a file rewritten after it trusted it, even with its size and modification time
    /// put back as they were.
    @Test func aFileRewrittenAfterTheCacheTrustedItIsDroppedByThatSameCache() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let (url, path) = try await Self.cached(server, dir)
        let cache = MediaCache(settings: MediaCacheTests.settings(dir))
        #expect(cache.freshCopy(of: url) == path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        let forged = Data(Self.body.reversed())
        try forged.write(to: URL(fileURLWithPath: path))
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let drops = Drops()
        #expect(try await cache.file(for: url, dropped: drops.add).get() == path)
        #expect(drops.all == [.contentChanged(url: url.absoluteString, file: "\(Self.digest).mp4", found: SHA256.hex(forged))])
        #expect(FileManager.default.contents(atPath: path) == Self.body)
    }

    @Test func anUntouchedCachedFileIsPlayedWithoutARequestOrAReport() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let (url, path) = try await Self.cached(server, dir)
        let drops = Drops()
        #expect(try await MediaCache(settings: MediaCacheTests.settings(dir)).file(for: url, dropped: drops.add).get() == path)
        #expect(drops.all.isEmpty)
        #expect(server.requests(for: "/ad.mp4").count == 1)
    }

    /// Names that reach outside the cache, or are not content names; `OUTSIDE` stands for a real file beside the
    /// cache holding the very bytes of the ad (so that only the name check can refuse it).
    @Test(arguments: ["../OUTSIDE", "OUTSIDE-ABSOLUTE", "entries/../../OUTSIDE", "..", "", "sub/HASH.mp4", "HASH.mp4/..", "HASH"])
    func anEntryNamingAFileOutsideTheCacheIsDroppedAndTheOutsideFileIsNeverUsed(name: String) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let (url, path) = try await Self.cached(server, dir)
        let outside = try dir.write("x.mp4", Self.body)
        let file = name.replacingOccurrences(of: "OUTSIDE-ABSOLUTE", with: outside)
            .replacingOccurrences(of: "OUTSIDE", with: "x.mp4").replacingOccurrences(of: "HASH", with: Self.digest)
        try Self.pointEntry(dir, url, at: file)
        let cache = MediaCache(settings: MediaCacheTests.settings(dir))
        #expect(cache.freshCopy(of: url) == nil)
        let drops = Drops()
        let again = try await cache.file(for: url, dropped: drops.add).get()
        #expect(again == path)
        #expect(drops.all == [.outsideCache(url: url.absoluteString, file: file)])
        #expect(server.requests(for: "/ad.mp4").count == 2)
        #expect(FileManager.default.contents(atPath: outside) == Self.body)
    }

    @Test func aContentNamedLinkThatLeadsOutOfTheCacheIsDroppedAndLeftAlone() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let (url, path) = try await Self.cached(server, dir)
        // The link's target holds the right bytes: only resolving the name shows where it leads.
        let outside = try dir.write("x.mp4", Self.body)
        let link = dir.path + "/media/\(SHA256.hex(Data("other".utf8))).mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        try Self.pointEntry(dir, url, at: (link as NSString).lastPathComponent)
        let drops = Drops()
        let again = try await MediaCache(settings: MediaCacheTests.settings(dir)).file(for: url, dropped: drops.add).get()
        #expect(again == path)
        #expect(drops.all == [.outsideCache(url: url.absoluteString, file: (link as NSString).lastPathComponent)])
        #expect(FileManager.default.contents(atPath: outside) == Self.body)
    }

    @Test func theDirectoryIsMadePrivateWhenTheCacheMakesIt() async throws {
        let dir = try TemporaryDirectory()
        let settings = MediaCacheSettings(directory: dir.path + "/a/b/media")
        try settings.prepareDirectory()
        var info = stat()
        #expect(stat(settings.directory, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o700)
    }

    @Test(arguments: [0o775 as UInt16, 0o757, 0o1777, 0o720])
    func aDirectoryOthersCanWriteToIsRefusedUnlessShared(mode: UInt16) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", MediaCacheTests.media())
        let dir = try TemporaryDirectory()
        var settings = MediaCacheTests.settings(dir)
        try FileManager.default.createDirectory(atPath: settings.directory, withIntermediateDirectories: false)
        #expect(chmod(settings.directory, mode_t(mode)) == 0)
        #expect(throws: MediaCacheDirectoryError.writableByOthers(path: settings.directory, mode: mode)) {
            try settings.checkDirectory()
        }
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let refused = await MediaCache(settings: settings).file(for: url)
        #expect(refused.failure == .storage(url: url.absoluteString, path: settings.directory,
                                            reason: "\(MediaCacheDirectoryError.writableByOthers(path: settings.directory, mode: mode))"))
        #expect(server.requests(for: "/ad.mp4").isEmpty)
        settings.isShared = true
        try settings.checkDirectory()
        #expect(FileManager.default.contents(atPath: try await MediaCache(settings: settings).file(for: url).get()) == Self.body)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func aDirectoryOfAnotherUserIsRefusedUnlessShared() throws {
        let dir = try TemporaryDirectory()
        var settings = MediaCacheSettings(directory: dir.path + "/media")
        try FileManager.default.createDirectory(atPath: settings.directory, withIntermediateDirectories: false)
        #expect(chmod(settings.directory, 0o700) == 0 && chown(settings.directory, 65534, 65534) == 0)
        #expect(throws: MediaCacheDirectoryError.ownedByAnotherUser(path: settings.directory, owner: 65534)) {
            try settings.checkDirectory()
        }
        settings.isShared = true
        try settings.checkDirectory()
    }

    @Test func aPathThatIsNotADirectoryIsRefused() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("cache", "not a directory")
        #expect(throws: MediaCacheDirectoryError.notADirectory(path: file)) {
            try MediaCacheSettings(directory: file).checkDirectory()
        }
        #expect(throws: MediaCacheDirectoryError.notADirectory(path: file + "/media")) {
            try MediaCacheSettings(directory: file + "/media").checkDirectory()
        }
        // A cache that does not exist yet is fine: it is made when the first file is downloaded.
        try MediaCacheSettings(directory: dir.path + "/missing/media").checkDirectory()
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/missing"))
    }

    /// The cost of the check, as CPU time of the thread that does it (other suites run beside this one): one read
    /// and SHA-256 of a 4 MB creative. An optimised build hashes 30 MB in about 0.16 s of CPU, a debug build (the
    /// tests') in about 10 s, so 4 MB stays well inside 4 s in either.
    @Test func hashingACachedCreativeOnUseStaysWithinItsCPUBudget() throws {
        let dir = try TemporaryDirectory()
        var bytes = Data()
        for _ in 0..<20 { bytes.append(Self.body) }
        let path = try dir.write("big.mp4", bytes)
        let before = Self.threadCPUSeconds()
        let digest = try #require(MediaCache.sha256(ofFile: path))
        let spent = Self.threadCPUSeconds() - before
        #expect(digest == SHA256.hex(bytes))
        #expect(spent < 4, "\(spent) s of CPU")
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
