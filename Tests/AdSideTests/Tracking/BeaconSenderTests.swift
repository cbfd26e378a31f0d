@testable import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// Every sender here reads a `ManualClock` that only the test moves: due instants, retry delays and `finish`'s
/// deadline come when the test says, never because the machine was slow.
@Suite(.timeLimit(.minutes(2))) struct BeaconSenderTests {
    static let pixel = LoopbackHTTPServer.Response(status: 200, contentType: "image/gif", body: Data("GIF89a".utf8))

    /// A configuration with short waits, so that retries and timeouts take milliseconds.
    static func quick(timeout: Duration = .seconds(5), maxRetries: Int = 2, concurrency: Int = 4,
                      queue: Int = 256) -> BeaconSender.Configuration {
        .init(timeout: timeout, maxRetries: maxRetries, retryDelay: .milliseconds(10),
              maxConcurrentRequests: concurrency, queueCapacity: queue)
    }

    /// The clock of the test's sender; `finish(deadline: soon())` waits for the beacons, for as long as they take,
    /// because nothing moves this clock to the deadline.
    let clock = ManualClock()

    func soon(_ seconds: Int64 = 20) -> ContinuousClock.Instant { clock.now + .seconds(seconds) }

    func makeSender(_ configuration: BeaconSender.Configuration, pacing: BeaconSender.Pacing = .asap) -> BeaconSender {
        BeaconSender(configuration: configuration, pacing: pacing, clock: clock)
    }

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
        let sender = makeSender(Self.quick())
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
        let sender = makeSender(Self.quick())
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
        let sender = makeSender(Self.quick(maxRetries: 2))
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
        let sender = makeSender(Self.quick(maxRetries: 2))
        sender.send(url)
        // The first retry 10 ms after the refusal, the second 20 ms after the next: each waits on the clock.
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(10))
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(19))
        #expect(clock.sleepers == 1, "the second retry waits its 20 ms")
        clock.advance(by: .milliseconds(1))
        let summary = await sender.finish(deadline: soon())
        #expect(summary.retries == [.init(url: url, attempt: 2, reason: "connection refused"),
                                    .init(url: url, attempt: 3, reason: "connection refused")])
        #expect(summary.failures == [.init(url: url, reason: "connection refused", attempts: 3)])
    }

    @Test func doesNotRetryAClientError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let sender = makeSender(Self.quick(maxRetries: 2))
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
        let sender = makeSender(Self.quick(timeout: .seconds(1), maxRetries: 2))
        let urls = (0..<3).map { "\(server.baseURL)/slow?n=\($0)" }
        urls.forEach { sender.send($0) }
        // The deadline of finish never comes (the clock stays): each request ended at its own timeout.
        let summary = await sender.finish(deadline: soon())
        #expect(summary.failures.sorted { $0.url < $1.url }
                    == urls.map { .init(url: $0, reason: "timed out after 1 s", attempts: 1) })
        #expect(summary.retries.isEmpty)
        #expect(server.requests.map(\.target).sorted() == (0..<3).map { "/slow?n=\($0)" })
    }

    @Test func realtimePacingSendsNoBeaconBeforeItsOutputTime() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let sender = makeSender(Self.quick(), pacing: .realtime(start: clock.now))
        let times = [0.0, 0.4, 0.8]
        sender.session(didRecord: times.map {
            SessionEvent(.beacon(.progress, url: "\(server.baseURL)/t?at=\($0)", .session, code: nil), time: $0, contentTime: 0)
        })
        // The beacon of time 0 goes at once; the others wait on the clock for their output time.
        try await Self.waitUntil("the beacon of 0 s arrives") { server.requests.count == 1 }
        #expect(clock.sleepers == 2)
        clock.advance(by: .milliseconds(399))
        #expect(clock.sleepers == 2, "nothing is due before 0.4 s")
        clock.advance(by: .milliseconds(1))
        try await Self.waitUntil("the beacon of 0.4 s arrives") { server.requests.count == 2 }
        #expect(clock.sleepers == 1 && server.requests.map(\.target) == ["/t?at=0.0", "/t?at=0.4"])
        clock.advance(by: .milliseconds(400))
        let summary = await sender.finish(grace: .seconds(10))
        #expect(summary == BeaconSender.Summary(sent: 3))
        #expect(server.requests.map(\.target) == times.map { "/t?at=\($0)" }, "each beacon once, in its turn")
    }

    /// Waits until `condition` holds: for what the test cannot be told about (a request reaching the server).
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func asapPacingDoesNotWaitForOutputTimes() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let start = clock.now
        let sender = makeSender(Self.quick(), pacing: .asap)
        sender.session(didRecord: [SessionEvent(.beacon(.complete, url: "\(server.baseURL)/t", .session, code: nil),
                                                time: 30, contentTime: 0)])
        #expect(clock.sleepers == 0, "nothing waits for the output time")
        let summary = await sender.finish(grace: .seconds(10))
        #expect(summary == BeaconSender.Summary(sent: 1))
        #expect(clock.now == start, "sent with the clock where it was, not 30 s on")
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
        let sender = makeSender(Self.quick(concurrency: 8))
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
        let sender = makeSender(Self.quick(concurrency: 1, queue: 3))
        for i in 0..<10 { sender.send("\(server.baseURL)/slow?n=\(i)") }
        gate.open()
        let summary = await sender.finish(deadline: soon())
        #expect(summary == BeaconSender.Summary(sent: 4, dropped: 6))
        #expect(server.requests.map(\.target) == (0..<4).map { "/slow?n=\($0)" }, "one at a time, in order")
    }

    @Test func countsURLsItCannotSendAsFailed() async throws {
        let sender = makeSender(Self.quick())
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
        let sender = makeSender(Self.quick(timeout: .seconds(60), concurrency: 1))
        let first = "\(server.baseURL)/slow?n=1", second = "\(server.baseURL)/slow?n=2"
        sender.send(first)
        sender.send(second)
        let finished = Task { [clock] in await sender.finish(deadline: clock.now + .milliseconds(300)) }
        // finish's deadline is the one sleeper: moving the clock to it, and only that, ends the wait.
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleepers == 1)
        clock.advance(by: .milliseconds(1))
        let summary = await finished.value
        #expect(summary.failures == [
            .init(url: first, reason: "not finished by the deadline", attempts: 1),
            .init(url: second, reason: "not sent by the deadline", attempts: 0),
        ])
    }
}
