@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// Fetching a plan's media ahead: in order, a bounded number at a time, the needed one first, and a cancel that
/// ends a blocked wait at once.
@Suite(.serialized) struct MediaDownloadsTests {
    /// `file(for:)` on a thread of its own, as the render's thread calls it.
    static func waitOnAThread(_ downloads: MediaDownloads, _ url: URL) async -> MediaDownloads.Outcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: downloads.file(for: url)) }
        }
    }

    @Test func downloadsInOrderAtMostNAtOnceAndStartsTheOneAWaiterNeedsAtOnce() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let urls = (0..<5).map { server.baseURL.appendingPathComponent("a\($0).mp4") }
        for i in 0..<5 { server.route("/a\(i).mp4", .hang) }
        let dir = try TemporaryDirectory()
        let downloads = MediaDownloads(urls: urls + [urls[0]], cache: MediaCache(settings: MediaCacheTests.settings(dir)),
                                       concurrency: 2)
        #expect(downloads.urls == urls)
        downloads.start()
        try await Self.waitUntil { server.requests.count == 2 }
        #expect(Set(server.requests.map(\.target)) == ["/a0.mp4", "/a1.mp4"])
        // The render needs a4 now: it jumps the queue (a2 and a3 still wait for a free slot).
        let waiting = Task { await Self.waitOnAThread(downloads, urls[4]) }
        try await Self.waitUntil { server.requests.count == 3 }
        #expect(server.requests.last?.target == "/a4.mp4")
        downloads.cancel()
        let outcome = await waiting.value
        #expect(outcome.result.failure == .cancelled(url: urls[4].absoluteString))
        #expect(outcome.waited != nil)
        #expect(server.requests.count == 3)
    }

    @Test func aWaitIsReportedWhileItLastsAndOnceMoreWhenItEnds() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("slow.mp4")
        // 40 KiB in 4 KiB drips 50 ms apart: about half a second.
        server.route("/slow.mp4", .init(contentType: "video/mp4", body: Data(repeating: 7, count: 40_960),
                                        delivery: .drip(chunk: 4096, interval: .milliseconds(50))))
        let dir = try TemporaryDirectory()
        let downloads = MediaDownloads(urls: [url], cache: MediaCache(settings: MediaCacheTests.settings(dir)), concurrency: 1)
        let reports = LockedState<[MediaDownloads.Wait]>([])
        downloads.setWaitObserver { wait in reports.withLock { $0.append(wait) } }
        downloads.start()
        let outcome = await Self.waitOnAThread(downloads, url)
        #expect((try? outcome.result.get()) != nil)
        let seen = reports.withLock { $0 }
        #expect(seen.count >= 3)
        #expect(seen.dropLast().allSatisfy { !$0.ended && $0.url == url })
        #expect(seen.last?.ended == true)
        #expect(seen.last?.receivedBytes == 40_960)
    }

    @Test func aFinishedDownloadIsHandedOverWithoutWaitingAndItsFailureIsTheAdsError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ok.mp4", MediaCacheTests.media())
        let dir = try TemporaryDirectory()
        let ok = server.baseURL.appendingPathComponent("ok.mp4"), gone = server.baseURL.appendingPathComponent("gone.mp4")
        let downloads = MediaDownloads(urls: [ok, gone], cache: MediaCache(settings: MediaCacheTests.settings(dir)))
        downloads.start()
        try await Self.waitUntil { downloads.finishedResult(for: ok) != nil && downloads.finishedResult(for: gone) != nil }
        let outcome = await Self.waitOnAThread(downloads, ok)
        #expect(outcome.waited == nil)
        #expect(FileManager.default.contents(atPath: try outcome.result.get()) == MediaCacheTests.body)
        let failed = await Self.waitOnAThread(downloads, gone)
        #expect(failed.result.failure?.adError == AdError(.fileNotFound, "media \(gone.absoluteString): HTTP status 404"))
    }

    /// Polls a fact the test cannot be told about (a request reaching the server), every 10 ms, for up to 60 s
    /// (only so that a broken run ends; a loaded machine gets there long before).
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "timed out waiting")
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
