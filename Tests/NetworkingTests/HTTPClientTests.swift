import Foundation
import LoopbackServer
import Networking
import Testing
#if canImport(Glibc)
import Glibc
import MediaCore
#endif

/// `HTTPClient` against a real server on loopback that answers, hangs, drips, breaks off and redirects.
/// Serialized, so `scripts/test` runs it alone: it measures the CPU of the client's thread. Its timeouts are libcurl's,
/// on the wall clock; the tests check what ended a wait by what it returned and by what the server saw, and make the
/// other ending (a body, a timeout) take minutes, so that a loaded machine only makes them slower.
@Suite(.serialized) struct HTTPClientTests {
    let client = HTTPClient()

    func request(_ server: LoopbackHTTPServer, _ path: String, timeout: Duration = .seconds(5),
                 maximumBytes: Int64? = nil, headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(url: server.baseURL.appendingPathComponent(path), headers: headers, timeout: timeout,
                    maximumBytes: maximumBytes)
    }

    @Test func returnsTheBodyHeadersAndStatus() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/vast.xml", .xml("<VAST/>"))
        let answer = try await client.data(request(server, "vast.xml")).get()
        #expect(answer.response.status == 200)
        #expect(answer.response.header("Content-Type") == "application/xml")
        #expect(String(decoding: answer.body, as: UTF8.self) == "<VAST/>")
        #expect(server.requests.map(\.target) == ["/vast.xml"])
        #expect(server.requests.first?.headers["user-agent"] == "pipctl")
    }

    @Test func anErrorStatusIsAFailureWithoutTheBody() async throws {
        let server = try LoopbackHTTPServer()
        #expect(await client.data(request(server, "missing")).failure == .status(404))
    }

    @Test func followsRedirectsOnlyToHTTP() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/old", .redirect(to: "/new"))
        server.route("/new", .xml("<VMAP/>"))
        let answer = try await client.data(request(server, "old")).get()
        #expect(String(decoding: answer.body, as: UTF8.self) == "<VMAP/>")
        #expect(answer.response.url.path == "/new")

        server.route("/sneaky", .redirect(to: "file:///etc/passwd"))
        let failure = await client.data(request(server, "sneaky")).failure
        guard case .unsupportedURL = failure else {
            Issue.record("a redirect to file:// must be refused, got \(String(describing: failure))")
            return
        }
    }

    @Test func refusesSchemesOtherThanHTTP() async throws {
        let failure = await client.data(HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd"), timeout: .seconds(1))).failure
        #expect(failure == .unsupportedURL("file:///etc/passwd"))
        #expect(failure?.neverReachedServer == true)
    }

    @Test func aHangingServerTimesOutOnTimeWithoutSpendingCPU() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/hang", .hang)
        // The CPU of the client's own threads (its transfer loop, where a busy wait would spin), not the whole
        // process's: tests running beside this one (one `swift test` of everything) spend CPU of their own.
        let threadsBefore = ProcessThreads.ids()
        let client = HTTPClient()
        let loop = ProcessThreads.ids().subtracting(threadsBefore)
        #expect(!loop.isEmpty, "the client started its transfer thread")
        let cpuBefore = loop.map(ProcessThreads.cpuSeconds).reduce(0, +)
        let start = ContinuousClock.now
        let failure = await client.data(request(server, "hang", timeout: .seconds(2))).failure
        let elapsed = ContinuousClock.now - start
        let cpu = loop.map(ProcessThreads.cpuSeconds).reduce(0, +) - cpuBefore
        #expect(failure == .timedOut(.seconds(2)))
        #expect(failure?.neverReachedServer == false)
        // The server never answers: `.timedOut` is the timeout's doing, and a loaded machine can only make it later.
        #expect(elapsed >= .milliseconds(1950), "not before the 2 s timeout: \(elapsed)")
        #expect(cpu < 0.2, "a 2 s wait cost \(cpu) s of CPU")
    }

    @Test func aClosedPortIsAFailureToConnect() async throws {
        let port = try Self.closedPort()
        let failure = await client.data(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/b")!, timeout: .seconds(2))).failure
        #expect(failure == .couldNotConnect("connection refused"))
        #expect(failure?.neverReachedServer == true)
    }

    @Test func aConnectionThatNeverOpensIsAConnectTimeoutThatNeverReachedTheServer() async throws {
        // A socket that listens with a full accept queue and never accepts: the kernel drops further SYNs.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(listen(listener, 0) == 0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) }
        }
        let port = UInt16(bigEndian: addr.sin_port)
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(fd)
        }
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/b")!, timeout: .seconds(2),
                                  connectTimeout: .milliseconds(300))
        let failure = await client.data(request).failure
        #expect(failure == .connectTimedOut(.milliseconds(300)))
        #expect(failure?.neverReachedServer == true)
        #expect(failure?.description == "could not connect within 0.3 s")
    }

    @Test(.timeLimit(.minutes(2))) func aBodyPastTheLimitStopsAsItStreams() async throws {
        let server = try LoopbackHTTPServer()
        // 4 MiB in 4 KiB drips, 500 ms apart: the whole body would take over 8 minutes (past the test's time limit and
        // the request's timeout), the limit is past after 3 drips (1 s).
        server.route("/big", .init(body: Data(repeating: 65, count: 4 << 20), delivery: .drip(chunk: 4096, interval: .milliseconds(500))))
        let failure = await client.data(request(server, "big", timeout: .seconds(3600), maximumBytes: 10_000)).failure
        #expect(failure == .tooLarge(limit: 10_000))
        // A declared length past the limit is refused before the body.
        server.route("/declared", .init(body: Data(repeating: 65, count: 20_000)))
        #expect(await client.data(request(server, "declared", maximumBytes: 10_000)).failure == .tooLarge(limit: 10_000))
        #expect(try await client.data(request(server, "declared", maximumBytes: 20_000)).get().body.count == 20_000)
    }

    @Test func aConnectionClosedMidBodyFails() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/cut", .init(body: Data(repeating: 1, count: 10_000), delivery: .closeAfter(bytes: 3000)))
        #expect(await client.data(request(server, "cut")).failure == .transport("the connection closed before the whole body arrived"))
    }

    /// The request's timeout is an hour and the server never answers: only the cancel can end it.
    @Test(.timeLimit(.minutes(2))) func cancellingTheTaskStopsTheTransferAtOnce() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/hang", .hang)
        let client = self.client
        let request = request(server, "hang", timeout: .seconds(3600))
        let task = Task { await client.data(request).failure }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        #expect(await task.value == .cancelled)
    }

    /// Side by side: every request has reached the server by the time the first one times out (in turn, the first
    /// would time out with only itself sent).
    @Test func hangingRequestsWaitTogetherNotInTurn() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/hang", .hang)
        let ended = await withTaskGroup(of: (HTTPFailure?, Int).self) { group in
            for _ in 0..<10 {
                group.addTask { [client] in
                    let failure = await client.data(request(server, "hang", timeout: .seconds(5))).failure
                    return (failure, server.requests.count)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ended.map(\.0) == Array(repeating: .timedOut(.seconds(5)), count: 10))
        #expect(ended.map(\.1) == Array(repeating: 10, count: 10), "the server had all ten when each timed out")
    }

    @Test func downloadsResumeWithARangeAndRevalidateWithAnETag() async throws {
        let server = try LoopbackHTTPServer()
        let body = Data((0..<50_000).map { UInt8($0 % 251) })
        server.route("/ad.mp4", .init(contentType: "video/mp4", body: body, etag: "\"v1\"", acceptsRanges: true))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)").path
        defer { unlink(path) }
        // As if a first download broke off after 20 000 bytes.
        try body.prefix(20_000).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_WRONLY | O_APPEND)
        defer { close(fd) }
        let progress = ProgressLog()
        let response = try await client.download(request(server, "ad.mp4", headers: ["Range": "bytes=20000-"]), to: fd,
                                                 progress: { progress.append($0) }).get()
        #expect(response.status == 206)
        #expect(response.header("etag") == "\"v1\"")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == body)
        #expect(progress.values.last == 30_000)
        #expect(progress.values == progress.values.sorted())

        var conditional = request(server, "ad.mp4", headers: ["If-None-Match": "\"v1\""])
        conditional.acceptsStatus = { $0 == 200 || $0 == 304 }
        let revalidated = try await client.data(conditional).get()
        #expect(revalidated.response.status == 304)
        #expect(revalidated.body.isEmpty)
    }

    /// A port on 127.0.0.1 that nothing listens on.
    static func closedPort() throws -> UInt16 {
        let server = try LoopbackHTTPServer()
        let port = server.port
        server.stop()
        return port
    }
}

/// Byte counts reported by a download, in order.
final class ProgressLog: Sendable {
    private let log = LockedState<[Int64]>([])
    func append(_ value: Int64) { log.withLock { $0.append(value) } }
    var values: [Int64] { log.withLock { $0 } }
}

extension Result {
    var failure: Failure? { if case .failure(let f) = self { f } else { nil } }
}
