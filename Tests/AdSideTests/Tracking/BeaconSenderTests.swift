@testable import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing

@Suite struct BeaconSenderTests {
    static let pixel = LoopbackHTTPServer.Response(status: 200, contentType: "image/gif", body: Data("GIF89a".utf8))

    /// A configuration with short waits, so that retries and timeouts take milliseconds.
    static func quick(timeout: Duration = .seconds(5), maxRetries: Int = 2, concurrency: Int = 4,
                      queue: Int = 256) -> BeaconSender.Configuration {
        .init(timeout: timeout, maxRetries: maxRetries, retryDelay: .milliseconds(10),
              maxConcurrentRequests: concurrency, queueCapacity: queue)
    }

    func soon(_ seconds: Int64 = 20) -> ContinuousClock.Instant { .now + .seconds(seconds) }

    /// A pixel answer held until `gate` opens (or the server stops): the request stays in flight for as long as
    /// the test needs, however slow the machine.
    static func held(by gate: LoopbackHTTPServer.Gate, status: Int = 200) -> LoopbackHTTPServer.Response {
        var response = LoopbackHTTPServer.Response(status: status, contentType: "image/gif")
        response.gate = gate
        return response
    }

    @Test func deliversBeaconsWithGET() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let sender = BeaconSender(configuration: Self.quick())
        let events = ["impression", "start", "firstQuartile"]
        for event in events { sender.send("\(server.baseURL)/t?e=\(event)&cb=12345678") }
        let summary = await sender.finish(deadline: soon())
        #expect(summary == BeaconSender.Summary(sent: 3))
        #expect(Set(server.requests) == Set(events.map { .init(method: "GET", target: "/t?e=\($0)&cb=12345678") }))
    }

    @Test func sendsTheBeaconsASessionRecordsAndNothingElse() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let sender = BeaconSender(configuration: Self.quick())
        sender.session(didRecord: [
            SessionEvent(.click(AdReference(0, 0), clickThrough: "\(server.baseURL)/t?not-a-beacon"), time: 0, contentTime: 0),
            SessionEvent(.beacon(.impression, url: "\(server.baseURL)/t?e=impression", .ad(AdReference(0, 0)), code: nil),
                         time: 0, contentTime: 0),
        ])
        let summary = await sender.finish(deadline: soon())
        #expect(summary == BeaconSender.Summary(sent: 1))
        #expect(server.requests.map(\.target) == ["/t?e=impression"])
    }

    @Test func doesNotRetryAServerErrorBecauseTheServerGotTheBeacon() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", .init(status: 500, contentType: "text/plain", body: Data("down".utf8)))
        let sender = BeaconSender(configuration: Self.quick(maxRetries: 2))
        let url = "\(server.baseURL)/t?e=start"
        sender.send(url)
        let summary = await sender.finish(deadline: soon())
        #expect(summary.failures == [.init(url: url, reason: "HTTP 500", attempts: 1)])
        #expect(summary.sent == 0 && summary.retries.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func retriesAPortWithNothingListeningAndListsEachRetry() async throws {
        let closed = try LoopbackHTTPServer()
        let url = "\(closed.baseURL)/t?e=impression"
        closed.stop()
        let sender = BeaconSender(configuration: Self.quick(maxRetries: 2))
        sender.send(url)
        let summary = await sender.finish(deadline: soon())
        #expect(summary.retries == [.init(url: url, attempt: 2, reason: "connection refused"),
                                    .init(url: url, attempt: 3, reason: "connection refused")])
        #expect(summary.failures == [.init(url: url, reason: "connection refused", attempts: 3)])
    }

    @Test func doesNotRetryAClientError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let sender = BeaconSender(configuration: Self.quick(maxRetries: 2))
        let url = "\(server.baseURL)/missing"
        sender.send(url)
        let summary = await sender.finish(deadline: soon())
        #expect(summary.failures == [.init(url: url, reason: "HTTP 404", attempts: 1)])
        #expect(server.requests.count == 1)
    }

    @Test func aSlowEndpointSeesEachBeaconExactlyOnce() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // The answer never comes (held until the server stops): each beacon can only time out. A 1 s timeout leaves
        // a loaded machine time to get every request to the server before it fires.
        server.route("/slow", Self.held(by: LoopbackHTTPServer.Gate()))
        let sender = BeaconSender(configuration: Self.quick(timeout: .seconds(1), maxRetries: 2))
        let urls = (0..<3).map { "\(server.baseURL)/slow?n=\($0)" }
        let start = ContinuousClock.now
        urls.forEach { sender.send($0) }
        let summary = await sender.finish(deadline: soon())
        #expect(summary.failures.sorted { $0.url < $1.url }
                    == urls.map { .init(url: $0, reason: "timed out after 1 s", attempts: 1) })
        #expect(summary.retries.isEmpty)
        #expect(server.requests.map(\.target).sorted() == (0..<3).map { "/slow?n=\($0)" })
        #expect(ContinuousClock.now - start < SanitizerSlack.time(.seconds(10)),
                "one 1 s attempt each, not the 20 s deadline of finish")
    }

    @Test func realtimePacingSendsNoBeaconBeforeItsOutputTime() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let start = ContinuousClock.now
        let sender = BeaconSender(configuration: Self.quick(), pacing: .realtime(start: start))
        let times = [0.0, 0.4, 0.8]
        sender.session(didRecord: times.map {
            SessionEvent(.beacon(.progress, url: "\(server.baseURL)/t?at=\($0)", .session, code: nil), time: $0, contentTime: 0)
        })
        let summary = await sender.finish(grace: .seconds(10))
        #expect(summary == BeaconSender.Summary(sent: 3))
        // Each beacon is matched to its own arrival by its URL, not by the order of arrival: on a loaded machine
        // two beacons due 0.4 s apart can be released together and race to the server.
        let arrivals = server.arrivals
        #expect(Set(arrivals.map(\.request.target)) == Set(times.map { "/t?at=\($0)" }))
        #expect(arrivals.count == times.count, "each beacon once")
        for time in times {
            guard let arrival = arrivals.first(where: { $0.request.target == "/t?at=\(time)" }) else { continue }
            #expect(arrival.at - start >= .seconds(time), "\(arrival.request.target) arrived after \(arrival.at - start)")
        }
    }

    @Test func asapPacingDoesNotWaitForOutputTimes() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let start = ContinuousClock.now
        let sender = BeaconSender(configuration: Self.quick(), pacing: .asap)
        sender.session(didRecord: [SessionEvent(.beacon(.complete, url: "\(server.baseURL)/t", .session, code: nil),
                                                time: 30, contentTime: 0)])
        let summary = await sender.finish(grace: .seconds(10))
        #expect(summary == BeaconSender.Summary(sent: 1))
        #expect(ContinuousClock.now - start < SanitizerSlack.time(.seconds(15)),
                "a beacon of output time 30 s went out at once, not after 30 s")
    }

    @Test func sendReturnsAtOnceWhileTheServerIsSlow() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // Every answer is held until the sends are done: a send that waited for the server would wait for ever.
        // The watchdog only saves the run from hanging when that happens, and the test then fails.
        let gate = LoopbackHTTPServer.Gate()
        server.route("/slow", Self.held(by: gate, status: 204))
        let watchdogOpened = LockedState(false)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            watchdogOpened.withLock { $0 = true }
            gate.open()
        }
        let sender = BeaconSender(configuration: Self.quick(concurrency: 8))
        for i in 0..<100 { sender.send("\(server.baseURL)/slow?n=\(i)") }
        let heldThroughout = !watchdogOpened.withLock { $0 }
        #expect(heldThroughout,
                "the 100 sends returned only once the held answers were let through")
        watchdog.cancel()
        gate.open()
        let summary = await sender.finish(deadline: soon(60))
        #expect(summary == BeaconSender.Summary(sent: 100))
        #expect(server.requests.count == 100)
    }

    @Test func dropsAndCountsBeaconsThatFindTheQueueFull() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // The first beacon's answer is held until all ten are sent, so it is still in flight when the other nine come.
        let gate = LoopbackHTTPServer.Gate()
        server.route("/slow", Self.held(by: gate))
        let sender = BeaconSender(configuration: Self.quick(concurrency: 1, queue: 3))
        for i in 0..<10 { sender.send("\(server.baseURL)/slow?n=\(i)") }
        gate.open()
        let summary = await sender.finish(deadline: soon())
        #expect(summary == BeaconSender.Summary(sent: 4, dropped: 6))
        #expect(server.requests.map(\.target) == (0..<4).map { "/slow?n=\($0)" }, "one at a time, in order")
    }

    @Test func countsURLsItCannotSendAsFailed() async throws {
        let sender = BeaconSender(configuration: Self.quick())
        sender.send("ftp://t.example/x")
        sender.send("http://")
        sender.send("")
        let summary = await sender.finish(deadline: soon())
        sender.send("https://t.example/late")
        #expect(summary.failures == [
            .init(url: "ftp://t.example/x", reason: "not an http(s) URL", attempts: 0),
            .init(url: "http://", reason: "the URL has no host", attempts: 0),
            .init(url: "", reason: "not a valid URL", attempts: 0),
        ])
        let later = await sender.finish(deadline: soon())
        #expect(later.failures.last == .init(url: "https://t.example/late", reason: "sent after finish", attempts: 0))
    }

    @Test func givesUpOnWhatIsOutstandingAtTheDeadline() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // The answer never comes (held until the server stops) and the request timeout is 60 s: only the deadline of
        // 0.3 s can end the wait.
        server.route("/slow", Self.held(by: LoopbackHTTPServer.Gate()))
        let sender = BeaconSender(configuration: Self.quick(timeout: .seconds(60), concurrency: 1))
        let first = "\(server.baseURL)/slow?n=1", second = "\(server.baseURL)/slow?n=2"
        sender.send(first)
        sender.send(second)
        let start = ContinuousClock.now
        let summary = await sender.finish(deadline: .now + .milliseconds(300))
        #expect(ContinuousClock.now - start < SanitizerSlack.time(.seconds(30)),
                "the 0.3 s deadline, not the 60 s request timeout nor the answer that never comes")
        #expect(summary.failures == [
            .init(url: first, reason: "not finished by the deadline", attempts: 1),
            .init(url: second, reason: "not sent by the deadline", attempts: 0),
        ])
    }
}
