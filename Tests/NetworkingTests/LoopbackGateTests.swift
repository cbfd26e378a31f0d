import Foundation
import LoopbackServer
import MediaCore
import Networking
import Testing

/// The test server's gate (`LoopbackHTTPServer.Gate`): a held answer is not written until the test opens the gate,
/// so a test can look at a request still in flight without racing the server.
@Suite struct LoopbackGateTests {
    @Test func aHeldAnswerWaitsForTheGateThenArrivesWhole() async throws {
        let server = try LoopbackHTTPServer()
        let gate = LoopbackHTTPServer.Gate()
        var held = LoopbackHTTPServer.Response(status: 200, contentType: "text/plain", body: Data("late".utf8))
        held.gate = gate
        server.route("/held", held)
        let answered = LockedState(false)
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("held"), timeout: .seconds(30))
        let fetch = Task {
            let body = try await HTTPClient().data(request).get().body
            answered.withLock { $0 = true }
            return String(decoding: body, as: UTF8.self)
        }
        // The server logs a request when it has read its head; its answer stays held.
        while server.requests(for: "/held").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!answered.withLock { $0 }, "no answer before the gate opens")
        gate.open()
        #expect(try await fetch.value == "late")
    }

    @Test func stoppingTheServerReleasesAHeldRequestWithoutAnAnswer() async throws {
        let server = try LoopbackHTTPServer()
        var held = LoopbackHTTPServer.Response(status: 200, contentType: "text/plain", body: Data("never".utf8))
        held.gate = LoopbackHTTPServer.Gate()
        server.route("/held", held)
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("held"), timeout: .seconds(30))
        let fetch = Task { await HTTPClient().data(request).failure }
        while server.requests(for: "/held").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        server.stop()
        #expect(await fetch.value != nil, "the connection closed without an answer")
    }
}
