@testable import AdPlayback
@testable import AdScreen
import Foundation
import LoopbackServer
import Testing

/// The media cache against a real HTTP server on 127.0.0.1: whole files under their content hash, reuse across
/// runs, revalidation, the VAST codes of failures, resuming a transfer that broke off, the size bound, redirects
/// and two users of one directory at once. Serialized: several tests measure deadlines on a small machine.
@Suite(.serialized) struct MediaCacheTests {
    /// 200 000 bytes that are not all alike, so that a misplaced range would show.
    static let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

    static func settings(_ dir: TemporaryDirectory) -> MediaCacheSettings {
        var s = MediaCacheSettings(directory: dir.path + "/media")
        s.timeout = .seconds(10)
        return s
    }

    static func media(_ body: Data = body, etag: String? = "\"v1\"", headers: [String: String] = [:],
                      delivery: LoopbackHTTPServer.Response.Delivery = .normal) -> LoopbackHTTPServer.Response {
        LoopbackHTTPServer.Response(status: 200, contentType: "video/mp4", body: body, delivery: delivery,
                                    headers: headers, etag: etag, acceptsRanges: true)
    }

    /// Every name below the cache directory, sorted.
    static func entries(_ dir: TemporaryDirectory) -> [String] {
        (FileManager.default.subpaths(atPath: dir.path + "/media") ?? []).sorted()
    }

    @Test func downloadsAWholeFileUnderItsContentHashAndAnotherRunReusesItWithoutARequest() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media())
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let path = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(path == dir.path + "/media/\(SHA256.hex(Self.body)).mp4")
        #expect(FileManager.default.contents(atPath: path) == Self.body)
        #expect(!Self.entries(dir).contains { $0.hasSuffix(".part") })
        // A second cache on the same directory stands for the next run.
        let again = MediaCache(settings: Self.settings(dir))
        #expect(again.freshCopy(of: url) == path)
        #expect(try await again.file(for: url).get() == path)
        #expect(server.requests(for: "/ad.mp4").count == 1)
    }

    @Test(arguments: [("https://cdn.example/a/ad.MP4", "mp4"), ("https://cdn.example/ad.webm?x=1", "webm"),
                      ("https://cdn.example/ad", "media"), ("https://cdn.example/ad.mp4%20evil", "media"),
                      ("https://cdn.example/ad.averyverylongextension", "media"), ("https://cdn.example/ad.m%C3%A9", "media")])
    func namesACachedFileWithAPlainExtensionOnly(url: String, ext: String) throws {
        #expect(MediaCache.fileExtension(of: try #require(URL(string: url))) == ext)
    }

    @Test func revalidatesAStaleCopyWithItsETagAndKeepsItOn304() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media(headers: ["Cache-Control": "max-age=0"]))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let first = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(MediaCache(settings: Self.settings(dir)).freshCopy(of: url) == nil)
        let second = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(second == first)
        let requests = server.requests(for: "/ad.mp4")
        #expect(requests.map { $0.headers["if-none-match"] } == [nil, "\"v1\""])
        #expect(FileManager.default.contents(atPath: second) == Self.body)
    }

    /// RFC 9111 §4.3.4: a 304 without Cache-Control keeps the stored directives, so a `no-cache` copy is still
    /// revalidated on every use, not made fresh for the default day.
    @Test func a304WithoutCacheControlKeepsANoCacheCopyRevalidatedEveryTime() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media(headers: ["Cache-Control": "no-cache"]))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let first = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        server.route("/ad.mp4", Self.media())
        #expect(try await MediaCache(settings: Self.settings(dir)).file(for: url).get() == first)
        #expect(MediaCache(settings: Self.settings(dir)).freshCopy(of: url) == nil)
        #expect(try await MediaCache(settings: Self.settings(dir)).file(for: url).get() == first)
        #expect(server.requests(for: "/ad.mp4").map { $0.headers["if-none-match"] } == [nil, "\"v1\"", "\"v1\""])
        // A 304 that does carry Cache-Control replaces them.
        server.route("/ad.mp4", Self.media(headers: ["Cache-Control": "max-age=600"]))
        _ = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(MediaCache(settings: Self.settings(dir)).freshCopy(of: url) == first)
    }

    @Test func aCopyWithoutCacheControlStaysFreshForTheDefaultTimeThenIsRevalidated() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media())
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let stored: Int64 = 1_000_000
        _ = try await MediaCache(settings: Self.settings(dir), now: { stored }).file(for: url).get()
        _ = try await MediaCache(settings: Self.settings(dir), now: { stored + 86_399 }).file(for: url).get()
        #expect(server.requests(for: "/ad.mp4").count == 1)
        _ = try await MediaCache(settings: Self.settings(dir), now: { stored + 86_400 }).file(for: url).get()
        #expect(server.requests(for: "/ad.mp4").map { $0.headers["if-none-match"] } == [nil, "\"v1\""])
    }

    @Test func aNoStoreResponseIsNeverReusedByALaterRun() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media(headers: ["Cache-Control": "no-store"]))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        _ = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        _ = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(server.requests(for: "/ad.mp4").map { $0.headers["if-none-match"] } == [nil, nil])
    }

    @Test func aServerThatHangsFailsWith402AtTheDeadline() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", .hang)
        let dir = try TemporaryDirectory()
        var settings = Self.settings(dir)
        settings.timeout = .milliseconds(500)
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let result = await MediaCache(settings: settings).file(for: url)
        #expect(result == .failure(.timedOut(url: url.absoluteString, limit: .milliseconds(500))))
        #expect(result.failure?.code == .mediaTimeout)
        #expect(result.failure?.adError.message == "media \(url.absoluteString): download timed out after 0.5 s")
    }

    @Test(arguments: [404, 500])
    func anHTTPErrorFailsWith401AtOnce(status: Int) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", LoopbackHTTPServer.Response(status: status, contentType: "text/plain", body: Data("no".utf8)))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let result = await MediaCache(settings: Self.settings(dir)).file(for: url)
        #expect(result == .failure(.unreachable(url: url.absoluteString, reason: "HTTP status \(status)")))
        #expect(result.failure?.code == .fileNotFound)
        // A refusal is an answer, not a broken transfer: it is not asked again.
        #expect(server.requests(for: "/ad.mp4").count == 1)
        #expect(!Self.entries(dir).contains { $0.hasSuffix(".part") || $0.hasSuffix(".mp4") })
    }

    @Test func aTransferCutOffMidBodyIsResumedWithRangeAndIfRangeIntoAWholeFile() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // Every answer stops after 80 000 bytes: the whole body takes three requests.
        server.route("/ad.mp4", Self.media(delivery: .closeAfter(bytes: 80_000)))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let path = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(FileManager.default.contents(atPath: path) == Self.body)
        let requests = server.requests(for: "/ad.mp4")
        #expect(requests.map { $0.headers["range"] } == [nil, "bytes=80000-", "bytes=160000-"])
        #expect(requests.map { $0.headers["if-range"] } == [nil, "\"v1\"", "\"v1\""])
        #expect(!Self.entries(dir).contains { $0.hasPrefix("partial/") && $0.contains(".part") })
    }

    @Test func aTransferThatKeepsBreakingOffFailsWith401AndTheNextRunResumesWhatArrived() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media(delivery: .closeAfter(bytes: 10_000)))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let result = await MediaCache(settings: Self.settings(dir)).file(for: url)
        #expect(result.failure?.code == .fileNotFound)
        #expect(server.requests(for: "/ad.mp4").count == 3)
        // What arrived is kept, to be resumed by the next run.
        let part = try #require(Self.entries(dir).first { $0.hasSuffix(".part") })
        #expect(FileManager.default.contents(atPath: dir.path + "/media/" + part) == Self.body.prefix(30_000))
        // The server recovers: the next run asks only for the rest.
        server.route("/ad.mp4", Self.media())
        let path = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(FileManager.default.contents(atPath: path) == Self.body)
        #expect(server.requests(for: "/ad.mp4").last?.headers["range"] == "bytes=30000-")
    }

    @Test func aPartialDownloadOfAFileThatChangedSinceIsNotContinuedButFetchedWhole() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ad.mp4", Self.media(delivery: .closeAfter(bytes: 10_000)))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        #expect(await MediaCache(settings: Self.settings(dir)).file(for: url).failure?.code == .fileNotFound)
        // A new creative under the same URL: the old part must not be completed with the new file's bytes.
        let changed = Data(Self.body.reversed())
        server.route("/ad.mp4", Self.media(changed, etag: "\"v2\""))
        let path = try await MediaCache(settings: Self.settings(dir)).file(for: url).get()
        #expect(FileManager.default.contents(atPath: path) == changed)
        let last = server.requests(for: "/ad.mp4").suffix(2)
        #expect(last.map { $0.headers["if-range"] } == ["\"v1\"", nil])
        #expect(last.map { $0.headers["range"] } == ["bytes=30000-", nil])
    }

    @Test(.timeLimit(.minutes(2))) func aBodyDrippingPastTheSizeBoundIsStoppedThereAndLeavesNothing() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // 48 MB in 16 KiB drops every 100 ms would take 5 minutes to arrive (past the test's time limit; the timeout is
        // an hour); the limit is past after 7 drops (0.7 s): only stopping there ends the test.
        server.route("/ad.mp4", Self.media(Data(count: 48_000_000), delivery: .drip(chunk: 16_384, interval: .milliseconds(100))))
        let dir = try TemporaryDirectory()
        var settings = Self.settings(dir)
        settings.maximumBytes = 100_000
        settings.timeout = .seconds(3600)
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let result = await MediaCache(settings: settings).file(for: url)
        #expect(result == .failure(.tooLarge(url: url.absoluteString, limit: 100_000)))
        #expect(!Self.entries(dir).contains { $0.hasSuffix(".part") || $0.hasSuffix(".mp4") })
    }

    @Test func followsARedirectToTheMedia() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/old.mp4", .redirect(to: server.baseURL.absoluteString + "/new.mp4"))
        server.route("/new.mp4", Self.media())
        let dir = try TemporaryDirectory()
        let path = try await MediaCache(settings: Self.settings(dir)).file(for: server.baseURL.appendingPathComponent("old.mp4")).get()
        #expect(FileManager.default.contents(atPath: path) == Self.body)
    }

    @Test func twoRunsSharingADirectoryAtOnceDownloadOnceAndBothGetTheWholeFile() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // Slow enough that the second asks while the first is still downloading.
        server.route("/ad.mp4", Self.media(delivery: .drip(chunk: 20_000, interval: .milliseconds(30))))
        let dir = try TemporaryDirectory()
        let url = server.baseURL.appendingPathComponent("ad.mp4")
        let settings = Self.settings(dir)
        async let a = MediaCache(settings: settings).file(for: url)
        async let b = MediaCache(settings: settings).file(for: url)
        let (first, second) = try await (a.get(), b.get())
        #expect(first == second)
        #expect(FileManager.default.contents(atPath: first) == Self.body)
        #expect(server.requests(for: "/ad.mp4").count == 1)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let f) = self { f } else { nil } }
}
