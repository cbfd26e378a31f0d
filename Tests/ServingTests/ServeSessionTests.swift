import Foundation
import HTTPServing
import LoopbackServer
import MediaCore
import Serving
import Testing

@Suite struct ServeSessionTests {
    @Test func aSessionAnswersItsPlaylistsAndTheContentsSegmentsAsTheyAre() async throws {
        let harness = try ServeHarness()
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let created = try await harness.request("POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#)
        #expect(created.status == 201)
        #expect(created.headers["access-control-allow-origin"] == "*")
        let answer = harness.json(created)
        let id = try #require(answer["sessionId"] as? String)
        #expect(id.count == 32)
        #expect(answer["manifestUrl"] as? String == "/v1/sessions/\(id)/master.m3u8")
        #expect(answer["trackingUrl"] as? String == "/v1/sessions/\(id)/tracking")

        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8")
        #expect(master.status == 200)
        #expect(master.headers["content-type"] == "application/vnd.apple.mpegurl")
        #expect(master.headers["cache-control"] == "no-store")
        let variants = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 2)
        #expect(variants.first?.contains("RESOLUTION=640x360") == true)
        #expect(master.text.contains("/v1/sessions/\(id)/1.m3u8"))

        let media = try await harness.request("GET", "/v1/sessions/\(id)/1.m3u8")
        #expect(media.status == 200)
        let uris = media.text.split(separator: "\n").filter { $0.hasPrefix("/v1/origin/") }
        #expect(uris == ["/v1/origin/show/v1/seg0.ts", "/v1/origin/show/v1/seg1.ts"])
        let segment = try await harness.request("GET", String(uris[0]))
        #expect(segment.status == 200)
        #expect(segment.headers["content-type"] == "video/mp2t")
        #expect(segment.headers["cache-control"] == "public, max-age=86400")
        #expect(segment.body == Array(try Data(contentsOf: URL(fileURLWithPath: harness.origin + "/show/v1/seg0.ts"))))
    }

    @Test func theAdRequestCarriesTheSessionsVariablesEncodedAndTheDeviceHeaders() async throws {
        let harness = try ServeHarness()
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let id = try await harness.session(params: ["genre": "news & sport/ü"], userAgent: "TestPlayer/2.0 (x; y)")
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect((tracking["decision"] as? [String: Any])?["outcome"] as? String == "decided")
        let request = try #require(harness.adServer.requests(for: "/vmap").first)
        #expect(request.target == "/vmap?sid=\(id)&ua=TestPlayer%2F2.0%20%28x%3B%20y%29&ip=127.0.0.1&genre=news%20%26%20sport%2F%C3%BC")
        #expect(request.headers["x-device-ip"] == "127.0.0.1")
        #expect(request.headers["x-device-user-agent"] == "TestPlayer/2.0 (x; y)")
    }

    @Test func theTrackingDocumentGivesTheDecidedBreaksAdsAndBeacons() async throws {
        let harness = try ServeHarness()
        let base = harness.adServer.baseURL
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: base)))
        let id = try await harness.session()
        let response = try await harness.request("GET", "/v1/sessions/\(id)/tracking")
        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "no-store")
        let tracking = harness.json(response)
        #expect(tracking["sessionId"] as? String == id)
        #expect(tracking["content"] as? String == "show/master.m3u8")
        #expect(tracking["stitched"] as? Bool == false)
        let breaks = try #require(tracking["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["position"] as? String } == ["preroll", "midroll"])
        #expect(breaks.map { $0["contentTime"] as? Double } == [0, 4])
        let ad = try #require((breaks[1]["ads"] as? [[String: Any]])?.first)
        #expect(ad["id"] as? String == "ad-mid")
        #expect(ad["duration"] as? Double == 5)
        #expect(ad["media"] as? String == "\(base)/media/ad-mid.mp4")
        let beacons = try #require(ad["beacons"] as? [String: [String]])
        #expect(beacons["impression"] == ["\(base)/beacon/ad-mid/impression"])
        #expect(beacons["start"] == ["\(base)/beacon/ad-mid/start"])
        #expect(beacons["complete"] == ["\(base)/beacon/ad-mid/complete"])
    }

    @Test func anAdServerThatHangsGivesTheContentWithoutAdsWithinTheDecisionTimeout() async throws {
        let harness = try ServeHarness(decisionTimeout: .milliseconds(300))
        harness.adServer.route("/vmap", .hang)
        let id = try await harness.session()
        // The playlist does not wait for the ad server.
        let media = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        #expect(media.status == 200)
        #expect(media.text.contains("/v1/origin/show/v0/seg0.ts"))
        let decision = try #require(harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))["decision"] as? [String: Any])
        #expect(decision["outcome"] as? String == "none")
        // "timed out after 0.3 s" or "the decision deadline of 0.3 s passed": whichever bound fired first.
        #expect((decision["reason"] as? String)?.contains("0.3 s") == true, "\(decision)")
    }

    @Test func anAdServerThatFailsGivesTheContentWithoutAds() async throws {
        let harness = try ServeHarness()
        harness.adServer.route("/vmap", .notFound)
        let id = try await harness.session()
        let decision = try #require(harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))["decision"] as? [String: Any])
        #expect(decision["outcome"] as? String == "none")
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8").status == 200)
    }

    @Test func anImplicitSessionAnswersItsMultivariantPlaylistDirectly() async throws {
        let harness = try ServeHarness()
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let response = try await harness.request("GET", "/v1/master/show/master.m3u8?genre=drama&other=1")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/vnd.apple.mpegurl")
        let mediaURL = try #require(response.text.split(separator: "\n").first { $0.hasPrefix("/v1/sessions/") })
        let id = String(mediaURL.split(separator: "/")[2])
        #expect(try await harness.request("GET", String(mediaURL)).status == 200)
        _ = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(harness.adServer.requests(for: "/vmap").first?.target.hasSuffix("&genre=drama") == true)
    }

    @Test func theFFmpegToolPlaysASessionOverHTTPAndDecodesEveryFrame() async throws {
        let harness = try ServeHarness()
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let id = try await harness.session()
        let port = harness.port
        // Off Swift's pool: the ffmpeg tool reads from the server under test, whose responders need it.
        let output = try await offPool { try FFmpegCommandLine.run(["-v", "error", "-i", "http://127.0.0.1:\(port)/v1/sessions/\(id)/master.m3u8",
                                                "-map", "0:v:0", "-f", "framemd5", "-"]) }
        let frames = String(decoding: output, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(frames.count == ServeFixture.frames)
    }

    @Test func anIdleSessionIsForgottenAndItsPlaceTakenAsTheClockSays() async throws {
        let clock = ManualClock()
        let harness = try ServeHarness(maximumSessions: 2, clock: clock, sessionIdleTimeout: .seconds(3600))
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let first = try await harness.session(), second = try await harness.session()
        #expect(try await harness.request("POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#).status == 503)
        clock.advance(by: .seconds(1800))
        #expect(try await harness.request("GET", "/v1/sessions/\(first)/master.m3u8").status == 200)
        clock.advance(by: .seconds(2700))
        // The second has been idle 75 minutes, the first 45.
        #expect(try await harness.request("GET", "/v1/sessions/\(second)/master.m3u8").status == 404)
        #expect(try await harness.request("GET", "/v1/sessions/\(first)/master.m3u8").status == 200)
        let third = try await harness.session()
        #expect(harness.responder.sessions.count == 2)
        clock.advance(by: .seconds(3601))
        // Both idle past the hour: a full store forgets them to make room.
        _ = try await harness.session()
        #expect(harness.responder.sessions.count == 1)
        #expect(try await harness.request("GET", "/v1/sessions/\(third)/master.m3u8").status == 404)
    }
}
