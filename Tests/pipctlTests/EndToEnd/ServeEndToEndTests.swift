import Foundation
import LoopbackServer
import MediaCore
import StampedMedia
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
            let scratch = try ScratchDirectory()
            let server = try PipctlProcess(["serve", "--origin", origin, "--ads", "\(ads.baseURL)/vmap?s=[session.id]",
                                            "--listen", "127.0.0.1:0", "--decision-timeout", "2", "--cache", scratch.path("cache")])
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

        /// The README's serving example: `media/` with the demo's ads through `media/demo.urlmap`. The ffmpeg tool
        /// plays the implicit session's stream over HTTP: the packaged MP4 with the pre-roll, the pod at 0:20, the
        /// wrapped ad at 0:40 and the post-roll, as many frames as `pipctl render` makes of the same demo.
        @Test func theREADMEServesTheDemoAndTheFFmpegToolPlaysIt() async throws {
            let dir = try ScratchDirectory()
            try FileManager.default.copyItem(atPath: PipctlProcess.repositoryRoot.appendingPathComponent("media").path, toPath: dir.path("media"))
            let server = try PipctlProcess(["serve", "--origin", "media", "--ads", "https://ads.pipctl.example/demo-vmap.xml",
                                            "--url-map", "media/demo.urlmap", "--stitch-wait", "600", "--cache", "cache",
                                            "--listen", "127.0.0.1:0"], directory: dir.url)
            try await server.waitForOutput(containing: "/\n", onStandardError: true)
            let line = server.standardErrorSoFar
            let port = try #require(Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))
            let url = "http://127.0.0.1:\(port)/v1/master/content.mp4"
            let decoded = try FFmpegCommandLine.run(["-i", url, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
            let frames = String(decoding: decoded, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(frames.count == 3751)

            // `pipctl verify --sources` passes the stream a player downloads against the session's timeline: every
            // frame identified, and the sound in sync across the pre-roll, the pod, the mid-roll and the post-roll
            // (issue 39).
            let master = try await RawHTTPConnection.request(port: port, "GET", "/v1/master/content.mp4")
            let media = try #require(master.text.split(separator: "\n").first { $0.hasSuffix(".m3u8") && !$0.hasPrefix("#") })
            let timeline = try await RawHTTPConnection.request(port: port, "GET", media.replacingOccurrences(of: ".m3u8", with: ".timeline.json"))
            #expect(timeline.status == 200, "\(timeline.text)")
            try Data(timeline.body).write(to: URL(fileURLWithPath: dir.path("timeline.json")))
            _ = try FFmpegCommandLine.run([
                "-dts_delta_threshold", "1", "-i", "http://127.0.0.1:\(port)\(media)", "-map", "0:v:0", "-map", "0:a:0",
                "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-c:a", "aac",
                "-b:a", "192k", "-y", dir.path("stream.mp4"),
            ])
            let verify = try await PipctlProcess.run(["verify", "stream.mp4", "--timeline", "timeline.json", "--sources"],
                                                     directory: dir.url, timeout: .seconds(600))
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\n\(verify.errorLines)")

            // The sound at each of the seven splices, from the segments' packets (`SoundSplices`): within one AAC
            // frame by presentation time and one after the other, and what the ads add up to within half a frame at
            // the stream's end (each ad's ending chosen for it; with every ad's own, 1,984 samples early).
            let playlist = try await RawHTTPConnection.request(port: port, "GET", String(media))
            var segments: [SoundSplices.Segment] = []
            for (n, segment) in SoundSplices.playlistSegments(playlist.text).enumerated() {
                var answer = try await RawHTTPConnection.request(port: port, "GET", segment.uri)
                if answer.status == 302, let location = answer.headers["location"] {
                    answer = try await RawHTTPConnection.request(port: port, "GET", location)
                }
                try #require(answer.status == 200, "\(segment.uri): \(answer.status)")
                let file = dir.path("segment\(n).ts")
                try Data(answer.body).write(to: URL(fileURLWithPath: file))
                segments.append(SoundSplices.Segment(uri: segment.uri, discontinuity: segment.discontinuity, file: file))
            }
            let sound = try SoundSplices.measure(segments, rate: Rational(30))
            SoundSplices.expectWithinOneFrame(sound, splices: 7, "the demo")
            #expect(abs(sound.offsets.last!) <= SoundSplices.frame / 2, "the demo: offsets \(sound.offsets)")
            server.send(SIGTERM)
            let result = try await server.result()
            #expect(result.exitStatus == 0)
            let log = result.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            // Every request answered; the ad segments sent their beacons (the demo's trackers are on the url map's
            // hosts, which are not fetched: the log names what was due).
            #expect(log.allSatisfy { ($0["status"] as? Int ?? 500) < 400 }, "\(log.filter { ($0["status"] as? Int ?? 500) >= 400 })")
            #expect(log.contains { ($0["beacons"] as? String)?.contains("impression") == true })
            #expect(dir.entries().contains("cache/packaged"))
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
            let scratch = try ScratchDirectory()
            let result = try await PipctlProcess.run(["serve", "--origin", "/", "--ads", "http://ads.example/v", "--listen", "127.0.0.1:\(busy.port)",
                                                      "--cache", scratch.path("cache")])
            #expect(result.exitStatus == 1)
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.hasPrefix("pipctl serve: MHD_start_daemon failed on 127.0.0.1:\(busy.port)") == true)
        }
    }
}
