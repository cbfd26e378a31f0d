import Foundation
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// Two `pipctl serve` processes started with the same `--cache`, as two instances behind a load balancer: each
    /// piece of a cut and each conditioned ad is built once between them (the entry's lock is a `flock` that works
    /// across processes), the other reads it back, and both serve the same shared segments. Each process says what
    /// it built on `/metrics`.
    @Suite struct ServeSharedCacheTests {
        static func vmap(_ base: URL) -> String {
            """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="00:00:05.500" breakType="linear" breakId="mid"><vmap:AdSource id="mid"><vmap:VASTAdData>
            <VAST version="4.0"><Ad id="red"><InLine><AdSystem>test</AdSystem><AdTitle>red</AdTitle>
            <Impression><![CDATA[\(base)/beacon/impression]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:03.000</Duration>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[\(base)/media/red.mp4]]></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            </vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
            </vmap:VMAP>
            """
        }

        /// `name{kind="KIND"} N` from a `/metrics` text.
        static func value(_ metrics: String, _ name: String, kind: String) -> Int {
            let prefix = "\(name){kind=\"\(kind)\"} "
            return metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }

        /// A loopback ad server answering `/vmap` (the red 3 s mid-roll at 5.5 s) and its media.
        static func adServer() throws -> LoopbackHTTPServer {
            let red = try TestFixtures.directory(for: "serve-e2e-ad-red-v1") { directory in
                _ = try FFmpegCommandLine.run([
                    "-f", "lavfi", "-i", "color=c=red:size=320x240:rate=30:duration=3",
                    "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=3",
                    "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                    directory + "/red.mp4",
                ])
            } + "/red.mp4"
            let ads = try LoopbackHTTPServer()
            ads.route("/vmap", .xml(vmap(ads.baseURL)))
            ads.route("/media/red.mp4", .file(URL(fileURLWithPath: red), contentType: "video/mp4"))
            return ads
        }

        @Test func twoServersSharingACacheBuildEachPieceAndAdOnce() async throws {
            let origin = try HLSOriginFixture.origin()
            let ads = try Self.adServer()
            let scratch = try ScratchDirectory()
            var servers: [(process: PipctlProcess, port: Int)] = []
            for _ in 0..<2 {
                let process = try PipctlProcess(["serve", "--origin", origin, "--ads", "\(ads.baseURL)/vmap?s=[session.id]",
                                                 "--listen", "127.0.0.1:0", "--cache", scratch.path("cache"), "--stitch-wait", "600"])
                try await process.waitForOutput(containing: "/\n", onStandardError: true)
                let line = process.standardErrorSoFar
                servers.append((process, try #require(Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))))
            }
            // A viewer on each, at the same time: both ask for the break's cut and ad in both renditions at once.
            let playlists = try await withThrowingTaskGroup(of: [String].self) { group in
                for server in servers {
                    group.addTask {
                        let created = try await RawHTTPConnection.request(port: server.port, "POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#)
                        let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["sessionId"] as? String)
                        return try await withThrowingTaskGroup(of: String.self) { renditions in
                            for n in 0..<2 {
                                renditions.addTask {
                                    let answer = try await RawHTTPConnection.request(port: server.port, "GET", "/v1/sessions/\(id)/\(n).m3u8")
                                    #expect(answer.status == 200)
                                    return answer.text
                                }
                            }
                            return try await renditions.reduce(into: []) { $0.append($1) }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Both viewers' playlists name the same shared pieces.
            let shared = playlists.map { texts in Set(texts.flatMap { $0.split(separator: "\n").filter { $0.hasPrefix("/v1/cache/") } }) }
            #expect(shared.count == 2 && shared[0] == shared[1])
            #expect(shared.first?.contains { $0.hasPrefix("/v1/cache/cuts/") } == true)
            for server in servers {
                for uri in shared.first ?? [] {
                    #expect(try await RawHTTPConnection.request(port: server.port, "GET", String(uri)).status == 200, "\(uri)")
                }
            }

            var metrics: [String] = []
            for server in servers {
                metrics.append(try await RawHTTPConnection.request(port: server.port, "GET", "/metrics").text)
            }
            for kind in ["ads", "cuts"] {
                let entries = try FileManager.default.contentsOfDirectory(atPath: scratch.path("cache/\(kind)")).filter { !$0.hasPrefix(".") }
                #expect(entries.count == 2, "\(kind): \(entries)")
                // Built once between the two processes; the other found the entry once the builder's lock was free.
                #expect(metrics.map { Self.value($0, "pipctl_cache_builds_total", kind: kind) }.reduce(0, +) == entries.count, "\(kind)")
                #expect(metrics.map { Self.value($0, "pipctl_cache_build_failures_total", kind: kind) }.reduce(0, +) == 0, "\(kind)")
            }
            for server in servers {
                server.process.send(SIGTERM)
                #expect(try await server.process.result().exitStatus == 0)
            }
        }
    }
}
