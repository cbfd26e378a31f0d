import Foundation
import HTTPServing
import LoopbackServer
import Networking
import Testing

@Suite struct HTTPServerTests {
    @Test func aRequestReachesTheResponderDecodedAndIsLoggedAsOneJSONLine() async throws {
        let test = try TestServer()
        let response = try await test.get("/a%20b/%2e%2e/c%2Fd?x=1&name=a+b%26c&flag", headers: "User-Agent: tester/1.0\r\n")
        #expect(response.status == 200)
        let echo = test.json(response)
        #expect(echo["method"] as? String == "GET")
        #expect(echo["components"] as? [String] == ["a b", "..", "c/d"])
        #expect(echo["query"] as? [[String]] == [["x", "1"], ["name", "a b&c"], ["flag", ""]])
        #expect(echo["userAgent"] as? String == "tester/1.0")
        #expect(echo["client"] as? String == "127.0.0.1")
        let lines = await test.log.wait(for: 1)
        #expect(lines.count == 1)
        let line = try #require(test.log.objects.first)
        #expect(line["method"] as? String == "GET")
        #expect(line["path"] as? String == "/a%20b/%2e%2e/c%2Fd")
        #expect(line["status"] as? Int == 200)
        #expect(line["bytes"] as? Int == response.body.count)
        #expect(line["outcome"] as? String == "completed")
        #expect(line["client"] as? String == "127.0.0.1")
        #expect((line["ms"] as? Double).map { $0 >= 0 } == true)
    }

    @Test func anImmediateAnswerIsSentWithoutTheResponderAndCountedUnderItsRoute() async throws {
        let test = try TestServer()
        // While a pooled request waits at the gate, an immediate one is answered.
        let held = Task { try await test.get("/slow") }
        await test.gate.arrived(1)
        let now = try await test.get("/now")
        #expect(test.json(now)["answered"] as? String == "immediately")
        test.gate.open()
        #expect(try await held.value.status == 200)
        _ = await test.log.wait(for: 2)
        // The responder is told of each request once it has ended, with the route its answer named.
        let completed = test.completions.withLock { $0 }
        #expect(completed.count == 2)
        let immediate = try #require(completed.first { $0.route == "now" })
        #expect(immediate.status == 200 && immediate.method == "GET" && immediate.outcome == .completed)
        #expect(immediate.bytes == UInt64(now.body.count))
        #expect(completed.contains { $0.route == nil && $0.status == 200 })
    }

    @Test func aNulOrABrokenEscapeLeavesThePathOrQueryUndecoded() async throws {
        let test = try TestServer()
        let nul = test.json(try await test.get("/a%00b"))
        #expect(nul["components"] is NSNull)
        let broken = test.json(try await test.get("/ok?x=%zz"))
        #expect(broken["components"] as? [String] == ["ok"])
        #expect(broken["query"] is NSNull)
        let invalidUTF8 = test.json(try await test.get("/%ff%fe"))
        #expect(invalidUTF8["components"] is NSNull)
    }

    @Test func aBodyIsHandedOverWhole() async throws {
        let test = try TestServer()
        let connection = try RawHTTPConnection(port: test.port)
        let body = String(repeating: "x", count: 3000)
        connection.send("POST /v1/sessions HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let response = try await connection.readResponse()
        #expect(response.status == 200)
        #expect(test.json(response)["body"] as? Int == 3000)
    }

    @Test func aDeclaredBodyOverTheLimitIsRefusedBeforeItIsSent() async throws {
        let test = try TestServer(limits: HTTPServerLimits(bodyBytes: 1000))
        let connection = try RawHTTPConnection(port: test.port)
        // Only the head: the answer comes without the body ever being sent.
        connection.send("POST /v1/sessions HTTP/1.1\r\nHost: h\r\nContent-Length: 50000000\r\n\r\n")
        let response = try await connection.readResponse()
        #expect(response.status == 413)
        #expect(response.headers["content-type"] == "application/json")
        let error = try #require(test.json(response)["error"] as? [String: Any])
        #expect(error["status"] as? Int == 413)
        #expect((error["message"] as? String)?.contains("1000 bytes") == true)
    }

    @Test func aChunkedBodyOverTheLimitIsReadToItsEndAndRefused() async throws {
        let test = try TestServer(limits: HTTPServerLimits(bodyBytes: 1000))
        let connection = try RawHTTPConnection(port: test.port)
        connection.send("POST /v1/sessions HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "y", count: 800)
        connection.send("320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
        let response = try await connection.readResponse()
        #expect(response.status == 413)
        _ = await test.log.wait(for: 1)
        #expect(test.log.objects.first?["status"] as? Int == 413)
    }

    @Test func anEndlessChunkedBodyHasItsConnectionClosed() async throws {
        let test = try TestServer(limits: HTTPServerLimits(bodyBytes: 1000))
        let connection = try RawHTTPConnection(port: test.port)
        connection.send("POST /v1/sessions HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "10000\r\n" + String(repeating: "z", count: 65536) + "\r\n"
        // The server stops reading well before 64 MiB: a send fails once it has closed the connection.
        var sent = 0
        while sent < 1024, connection.send(chunk) { sent += 1 }
        #expect(sent < 1024)
        #expect(await connection.readToEnd().isEmpty)
    }

    @Test func headersOverTheMemoryLimitAreRefusedAndOthersStillServed() async throws {
        let test = try TestServer(limits: HTTPServerLimits(headerMemoryBytes: 16 * 1024))
        let huge = (0..<200).map { "X-Filler-\($0): \(String(repeating: "z", count: 200))\r\n" }.joined()
        let connection = try RawHTTPConnection(port: test.port)
        connection.send("GET /big HTTP/1.1\r\nHost: h\r\n\(huge)\r\n")
        let reply = await connection.readToEnd()
        let status = RawResponse(reply)?.status
        #expect(status == 431 || status == 413, "answered \(String(decoding: reply.prefix(80), as: UTF8.self))")
        #expect(try await test.get("/after").status == 200)
    }

    @Test func aClientSendingOneByteAtATimeDoesNotHoldUpOthers() async throws {
        // An idle timeout longer than any wait here: on a busy machine the 20 requests once took over the default 30 s,
        // and the server rightly closed the trickle before its last byte.
        let test = try TestServer(limits: HTTPServerLimits(idleTimeoutSeconds: 3600, threads: 1))
        let slow = try RawHTTPConnection(port: test.port)
        // A head trickled in, never finished.
        for byte in "GET /slowloris HTTP/1.1\r\nHost: h\r\nX-A: ".utf8 { slow.send([byte]) }
        for i in 0..<20 { #expect(try await test.get("/other/\(i)").status == 200) }
        // The trickle is still being read, not answered.
        slow.send("b\r\n\r\n")
        #expect(try await slow.readResponse().status == 200)
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleTimeout() async throws {
        let test = try TestServer(limits: HTTPServerLimits(idleTimeoutSeconds: 1))
        // Half a head: no request began, so the close is all there is (no log line).
        let silent = try RawHTTPConnection(port: test.port)
        silent.send("GET /never-finished HTTP/1.1\r\n")
        // The server, not the test, ends the wait: the read returns when the connection is closed.
        #expect(await silent.readToEnd().isEmpty)
        // A whole head whose body never comes: the request began, and its line says it timed out.
        let stalled = try RawHTTPConnection(port: test.port)
        stalled.send("POST /v1/sessions HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
        #expect(await stalled.readToEnd().isEmpty)
        _ = await test.log.wait(for: 1)
        #expect(test.log.objects.first?["outcome"] as? String == "timeout")
        #expect(test.log.objects.first?["path"] as? String == "/v1/sessions")
    }

    @Test func aSlowAnswerHoldsNoThreadThatOthersNeed() async throws {
        let test = try TestServer(limits: HTTPServerLimits(threads: 1))
        let slow = try RawHTTPConnection(port: test.port)
        slow.send("GET /slow HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        await test.gate.arrived(1)
        // With one server thread and the slow request unanswered, others are served.
        for i in 0..<10 { #expect(try await test.get("/fast/\(i)").status == 200) }
        test.gate.open()
        let response = try await slow.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["x-test"] == "slow")
    }

    @Test func aFileIsSentWhole() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("httpserving-\(UUID().uuidString).ts").path
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let test = try TestServer(file: path)
        let response = try await test.get("/file")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "video/mp2t")
        #expect(response.body == bytes)
        _ = await test.log.wait(for: 1)
        #expect(test.log.objects.first?["session"] as? String == "s-1")
        #expect(test.log.objects.first?["bytes"] as? Int == bytes.count)
    }

    @Test func aFileThatCannotBeOpenedIsAJSON500() async throws {
        let test = try TestServer(file: "/nonexistent/file.ts")
        let response = try await test.get("/file")
        #expect(response.status == 500)
        #expect((test.json(response)["error"] as? [String: Any])?["status"] as? Int == 500)
    }

    @Test func shutdownFinishesTheRequestsInFlightAndThenRefusesConnections() async throws {
        let test = try TestServer()
        let port = test.port
        let slow = try RawHTTPConnection(port: port)
        slow.send("GET /slow HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        await test.gate.arrived(1)
        let server = test.server
        let stopped = Task { await server.stop() }
        // The request in flight is answered after shutdown began.
        test.gate.open()
        #expect(try await slow.readResponse().status == 200)
        await stopped.value
        #expect(server.requestsInFlight == 0)
        #expect(throws: RawHTTPConnection.Failure.self) { _ = try RawHTTPConnection(port: port) }
    }

    @Test func manyConcurrentClientsAreAllAnswered() async throws {
        let test = try TestServer()
        let client = HTTPClient()
        let answers = await withTaskGroup(of: String.self) { group in
            for i in 0..<300 {
                group.addTask {
                    let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(test.port)/many/\(i)")!, timeout: .seconds(120), maximumBytes: 10_000)
                    switch await client.data(request) {
                    case .success(let answer): return "\(answer.response.status)"
                    case .failure(let failure): return "\(failure)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(answers == ["200": 300])
    }

    @Test func aBadListenAddressOrABusyPortIsOneClearError() throws {
        #expect(throws: HTTPServerError(description: "listen address \"not-an-address\" is not an IPv4 or IPv6 address")) {
            _ = try HTTPServer(host: "not-an-address", port: 0, responder: EchoResponder(gate: Gate(), file: ""), log: { _ in })
        }
        let first = try TestServer()
        let error = #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(host: "127.0.0.1", port: first.port, responder: EchoResponder(gate: Gate(), file: ""), log: { _ in })
        }
        #expect(error?.description.hasPrefix("MHD_start_daemon failed on 127.0.0.1:\(first.port)") == true)
    }
}
