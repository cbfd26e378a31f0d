import Foundation
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// Two `pipctl serve` processes started with the same `--secret-file` and `--cache`, as two instances behind a
    /// load balancer: a session made on one is played entirely from the other.
    @Suite struct ServeSharedSessionsTests {
        /// A secret file of `bytes` random bytes with `mode`, in `scratch`.
        static func secretFile(_ scratch: ScratchDirectory, bytes: Int = 64, mode: mode_t = 0o600, name: String = "secret") throws -> String {
            let file = scratch.path(name)
            var generator = SystemRandomNumberGenerator()
            #expect(FileManager.default.createFile(atPath: file, contents: Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })))
            #expect(chmod(file, mode) == 0)
            return file
        }

        @Test func aSessionMadeOnOneProcessPlaysEntirelyFromTheOther() async throws {
            let origin = try HLSOriginFixture.origin()
            let ads = try ServeSharedCacheTests.adServer()
            let scratch = try ScratchDirectory()
            let secret = try Self.secretFile(scratch)
            var servers: [(process: PipctlProcess, port: Int)] = []
            for _ in 0..<2 {
                let process = try PipctlProcess(["serve", "--origin", origin, "--ads", "\(ads.baseURL)/vmap?s=[session.id]",
                                                 "--listen", "127.0.0.1:0", "--cache", scratch.path("cache"), "--stitch-wait", "600",
                                                 "--secret-file", secret])
                try await process.waitForOutput(containing: "/\n", onStandardError: true)
                let line = process.standardErrorSoFar
                servers.append((process, try #require(Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))))
            }
            let created = try await RawHTTPConnection.request(port: servers[0].port, "POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#)
            #expect(created.status == 201)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["sessionId"] as? String)
            // Everything from the second process: the multivariant playlist, a media playlist, the ad's redirects,
            // the segments behind them.
            let url = "http://127.0.0.1:\(servers[1].port)/v1/sessions/\(id)/master.m3u8"
            let decoded = try await offPool { try FFmpegCommandLine.run(["-i", url, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"]) }
            let frames = String(decoding: decoded, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
            // The content's 192 frames and the 3 s ad's 72 at 24 fps.
            #expect(frames.count == HLSOriginFixture.frames + 72)
            #expect(ads.requests(for: "/vmap").count == 1)
            let deadline = ContinuousClock.now + .seconds(120)
            while ads.requests(for: "/beacon/impression").isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(ads.requests(for: "/beacon/impression").count == 1)

            let playlist = try await RawHTTPConnection.request(port: servers[1].port, "GET", "/v1/sessions/\(id)/1.m3u8")
            #expect(playlist.status == 200 && playlist.text.contains("/v1/sessions/\(id)/ads/"))

            var logs: [[[String: Any]]] = []
            for server in servers {
                server.process.send(SIGTERM)
                let result = try await server.process.result()
                #expect(result.exitStatus == 0)
                logs.append(result.standardOutput.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                })
            }
            // The first process only made the session; the second answered every request of the player, none refused.
            #expect(logs[0].count == 1)
            #expect(logs[1].count > 4 && logs[1].allSatisfy { ($0["status"] as? Int ?? 500) < 400 }, "\(logs[1])")
            #expect(logs[1].contains { ($0["path"] as? String)?.contains("/ads/") == true && $0["session"] as? String == id })

            // Both stopped, one started again: it serves the same session, the same bytes, without asking the ad
            // server again or sending a beacon twice.
            let restarted = try PipctlProcess(["serve", "--origin", origin, "--ads", "\(ads.baseURL)/vmap?s=[session.id]",
                                               "--listen", "127.0.0.1:0", "--cache", scratch.path("cache"), "--stitch-wait", "600",
                                               "--secret-file", secret])
            try await restarted.waitForOutput(containing: "/\n", onStandardError: true)
            let port = try #require(Int(restarted.standardErrorSoFar.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))
            let again = try await RawHTTPConnection.request(port: port, "GET", "/v1/sessions/\(id)/1.m3u8")
            #expect(again.status == 200 && again.body == playlist.body)
            let adSegment = try #require(again.text.split(separator: "\n").first { $0.contains("/ads/") }.map(String.init))
            #expect(try await RawHTTPConnection.request(port: port, "GET", adSegment).status == 302)
            restarted.send(SIGTERM)
            #expect(try await restarted.result().exitStatus == 0)
            #expect(ads.requests(for: "/vmap").count == 1)
            #expect(ads.requests(for: "/beacon/impression").count == 1)
        }

        @Test func aBadSecretFileIsOneLine() async throws {
            let scratch = try ScratchDirectory()
            let cases: [(file: String, message: String)] = [
                (scratch.path("missing"), "No such file or directory"),
                (try Self.secretFile(scratch, bytes: 0, name: "empty"), "empty (head -c 64 /dev/urandom > FILE; chmod 600 FILE)"),
                (try Self.secretFile(scratch, bytes: 16, name: "short"), "16 bytes; a secret has 32 to 4096 (head -c 64 /dev/urandom > FILE)"),
                (try Self.secretFile(scratch, mode: 0o644, name: "open"), "readable by others (mode 644); chmod 600 it"),
            ]
            for (file, message) in cases {
                let result = try await PipctlProcess.run(["serve", "--origin", "/", "--ads", "http://ads.example/v", "--listen", "127.0.0.1:0",
                                                          "--cache", scratch.path("cache"), "--secret-file", file])
                #expect(result.exitStatus == 1)
                #expect(result.errorLines == ["pipctl serve: --secret-file \(file): \(message)"])
                #expect(result.standardOutput.isEmpty)
            }
            #expect(!FileManager.default.fileExists(atPath: scratch.path("cache")))
        }
    }
}
