import Foundation
import Testing
@testable import AdCore

@Suite struct BeaconSenderTests {
    static let pixel = LoopbackHTTPServer.Response(status: 200, contentType: "image/gif", body: Data("GIF89a".utf8))

    /// A configuration with short waits, so that retries and timeouts take milliseconds.
    static func quick(timeout: Duration = .seconds(5), maxRetries: Int = 2, concurrency: Int = 4,
                      queue: Int = 256) -> BeaconSender.Configuration {
        .init(timeout: timeout, maxRetries: maxRetries, retryDelay: .milliseconds(10),
              maxConcurrentRequests: concurrency, queueCapacity: queue)
    }

    func soon(_ seconds: Int64 = 20) -> ContinuousClock.Instant { .now + .seconds(seconds) }

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
            SessionEvent(type: .started, time: 0, contentTime: 0, url: "\(server.baseURL)/t?not-a-beacon"),
            SessionEvent(type: .beacon, time: 0, contentTime: 0, url: "\(server.baseURL)/t?e=impression", event: .impression),
            SessionEvent(type: .beacon, time: 0, contentTime: 0, event: .start),
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
        server.route("/slow", .init(status: 200, contentType: "image/gif", delay: .seconds(10)))
        let sender = BeaconSender(configuration: Self.quick(timeout: .milliseconds(200), maxRetries: 2))
        let urls = (0..<3).map { "\(server.baseURL)/slow?n=\($0)" }
        let start = ContinuousClock.now
        urls.forEach { sender.send($0) }
        let summary = await sender.finish(deadline: soon())
        #expect(summary.failures.sorted { $0.url < $1.url }
                    == urls.map { .init(url: $0, reason: "timed out after 0.2 s", attempts: 1) })
        #expect(summary.retries.isEmpty)
        #expect(server.requests.map(\.target).sorted() == (0..<3).map { "/slow?n=\($0)" })
        #expect(ContinuousClock.now - start < SanitizerSlack.time(.seconds(5)), "one 0.2 s attempt each, not the server's 10 s")
    }

    @Test func realtimePacingSendsNoBeaconBeforeItsOutputTime() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let start = ContinuousClock.now
        let sender = BeaconSender(configuration: Self.quick(), pacing: .realtime(start: start))
        let times = [0.0, 0.4, 0.8]
        sender.session(didRecord: times.map {
            SessionEvent(type: .beacon, time: $0, contentTime: 0, url: "\(server.baseURL)/t?at=\($0)", event: .progress)
        })
        let summary = await sender.finish(grace: .seconds(10))
        #expect(summary == BeaconSender.Summary(sent: 3))
        let arrivals = server.arrivals
        #expect(arrivals.map(\.request.target) == times.map { "/t?at=\($0)" })
        for (arrival, time) in zip(arrivals, times) {
            #expect(arrival.at - start >= .seconds(time), "\(arrival.request.target) arrived after \(arrival.at - start)")
        }
    }

    @Test func asapPacingDoesNotWaitForOutputTimes() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/t", Self.pixel)
        let start = ContinuousClock.now
        let sender = BeaconSender(configuration: Self.quick(), pacing: .asap)
        sender.session(didRecord: [SessionEvent(type: .beacon, time: 30, contentTime: 0, url: "\(server.baseURL)/t",
                                                event: .complete)])
        let summary = await sender.finish(grace: .seconds(10))
        #expect(summary == BeaconSender.Summary(sent: 1))
        #expect(ContinuousClock.now - start < SanitizerSlack.time(.seconds(10)), "a beacon of output time 30 s went out at once")
    }

    @Test func sendReturnsAtOnceWhileTheServerIsSlow() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/slow", .init(status: 204, contentType: "image/gif", delay: .milliseconds(200)))
        let sender = BeaconSender(configuration: Self.quick(concurrency: 8))
        let start = ContinuousClock.now
        for i in 0..<100 { sender.send("\(server.baseURL)/slow?n=\(i)") }
        let sending = ContinuousClock.now - start
        // 100 requests of 0.2 s, 8 at a time, take 2.5 s; handing them over must take a small fraction of that.
        #expect(sending < SanitizerSlack.time(.seconds(1)), "100 sends took \(sending)")
        let summary = await sender.finish(deadline: soon(60))
        #expect(summary == BeaconSender.Summary(sent: 100))
        #expect(server.requests.count == 100)
    }

    @Test func dropsAndCountsBeaconsThatFindTheQueueFull() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/slow", .init(status: 200, contentType: "image/gif", delay: .milliseconds(200)))
        let sender = BeaconSender(configuration: Self.quick(concurrency: 1, queue: 3))
        for i in 0..<10 { sender.send("\(server.baseURL)/slow?n=\(i)") }
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
        server.route("/slow", .init(status: 200, contentType: "image/gif", delay: .seconds(10)))
        let sender = BeaconSender(configuration: Self.quick(concurrency: 1))
        let first = "\(server.baseURL)/slow?n=1", second = "\(server.baseURL)/slow?n=2"
        sender.send(first)
        sender.send(second)
        let start = ContinuousClock.now
        let summary = await sender.finish(deadline: .now + .milliseconds(300))
        #expect(ContinuousClock.now - start < SanitizerSlack.time(.seconds(5)), "the deadline, not the server's 10 s")
        #expect(summary.failures == [
            .init(url: first, reason: "not finished by the deadline", attempts: 1),
            .init(url: second, reason: "not sent by the deadline", attempts: 0),
        ])
    }
}
