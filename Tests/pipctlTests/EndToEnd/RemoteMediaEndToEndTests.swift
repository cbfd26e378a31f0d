import AdDecisioning
import Foundation
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// Ads whose media is served over HTTP, as every real ad server serves it: the render downloads the chosen
    /// rendition into the media cache and plays it, reuses it on the next run, fails only that ad when the server
    /// fails, stops at once on Ctrl-C while it waits, and shares the cache with a render running beside it.
    @Suite struct RemoteMediaTests {
        /// A loopback server with `/vast.xml`, an inline ad whose MediaFile is `http://127.0.0.1:PORT/ad.mp4`.
        static func server(media: LoopbackHTTPServer.Response?) async throws -> LoopbackHTTPServer {
            let server = try LoopbackHTTPServer()
            let base = server.baseURL.absoluteString
            server.route("/vast.xml", .xml("""
                <VAST version="4.2"><Ad id="remote"><InLine><AdSystem>e2e</AdSystem><AdTitle>remote</AdTitle>
                  <Impression>\(base)/impression</Impression><Error>\(base)/error?code=[ERRORCODE]</Error>
                  <Creatives><Creative><Linear><Duration>00:00:02</Duration>
                    <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240">\(base)/ad.mp4</MediaFile></MediaFiles>
                  </Linear></Creative></Creatives>
                </InLine></Ad></VAST>
                """))
            if let media { server.route("/ad.mp4", media) }
            server.route("/error", LoopbackHTTPServer.Response(status: 204, contentType: "image/gif"))
            return server
        }

        /// The bytes of ad A as the server sends them, with an ETag.
        static func adA(delivery: LoopbackHTTPServer.Response.Delivery = .normal) async throws -> LoopbackHTTPServer.Response {
            let body = try Data(contentsOf: URL(fileURLWithPath: try await TestClip.adA.path))
            return LoopbackHTTPServer.Response(status: 200, contentType: "video/mp4", body: body, delivery: delivery,
                                               etag: "\"ada\"", acceptsRanges: true)
        }

        static func render(_ server: LoopbackHTTPServer, output: String, cache: String, extra: [String] = []) async throws -> [String] {
            ["render", "--content", try await TestClip.content.path, "--ads", server.baseURL.absoluteString + "/vast.xml",
             "-o", output, "--media-cache", cache, "--preset", "ultrafast"] + extra
        }

        static func events(_ path: String) throws -> [[String: Any]] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        @Test func aVASTServedOverHTTPWithHTTPMediaPlaysTheAdVerifiesAndTheNextRenderMakesNoMediaRequest() async throws {
            let server = try await Self.server(media: try await Self.adA())
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let cache = dir.path("cache")
            let output = dir.path("h.mp4")
            let result = try await PipctlProcess.run(try await Self.render(server, output: output, cache: cache))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("ads: 1 played, 0 skipped, 0 failed"), "\(result.standardOutput)")

            let events = try Self.events(output + ".events.jsonl")
            let adEvents = events.filter { $0["break"] as? Int == 0 && $0["ad"] as? Int == 0 }.compactMap { $0["type"] as? String }
            #expect(adEvents.contains("STARTED") && adEvents.contains("COMPLETE"), "\(adEvents)")
            #expect(!events.contains { $0["type"] as? String == "AD_ERROR" })
            // A batch render's log does not depend on the network's speed.
            #expect(!events.contains { $0["type"] as? String == "AD_BUFFERING" })

            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            #expect(segments.map { $0["kind"] as? String } == ["ad", "content"])
            #expect((segments.first?["source"] as? String)?.hasPrefix(cache + "/") == true, "\(segments.first ?? [:])")

            let verify = try await PipctlProcess.run(["verify", output])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")

            // The next run finds the creative in the cache: no media request at all.
            let again = try await PipctlProcess.run(try await Self.render(server, output: dir.path("again.mp4"), cache: cache))
            #expect(again.exitStatus == 0, "\(again.standardError)")
            #expect(again.standardOutput.contains("ads: 1 played, 0 skipped, 0 failed"))
            #expect(server.requests(for: "/ad.mp4").count == 1)
            #expect(server.requests(for: "/vast.xml").count == 2)
        }

        @Test func adsInspectCallsTheRemoteRenditionPlayableWithoutFetchingIt() async throws {
            let server = try await Self.server(media: try await Self.adA())
            defer { server.stop() }
            let tag = server.baseURL.absoluteString + "/vast.xml"
            let text = try await PipctlProcess.run(["ads", "inspect", tag])
            #expect(text.exitStatus == 0, "\(text.standardError)")
            #expect(text.standardOutput.contains(": video/mp4 320x240 -> \(server.baseURL.absoluteString)/ad.mp4 (remote, downloaded when played)"),
                    "\(text.standardOutput)")
            #expect(!text.standardOutput.contains("FAILED"))
            let json = try await PipctlProcess.run(["ads", "inspect", tag, "--json"])
            let report = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
            let ad = try #require(((report["breaks"] as? [[String: Any]])?.first?["ads"] as? [[String: Any]])?.first)
            #expect(ad["state"] as? String == "available")
            #expect(server.requests(for: "/ad.mp4").isEmpty)
        }

        @Test(arguments: [("404", 401), ("500", 401), ("hang", 402)])
        func aMediaServerThatFailsFailsOnlyThatAdWithItsVASTCode(failure: String, code: Int) async throws {
            let media: LoopbackHTTPServer.Response = switch failure {
            case "hang": .hang
            default: LoopbackHTTPServer.Response(status: Int(failure)!, contentType: "text/plain", body: Data("no".utf8))
            }
            let server = try await Self.server(media: media)
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(try await Self.render(server, output: output, cache: dir.path("cache"),
                                                                           extra: ["--media-timeout", "1", "--send-beacons"]))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("ads: 0 played, 0 skipped, 1 failed"), "\(result.standardOutput)")
            let errors = try Self.events(output + ".events.jsonl").filter { $0["type"] as? String == "AD_ERROR" }
            #expect(errors.map { $0["code"] as? Int } == [code])
            #expect((errors.first?["message"] as? String)?.hasPrefix("media \(server.baseURL.absoluteString)/ad.mp4: ") == true)
            // The ad server hears of it through the ad's Error URL, with the code.
            #expect(server.requests(for: "/error").map(\.target) == ["/error?code=\(code)"])
            let verify = try await PipctlProcess.run(["verify", output])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
        }

        @Test func ctrlCWhileTheRenderWaitsForMediaStopsAtOnceAndLeavesNothing() async throws {
            let server = try await Self.server(media: .hang)
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let out = try dir.subdirectory("out") + "/out.mp4"
            let job = try PipctlProcess(try await Self.render(server, output: out, cache: dir.path("cache"),
                                                              extra: ["--media-timeout", "3600", "--send-beacons"]))
            try await waitUntil("the render is waiting for its pre-roll's media") {
                !server.requests(for: "/ad.mp4").isEmpty && dir.entries(in: "out").contains { $0.hasSuffix(".tmp") }
            }
            job.send(SIGINT)
            // The media timeout is an hour: only the signal can end the wait (the watchdog is a bound against a hang).
            let result = try await job.result(timeout: .seconds(300))
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 130)
            #expect(result.errorLines == ["pipctl render: interrupted (SIGINT)"])
            #expect(dir.entries(in: "out") == [])
            // Stopping the run is not the ad's failure: no error beacon tells the ad server otherwise.
            #expect(server.requests(for: "/error").isEmpty)
        }

        @Test func twoRendersSharingOneCacheAtOnceBothPlayTheAdFromOneDownload() async throws {
            // Slow enough that the second render asks while the first is still downloading.
            let media = try await Self.adA()
            let server = try await Self.server(media: try await Self.adA(delivery: .drip(chunk: max(1, media.body.count / 10),
                                                                                         interval: .milliseconds(50))))
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let cache = dir.path("cache")
            let first = try PipctlProcess(try await Self.render(server, output: dir.path("one.mp4"), cache: cache))
            let second = try PipctlProcess(try await Self.render(server, output: dir.path("two.mp4"), cache: cache))
            let results = [try await first.result(), try await second.result()]
            for result in results {
                #expect(result.exitStatus == 0, "\(result.standardError)")
                #expect(result.standardOutput.contains("ads: 1 played, 0 skipped, 0 failed"), "\(result.standardOutput)")
            }
            #expect(server.requests(for: "/ad.mp4").count == 1)
            #expect(try await PipctlProcess.run(["verify", dir.path("two.mp4")]).exitStatus == 0)
        }

        @Test func playEmitsADBufferingWhileItWaitsForAnAdsMedia() async throws {
            let media = try await Self.adA()
            let server = try await Self.server(media: try await Self.adA(delivery: .drip(chunk: max(1, media.body.count / 10),
                                                                                         interval: .milliseconds(50))))
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run([
                "play", "--content", try await TestClip.content.path, "--ads", server.baseURL.absoluteString + "/vast.xml",
                "--media-cache", dir.path("cache"), "--speed", "8",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let events = try result.standardOutput.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            let types = events.compactMap { $0["type"] as? String }
            let buffering = try #require(types.firstIndex(of: "AD_BUFFERING"), "\(types)")
            #expect(types[buffering + 1] == "LOADED")
            #expect(events[buffering]["url"] as? String == server.baseURL.absoluteString + "/ad.mp4")
            #expect(types.contains("COMPLETE"))
        }
    }
}
