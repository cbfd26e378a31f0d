import Foundation
import HTTPServing
import LoopbackServer
import MediaCore

/// Holds requests to `/slow` until the test opens it, and tells the test when one has arrived: tests wait on these
/// events, never on time.
final class Gate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var arrivals = 0
        var arrivalWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = LockedState(State())

    func pass() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
                s.arrivals += 1
                let due = s.arrivalWatchers.filter { $0.count <= s.arrivals }.map(\.continuation)
                s.arrivalWatchers.removeAll { $0.count <= s.arrivals }
                if s.open { return due + [continuation] }
                s.waiting.append(continuation)
                return due
            }
            ready.forEach { $0.resume() }
        }
    }

    /// Returns once `count` requests have reached the gate.
    func arrived(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                if s.arrivals >= count { return true }
                s.arrivalWatchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        state.withLock { s -> [CheckedContinuation<Void, Never>] in s.open = true; defer { s.waiting = [] }; return s.waiting }.forEach { $0.resume() }
    }
}

/// The access log's lines, and a wait for the n-th.
final class LogLines: Sendable {
    private let state = LockedState((lines: [String](), watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)]()))

    func append(_ line: String) {
        state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.lines.append(line)
            let due = s.watchers.filter { $0.count <= s.lines.count }.map(\.continuation)
            s.watchers.removeAll { $0.count <= s.lines.count }
            return due
        }.forEach { $0.resume() }
    }

    func wait(for count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                if s.lines.count >= count { return true }
                s.watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
        return state.withLock { $0.lines }
    }

    var objects: [[String: Any]] {
        state.withLock { $0.lines }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// Echoes what it was asked as JSON; `/slow` waits at the gate; `/file` is the test's file; `/now` is answered at
/// once (`immediateResponse`), and would say `pooled` if it ever reached `respond(to:)`.
struct EchoResponder: HTTPResponder {
    let gate: Gate
    let file: String
    var completions = LockedState([HTTPCompletedRequest]())

    func immediateResponse(to request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.pathComponents?.first == "now" else { return nil }
        var answer = HTTPServerResponse.json(200, "{\"answered\":\"immediately\"}")
        answer.route = "now"
        return answer
    }

    func completed(_ request: HTTPCompletedRequest) {
        completions.withLock { $0.append(request) }
    }

    func respond(to request: HTTPServerRequest) async -> HTTPServerResponse {
        switch request.pathComponents?.first {
        case "now":
            return .json(200, "{\"answered\":\"pooled\"}")
        case "slow":
            await gate.pass()
            return .json(200, "{\"slow\":true}", headers: [("X-Test", "slow")])
        case "file":
            return HTTPServerResponse(status: 200, headers: [("Content-Type", "video/mp2t")], body: .file(path: file), logFields: [("session", "s-1")])
        default:
            let echo: [String: Any] = [
                "method": request.method,
                "components": request.pathComponents.map { $0 as Any } ?? NSNull(),
                "query": request.query.map { $0.map { [$0.name, $0.value] } as Any } ?? NSNull(),
                "body": request.body.count,
                "userAgent": request.headers["user-agent"] ?? "",
                "client": request.clientAddress,
            ]
            let data = try! JSONSerialization.data(withJSONObject: echo, options: [.sortedKeys])
            return HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(data)))
        }
    }
}

struct TestServer {
    let server: HTTPServer
    let gate: Gate
    let log: LogLines
    let completions = LockedState([HTTPCompletedRequest]())

    init(limits: HTTPServerLimits = .init(), file: String = "/nonexistent") throws {
        let gate = Gate()
        let log = LogLines()
        self.gate = gate
        self.log = log
        server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits,
                                responder: EchoResponder(gate: gate, file: file, completions: completions), log: { log.append($0) })
    }

    var port: Int { server.port }

    func get(_ target: String, headers: String = "") async throws -> RawResponse {
        let connection = try RawHTTPConnection(port: port)
        connection.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(headers)\r\n")
        return try await connection.readResponse()
    }

    func json(_ response: RawResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }
}
