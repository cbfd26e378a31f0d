import Foundation
import LoopbackServer
import Serving
import Testing

/// Two instances behind Debian's nginx, configured by `deploy/nginx/pipctl-serve.conf` itself (only its ports and
/// paths changed): nginx balances request by request with no affinity, so one viewer's requests alternate between
/// the instances, which share one `--secret-file` and one `--cache`. The ffmpeg tool and Video.js in Chromium play
/// a session through it; nginx caches the shared segments and never a viewer's playlist.
@Suite struct ServeNginxTests {
    static let nginx = "/usr/sbin/nginx"
    static var canRun: Bool { FileManager.default.isExecutableFile(atPath: nginx) }

    /// `deploy/nginx/pipctl-serve.conf`, from this file's place in the repository.
    static let deployed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy/nginx/pipctl-serve.conf").path

    /// nginx in the foreground, on a port of its own, in front of `instances`, with every path in `directory`.
    final class Proxy {
        let process = Process()
        let port: Int
        let directory: TemporaryDirectory

        init(instances: [Int]) throws {
            directory = try TemporaryDirectory()
            port = try Self.freePort()
            var site = try String(contentsOfFile: ServeNginxTests.deployed, encoding: .utf8)
            // The deployed file's two instance lines, listen port and cache path, and nothing else, are changed.
            let upstream = instances.map { "    server 127.0.0.1:\($0) max_fails=0;" }.joined(separator: "\n")
            for (from, to) in [("    server 127.0.0.1:8081 max_fails=0;\n    server 127.0.0.1:8082 max_fails=0;", upstream),
                               ("listen 8080;", "listen 127.0.0.1:\(port);"),
                               ("/var/cache/nginx/pipctl", directory.path + "/cache")] {
                guard site.contains(from) else { throw ServeTestFailure("\(ServeNginxTests.deployed) no longer holds \(from)") }
                site = site.replacingOccurrences(of: from, with: to)
            }
            let root = directory.path
            let main = """
            daemon off;
            master_process on;
            worker_processes 1;
            \(getuid() == 0 ? "user root;" : "")
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 512; }
            http {
              access_log \(root)/access.log;
              client_body_temp_path \(root)/body;
              proxy_temp_path \(root)/proxy;
              fastcgi_temp_path \(root)/fastcgi;
              uwsgi_temp_path \(root)/uwsgi;
              scgi_temp_path \(root)/scgi;
              include \(try directory.write("pipctl-serve.conf", site));
            }
            """
            let config = try directory.write("nginx.conf", main)
            process.executableURL = URL(fileURLWithPath: ServeNginxTests.nginx)
            process.arguments = ["-p", root, "-c", config, "-e", root + "/error.log"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Ready when it accepts: each try is a refused connection until it listens (the event), 30 s a safety net.
            let deadline = ContinuousClock.now + .seconds(30)
            while (try? RawHTTPConnection(port: port)) == nil {
                guard process.isRunning, ContinuousClock.now < deadline else {
                    throw ServeTestFailure("nginx did not start: \((try? String(contentsOfFile: root + "/error.log", encoding: .utf8)) ?? "")")
                }
                usleep(10_000)
            }
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }

        /// A port no one listens on now (the system's choice for a socket bound to port 0, then closed).
        static func freePort() throws -> Int {
            let listener = try LoopbackHTTPServer()
            defer { listener.stop() }
            return Int(listener.port)
        }

        func request(_ method: String, _ target: String, body: String? = nil) async throws -> RawResponse {
            try await RawHTTPConnection.request(port: port, method, target, body: body)
        }
    }

    /// The two instances (sharing a cache directory and the secret), and nginx in front of them.
    static func setUp(cache: String) throws -> (ServeHarness, ServeHarness, Proxy) {
        let (a, b) = try ServeSharedSessionTests.pair(cache: cache)
        return (a, b, try Proxy(instances: [a.port, b.port]))
    }

    /// The requests of session `id` each instance answered (by the id's first 64 characters: the access log cuts a
    /// path at 256 bytes, and a token holding a browser's user agent is longer).
    static func served(_ harness: ServeHarness, _ id: String) -> [String] {
        harness.answeredPaths().filter { $0.contains(id.prefix(64)) }
    }

    @Test(.enabled(if: canRun, "needs Debian's nginx (scripts/setup --for-tests)"))
    func theFFmpegToolPlaysASessionWhoseRequestsAlternateBetweenTwoInstances() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (a, b, proxy) = try Self.setUp(cache: cache)
        let created = try await proxy.request("POST", "/v1/sessions", body: #"{"content": "show/master.m3u8", "params": {"genre": "nginx"}}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(a.json(created)["sessionId"] as? String)
        let stitched = try await ServeStitchTests.greyFrames("http://127.0.0.1:\(proxy.port)/v1/sessions/\(id)/0.m3u8")
        let content = try await ServeStitchTests.greyFrames(try ServeFixture.origin() + "/show/v0/index.m3u8")
        #expect(stitched.count == ServeFixture.frames + ServeStitchTests.adFrames)
        if stitched.count == ServeFixture.frames + ServeStitchTests.adFrames { ServeStitchTests.expectTheCut(stitched: stitched, content: content) }
        // Both instances answered this viewer: nginx sent its requests to one and then the other.
        #expect(!Self.served(a, id).isEmpty && !Self.served(b, id).isEmpty, "A: \(Self.served(a, id)) B: \(Self.served(b, id))")
        // The ad server was asked once, and each beacon went out once, whichever instance the ad segment reached.
        #expect(a.adServer.requests(for: "/vmap").count == 1)
        let beacons = try await ServeStitchTests.waitForBeacons(a.adServer, count: ServeStitchTests.beaconEvents.count)
        #expect(beacons.map(\.event).sorted() == ServeStitchTests.beaconEvents.sorted())

        // A shared segment is cached by nginx: the second request is a hit and reaches no instance.
        let playlist = try await proxy.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let piece = try #require(ServeStitchTests.segments(playlist.text).map(\.uri).first { $0.hasPrefix("/v1/cache/cuts/") })
        _ = try await proxy.request("GET", piece)
        let before = a.answeredPaths().count + b.answeredPaths().count
        let again = try await proxy.request("GET", piece)
        #expect(again.status == 200 && again.headers["x-cache-status"] == "HIT", "\(again.headers)")
        // A viewer's playlist is never cached: every request for it reaches an instance.
        for _ in 0..<2 { #expect(try await proxy.request("GET", "/v1/sessions/\(id)/0.m3u8").body == playlist.body) }
        let reached = (Self.served(a, id) + Self.served(b, id)).filter { $0.hasSuffix("/0.m3u8") }.count
        #expect(a.answeredPaths().count + b.answeredPaths().count - before >= 2)
        #expect(reached >= 3, "the media playlist reached the instances \(reached) times")
    }

    @Test(.enabled(if: canRun && ServeBrowserTests.canPlay, "needs Debian's nginx and chromium, and js.videojs (scripts/setup --for-tests)"))
    func videoJSPlaysASessionThroughNginxToItsEnd() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (a, b, proxy) = try Self.setUp(cache: cache)
        // At its own pace: at 4x, on two busy cores, Chromium could drop every picture of the 3 s ad (0.75 s of wall
        // time) and show none of its red.
        let played = try await ServeBrowserTests.play(a, page: ServeBrowserTests.page(server: proxy.port, rate: 1))
        #expect(played["error"] is NSNull, "\(played)")
        #expect(played["ended"] as? Bool == true)
        let duration = try #require(played["duration"] as? Double, "\(played)")
        #expect(abs(duration - 11) <= 2.0 / 24, "duration \(duration)")
        let frames = try #require(played["frames"] as? [[Double]]).filter { $0.count == 5 }
        let red = frames.filter(ServeBrowserTests.red)
        #expect(!red.isEmpty && ServeBrowserTests.shown(red, to: 5.5).isEmpty && ServeBrowserTests.shown(red, from: 8.5).isEmpty,
                "red: \(red); shown from 5 to 9 s: \(frames.filter { $0[0] > 5 && $0[0] < 9 })")
        let id = try #require(played["sessionId"] as? String)
        #expect(!Self.served(a, id).isEmpty && !Self.served(b, id).isEmpty, "A: \(Self.served(a, id)) B: \(Self.served(b, id))")
        let beacons = try await ServeStitchTests.waitForBeacons(a.adServer, count: ServeStitchTests.beaconEvents.count)
        #expect(ServeStitchTests.beaconEvents.allSatisfy { event in beacons.filter { $0.event == event }.count == 1 })
        _ = proxy
    }
}
