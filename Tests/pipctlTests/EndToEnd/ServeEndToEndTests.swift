import Foundation
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `pipctl serve` as a process: it says where it listens, answers sessions, logs one JSON line per request on
    /// standard output, and SIGTERM finishes it with exit 0; bad options are one line and exit 1.
    @Suite struct ServeTests {
        @Test func itServesASessionLogsEachRequestAndStopsOnSIGTERM() async throws {
            let origin = try HLSOriginFixture.origin()
            let ads = try LoopbackHTTPServer()
            ads.route("/vmap", .notFound)
            let server = try PipctlProcess(["serve", "--origin", origin, "--ads", "\(ads.baseURL)/vmap?s=[session.id]",
                                            "--listen", "127.0.0.1:0", "--decision-timeout", "2"])
            try await server.waitForOutput(containing: "/\n", onStandardError: true)
            let line = server.standardErrorSoFar
            let prefix = "pipctl serve: serving \(URL(fileURLWithPath: origin).resolvingSymlinksInPath().path) on http://127.0.0.1:"
            #expect(line.hasPrefix(prefix), "\(line)")
            let port = try #require(Int(line.dropFirst(prefix.count).prefix { $0.isNumber }))

            let created = try await RawHTTPConnection.request(port: port, "POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#)
            #expect(created.status == 201)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["sessionId"] as? String)
            let master = try await RawHTTPConnection.request(port: port, "GET", "/v1/sessions/\(id)/master.m3u8")
            #expect(master.status == 200)
            #expect(try await RawHTTPConnection.request(port: port, "GET", "/v1/origin/../etc/passwd").status == 404)
            try await server.waitForOutput("three access-log lines") { $0.split(separator: "\n").count >= 3 }

            server.send(SIGTERM)
            let result = try await server.result()
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 0)
            #expect(result.errorLines.last == "pipctl serve: terminated (SIGTERM): stopped after 0 request(s) in flight finished")
            let log = result.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            // A line is written when its request ends on the server, which may be after the client has read the
            // answer and sent the next request: the lines are matched by request, not by order.
            #expect(log.count == 3)
            let byRequest = Dictionary(log.map { ("\($0["method"] as? String ?? "") \($0["path"] as? String ?? "")", $0) }) { a, _ in a }
            #expect(byRequest["POST /v1/sessions"]?["status"] as? Int == 201)
            #expect(byRequest["POST /v1/sessions"]?["session"] as? String == id)
            #expect(byRequest["GET /v1/sessions/\(id)/master.m3u8"]?["status"] as? Int == 200)
            #expect(byRequest["GET /v1/sessions/\(id)/master.m3u8"]?["session"] as? String == id)
            #expect(byRequest["GET /v1/origin/../etc/passwd"]?["status"] as? Int == 404)
        }

        @Test(arguments: [
            (["--origin", "/nonexistent/origin", "--ads", "http://ads.example/v"], "pipctl serve: --origin \"/nonexistent/origin\": no such folder"),
            (["--origin", "/", "--ads", "ftp://ads.example/v"], "pipctl serve: --ads \"ftp://ads.example/v\": not an http(s) URL"),
            (["--origin", "/", "--ads", "http://ads.example/v?u=[user.id]"],
             "pipctl serve: --ads: [user.id] is not one of [session.id], [session.user_agent], [session.client_ip], [player_params.NAME]"),
            (["--origin", "/", "--ads", "http://ads.example/v", "--listen", "nowhere:80"],
             "pipctl serve: listen address \"nowhere\" is not an IPv4 or IPv6 address"),
        ])
        func aBadOptionIsOneLine(arguments: [String], message: String) async throws {
            let result = try await PipctlProcess.run(["serve"] + arguments)
            #expect(result.exitStatus == 1)
            #expect(result.errorLines == [message])
            #expect(result.standardOutput.isEmpty)
        }

        @Test func aPortInUseIsOneLine() async throws {
            let busy = try LoopbackHTTPServer()
            let result = try await PipctlProcess.run(["serve", "--origin", "/", "--ads", "http://ads.example/v", "--listen", "127.0.0.1:\(busy.port)"])
            #expect(result.exitStatus == 1)
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.hasPrefix("pipctl serve: MHD_start_daemon failed on 127.0.0.1:\(busy.port)") == true)
        }
    }
}
