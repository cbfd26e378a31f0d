import Foundation
import HTTPServing
import LoopbackServer
import MediaCore
import Serving
import Testing

/// Servers started with one secret and one cache directory, as instances behind a load balancer: any of them
/// answers any viewer, and one started later does too. Each is a real `HTTPServer` with its own `ServeResponder`.
@Suite struct ServeSharedSessionTests {
    static let secret = ServeSecret(key: Array("the instances' shared secret: 32 bytes or more".utf8))

    /// Server A and server B, sharing `cache`, the secret and one ad server (whose requests the tests count).
    static func pair(cache: String, maximumSessions: Int = 100_000, adSeconds: Int = 3) throws -> (ServeHarness, ServeHarness) {
        let a = try ServeStitchTests.harness(cache: cache, secret: secret, maximumSessions: maximumSessions, adSeconds: adSeconds)
        return (a, try ServeStitchTests.harness(cache: cache, adServer: a.adServer, secret: secret, adSeconds: adSeconds))
    }

    /// The one session folder in `cache/sessions/`: its nonce.
    static func nonce(_ cache: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: cache + "/sessions").filter { !$0.hasPrefix(".") }
        return try #require(names.count == 1 ? names.first : nil, "\(names)")
    }

    @Test func aSessionMadeOnOneServerIsServedByAnotherAndByOneStartedLaterTheSameBytes() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (a, b) = try Self.pair(cache: cache)
        let id = try await a.session()
        #expect(id.utf8.count > 32 && id.contains("."), "not a token: \(id)")
        var fromA: [String: [UInt8]] = [:]
        for name in ["master.m3u8", "0.m3u8", "1.m3u8", "tracking"] {
            let answer = try await a.request("GET", "/v1/sessions/\(id)/\(name)")
            #expect(answer.status == 200, "\(name): \(answer.text)")
            fromA[name] = answer.body
        }
        #expect(String(decoding: fromA["0.m3u8"] ?? [], as: UTF8.self).contains("/v1/sessions/\(id)/ads/0/0/0/"))
        #expect(b.responder.sessions.count == 0)
        for name in ["master.m3u8", "0.m3u8", "1.m3u8"] {
            let answer = try await b.request("GET", "/v1/sessions/\(id)/\(name)")
            #expect(answer.status == 200, "\(name): \(answer.text)")
            #expect(answer.body == fromA[name], "\(name) from B:\n\(answer.text)")
        }
        #expect(b.responder.sessions.count == 1)
        // One decision for both: the ad server was asked once, with the session's nonce as its id.
        let asked = a.adServer.requests(for: "/vmap")
        #expect(asked.count == 1)
        let nonce = try Self.nonce(cache)
        #expect(asked.first?.target.contains("sid=\(nonce)&") == true)
        #expect(!id.contains(nonce))
        // The stream from B decodes with the ad at its exact frame.
        let stitched = try await ServeStitchTests.greyFrames("http://127.0.0.1:\(b.port)/v1/sessions/\(id)/0.m3u8")
        let content = try await ServeStitchTests.greyFrames(try ServeFixture.origin() + "/show/v0/index.m3u8")
        #expect(stitched.count == ServeFixture.frames + ServeStitchTests.adFrames)
        if stitched.count == ServeFixture.frames + ServeStitchTests.adFrames { ServeStitchTests.expectTheCut(stitched: stitched, content: content) }
        // A server started since ("restarted") serves it too, the same bytes, without asking the ad server.
        let c = try ServeStitchTests.harness(cache: cache, adServer: a.adServer, secret: Self.secret)
        for name in ["master.m3u8", "1.m3u8", "0.m3u8"] {
            let answer = try await c.request("GET", "/v1/sessions/\(id)/\(name)")
            #expect(answer.body == fromA[name], "\(name) from C:\n\(answer.text)")
        }
        let tracking = c.json(try await c.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(tracking["sessionId"] as? String == id)
        #expect(tracking["stitched"] as? Bool == true)
        #expect(a.adServer.requests(for: "/vmap").count == 1)
    }

    @Test func eachBeaconIsSentOnceWhenTheAdsSegmentsAreRequestedFromEitherServer() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // A 6 s ad: two segments of the content's 4 s.
        let (a, b) = try Self.pair(cache: cache, adSeconds: 6)
        let id = try await a.session()
        let playlist = try await a.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let ads = ServeStitchTests.segments(playlist.text).map(\.uri).filter { $0.contains("/ads/") }
        #expect(ads.count == 2)
        guard ads.count == 2 else { return }
        // Segment 0 holds the impression, start, first quartile and midpoint; segment 1 the rest.
        #expect(try await b.request("GET", ads[0], headers: ["User-Agent": "Viewer/1.0"]).status == 302)
        #expect(try await a.request("GET", ads[0]).status == 302)
        let early = try await ServeStitchTests.waitForBeacons(a.adServer, count: 4)
        #expect(early.map(\.event).sorted() == ["firstQuartile", "impression", "midpoint", "start"])
        #expect(early.allSatisfy { $0.request.headers["x-device-user-agent"] == "Viewer/1.0" })
        #expect(try await a.request("GET", ads[1]).status == 302)
        #expect(try await b.request("GET", ads[1]).status == 302)
        let all = try await ServeStitchTests.waitForBeacons(a.adServer, count: 6)
        #expect(all.map(\.event).sorted() == ServeStitchTests.beaconEvents.sorted())
        // Again from both, and from a server started since: nothing more is claimed, so nothing more is sent.
        let c = try ServeStitchTests.harness(cache: cache, adServer: a.adServer, secret: Self.secret, adSeconds: 6)
        for server in [a, b, c, b, a] {
            for uri in ads { #expect(try await server.request("GET", uri).status == 302) }
        }
        let folder = cache + "/sessions/" + (try Self.nonce(cache))
        let markers = try String(contentsOfFile: folder + "/beacons", encoding: .utf8).split(separator: "\n").map(String.init)
        // One line per moment of the ad (creativeView's too, though this ad has no URL for it), in one file.
        #expect(markers.sorted() == (ServeStitchTests.beaconEvents + ["creativeView"]).map { "0-0-\($0)" }.sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["beacons", "decision", "lock"])
        #expect(ServeStitchTests.beaconEvents.allSatisfy { a.adServer.requests(for: "/beacon/red/\($0)").count == 1 })
    }

    /// Two instances' claims of one session's beacons at once, in batches as segment requests make them: each
    /// beacon is claimed once in all, and the session's folder holds one file of them.
    @Test func eachBeaconIsClaimedOnceAmongInstancesClaimingAtOnce() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let instances = try (0..<2).map { _ in SharedSessions(try SessionSharing(secret: Self.secret, cacheDirectory: cache), idleTimeout: .seconds(600)) }
        let nonce = String(repeating: "ab", count: 16)
        let markers = (0..<40).map { "0-\($0 / 8)-event\($0 % 8)" }
        let granted = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var mine: [String] = []
                    for batch in stride(from: 0, to: markers.count, by: 5) {
                        let asked = Array(markers[batch..<(batch + 5)]).shuffled()
                        mine += zip(asked, instances[worker % 2].claim(asked, nonce)).filter(\.1).map(\.0)
                    }
                    return mine
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(granted.sorted() == markers.sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/sessions/" + nonce) == ["beacons"])
        // Asked again, none is claimed.
        #expect(instances[1].claim(markers, nonce).allSatisfy { !$0 })
    }

    @Test func aForgedTamperedTruncatedOversizedOrForeignTokenIsAnUnknownSession() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (a, b) = try Self.pair(cache: cache)
        let id = try await a.session()
        #expect(try await b.request("GET", "/v1/sessions/\(id)/master.m3u8").status == 200)
        var characters = Array(id)
        characters[12] = characters[12] == "A" ? "B" : "A"
        let tampered = String(characters)
        let stranger = try ServeStitchTests.harness(cache: cache, adServer: a.adServer,
                                                    secret: ServeSecret(key: Array("another service's secret, as long as the first".utf8)))
        func token(_ content: [String]) -> String {
            SessionToken(content: content, mode: .stitched, parameters: [:], userAgent: "", clientIP: "127.0.0.1",
                         nonce: String(repeating: "e", count: 32), created: Int64(time(nil))).signed(with: Self.secret)
        }
        let refused: [(ServeHarness, String)] = [
            (b, tampered), (b, String(id.dropLast(4))), (b, String(id.dropFirst(4))), (b, String(repeating: "A", count: 4097)),
            (stranger, id), (b, token(["..", "..", "..", "etc", "passwd"])), (b, token(["show", "missing.m3u8"])),
            (b, String(repeating: "0", count: 32)),
        ]
        for (server, bad) in refused {
            for name in ["master.m3u8", "0.m3u8", "tracking", "ads/0/0/0/seg00000.ts"] {
                let answer = try await server.request("GET", "/v1/sessions/\(bad)/\(name)")
                #expect(answer.status == 404, "\(bad.prefix(40))…/\(name): \(answer.status)")
                let error = server.json(answer)["error"] as? [String: Any]
                #expect(error?["status"] as? Int == 404 && (error?["message"] as? String)?.hasPrefix("no session ") == true, "\(answer.text)")
            }
            #expect(try await server.request("GET", "/v1/sessions/\(bad)/assets/0.json").status == 404)
        }
        #expect(b.responder.sessions.count == 1 && stranger.responder.sessions.count == 0)
        #expect(a.adServer.requests(for: "/vmap").count == 1)
    }

    @Test func aFullServerForgetsItsLeastRecentlyUsedSessionWhichAnyServerRebuilds() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (a, b) = try Self.pair(cache: cache, maximumSessions: 2)
        let first = try await a.session(), second = try await a.session()
        let firstPlaylist = try await a.request("GET", "/v1/sessions/\(first)/1.m3u8")
        #expect(try await a.request("GET", "/v1/sessions/\(second)/tracking").status == 200)
        // A third session: the server holds two, forgetting the first (least recently used), not refusing.
        let third = try await a.session()
        #expect(a.responder.sessions.count == 2)
        #expect(Set(a.responder.sessions.ids) == [second, third])
        // The first is rebuilt from its token (forgetting the second), its playlist the same bytes, its decision
        // the one recorded.
        let again = try await a.request("GET", "/v1/sessions/\(first)/1.m3u8")
        #expect(again.status == 200 && again.body == firstPlaylist.body)
        #expect(a.responder.sessions.count == 2)
        #expect(try await b.request("GET", "/v1/sessions/\(second)/1.m3u8").status == 200)
        // The third's decision, awaited (one of the two servers made it): three in all.
        #expect(try await b.request("GET", "/v1/sessions/\(third)/tracking").status == 200)
        #expect(a.adServer.requests(for: "/vmap").count == 3)
    }

    @Test func aSessionUnusedForTheIdleTimeoutIsUnknownToAServerThatDoesNotHoldIt() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let a = try ServeStitchTests.harness(cache: cache, secret: Self.secret, sessionIdleTimeout: .seconds(600))
        let id = try await a.session()
        #expect(try await a.request("GET", "/v1/sessions/\(id)/tracking").status == 200)
        let record = cache + "/sessions/" + (try Self.nonce(cache)) + "/decision"
        #expect(FileManager.default.fileExists(atPath: record))
        // Its last use, for every server, was 11 minutes ago.
        let past = time_t(time(nil) - 660)
        var times = [timeval(tv_sec: past, tv_usec: 0), timeval(tv_sec: past, tv_usec: 0)]
        #expect(utimes(record, &times) == 0)
        let b = try ServeStitchTests.harness(cache: cache, adServer: a.adServer, secret: Self.secret, sessionIdleTimeout: .seconds(600))
        #expect(try await b.request("GET", "/v1/sessions/\(id)/master.m3u8").status == 404)
    }

    @Test func aSharedSessionSilentForAMinuteLeavesMemoryAndIsRebuiltWhenAskedAgain() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let clock = ManualClock()
        let harness = try ServeHarness(stitchCache: cache, clock: clock, secret: Self.secret)
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let first = try await harness.session()
        let master = try await harness.request("GET", "/v1/sessions/\(first)/master.m3u8")
        #expect(harness.responder.sessions.memoryIdle == SessionStore.sharedMemoryIdle)
        clock.advance(by: SessionStore.sharedMemoryIdle + .seconds(1))
        // The next session made finds the first silent past the bound: memory holds the one being played.
        let second = try await harness.session()
        #expect(harness.responder.sessions.ids == [second])
        // Asked again, the first is rebuilt from its token and the shared folder: the same playlist, no new decision.
        let again = try await harness.request("GET", "/v1/sessions/\(first)/master.m3u8")
        #expect(again.status == 200 && again.body == master.body)
        #expect(Set(harness.responder.sessions.ids) == [first, second])
        // The second's decision, awaited (its tracking answers once it is made): two in all, the first's not again.
        #expect(try await harness.request("GET", "/v1/sessions/\(second)/tracking").status == 200)
        #expect(harness.adServer.requests(for: "/vmap").count == 2)
    }

    @Test func anImplicitGuidedSessionsAssetListsAreTheSameFromEitherServer() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (a, b) = try Self.pair(cache: cache)
        let master = try await a.request("GET", "/v1/master/show/master.m3u8?mode=guided&genre=drama")
        #expect(master.status == 200)
        let primary = try #require(master.text.split(separator: "\n").first { $0.hasPrefix("/v1/guided/") }.map(String.init))
        let fromA = try await a.request("GET", primary), fromB = try await b.request("GET", primary)
        #expect(fromA.status == 200 && fromB.body == fromA.body)
        let id = try #require(primary.split(separator: "session=").last.map(String.init))
        let listA = try await a.request("GET", "/v1/sessions/\(id)/assets/0.json?_HLS_primary_id=x")
        let listB = try await b.request("GET", "/v1/sessions/\(id)/assets/0.json")
        #expect(listA.status == 200 && listB.body == listA.body, "\(listA.text)\n\(listB.text)")
        let asset = (b.json(listB)["ASSETS"] as? [[String: Any]])?.first?["URI"] as? String
        #expect(asset == "/v1/sessions/\(id)/assets/0/0/master.m3u8")
        #expect(a.adServer.requests(for: "/vmap").count == 1)
        #expect(a.adServer.requests(for: "/vmap").first?.target.contains("genre=drama") == true)
    }
    @Test func aSessionWhoseTokenWouldBeOversizedIsRefusedWhenMade() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let a = try ServeStitchTests.harness(cache: cache, secret: Self.secret)
        let params = Dictionary(uniqueKeysWithValues: (0..<4).map { ("p\($0)", String(repeating: "v", count: 1000)) })
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["content": "show/master.m3u8", "params": params]), as: UTF8.self)
        let answer = try await a.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: body)
        #expect(answer.status == 400)
        let message = (a.json(answer)["error"] as? [String: Any])?["message"] as? String
        #expect(message?.hasPrefix("the session's parameters and user agent make a token of ") == true && message?.hasSuffix("(at most 4096)") == true,
                "\(answer.text)")
        #expect(a.responder.sessions.count == 0 && a.adServer.requests(for: "/vmap").isEmpty)
        // Without a secret, the same session is held in memory (its id is not a token).
        let plain = try ServeStitchTests.harness(cache: cache, adServer: a.adServer)
        let made = try await plain.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: body)
        #expect(made.status == 201)
        let id = plain.json(made)["sessionId"] as? String
        #expect(id?.utf8.count == 32 && id?.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) } == true)
    }

    @Test func makingASessionSweepsTheFoldersOfExpiredOnes() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let a = try ServeStitchTests.harness(cache: cache, secret: Self.secret, sessionIdleTimeout: .seconds(600))
        // A session another instance left: its record last used 11 minutes ago.
        let stale = cache + "/sessions/" + String(repeating: "5a", count: 16)
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: stale + "/decision", contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: stale + "/beacons", contents: Data("0-0-start\n".utf8)))
        let past = time_t(time(nil) - 660)
        var times = [timeval(tv_sec: past, tv_usec: 0), timeval(tv_sec: past, tv_usec: 0)]
        #expect(utimes(stale + "/decision", &times) == 0)
        let id = try await a.session()
        // The sweep runs in the background: its end is the folder's going.
        let deadline = ContinuousClock.now + .seconds(120)
        while FileManager.default.fileExists(atPath: stale), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!FileManager.default.fileExists(atPath: stale))
        // The new session's folder stays.
        #expect(try await a.request("GET", "/v1/sessions/\(id)/tracking").status == 200)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/sessions").filter { !$0.hasPrefix(".") }.count == 1)
    }
}
