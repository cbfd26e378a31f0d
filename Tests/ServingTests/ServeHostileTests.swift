import Foundation
import HTTPServing
import LoopbackServer
import Serving
import Testing

@Suite struct ServeHostileTests {
    @Test func pathsThatLeaveTheOriginOrNameNoSegmentAre404() async throws {
        let harness = try ServeHarness()
        for target in ["/v1/origin/../ServeFixture.swift", "/v1/origin/show/%2e%2e/%2e%2e/etc/passwd", "/v1/origin/show%2F..%2F..%2Fetc/passwd",
                       "/v1/origin/show/master.m3u8", "/v1/origin/show/v0/index.m3u8", "/v1/origin/.hidden.ts", "/v1/origin/show/v0/none.ts",
                       "/v1/master/..%2F..%2Fetc%2Fpasswd", "/v1/master/show/%2e%2e/show/master.m3u8", "/nothing"] {
            let response = try await harness.request("GET", target)
            #expect(response.status == 404, "\(target) answered \(response.status)")
            #expect(response.headers["content-type"] == "application/json")
            #expect((harness.json(response)["error"] as? [String: Any])?["status"] as? Int == 404)
        }
        let nul = try await harness.request("GET", "/v1/origin/show/v0/seg0.ts%00.txt")
        #expect(nul.status == 400)
    }

    @Test func aSymlinkOutOfTheOriginIsNotFollowed() async throws {
        let outside = try TemporaryDirectory()
        let secret = try outside.write("secret.ts", "secret")
        let origin = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: origin.file("link.ts"), withDestinationPath: secret)
        let directory = try OriginDirectory(path: origin.path)
        #expect(directory.file(["link.ts"]) == nil)
        try "inside".write(toFile: origin.file("inside.ts"), atomically: true, encoding: .utf8)
        #expect(directory.file(["inside.ts"]) != nil)
        #expect(directory.file(uri: "../x/inside.ts", relativeTo: origin.file("a.m3u8")) == nil)
        #expect(directory.file(uri: "http://example.com/inside.ts", relativeTo: origin.file("a.m3u8")) == nil)
        #expect(directory.file(uri: "/inside.ts", relativeTo: origin.file("a.m3u8")) == nil)
        #expect(directory.file(uri: "./inside.ts", relativeTo: origin.file("a.m3u8")) != nil)
    }

    @Test func badSessionBodiesAre400sNamingTheField() async throws {
        let harness = try ServeHarness()
        let cases: [(String, String)] = [
            ("{", "the body is not JSON"),
            ("[]", "$: not an object"),
            (#"{"content": 5}"#, "$.content: not a string"),
            (#"{"params": {}}"#, "$.content: is missing"),
            (#"{"content": "show/master.m3u8", "params": {"genre": 1}}"#, "$.params.genre: not a string"),
            (#"{"content": "show/master.m3u8", "params": {"bad name": "x"}}"#, "$.params: parameter name \"bad name\""),
            (#"{"content": "show/master.m3u8", "extra": 1}"#, "$.extra: not a field"),
            (String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000), "nests deeper than 4"),
        ]
        for (body, message) in cases {
            let response = try await harness.request("POST", "/v1/sessions", body: body)
            #expect(response.status == 400, "\(body.prefix(40)) answered \(response.status)")
            let error = harness.json(response)["error"] as? [String: Any]
            #expect((error?["message"] as? String)?.contains(message) == true, "\(body.prefix(40)): \(error ?? [:])")
        }
    }

    @Test func unknownContentSessionsAndMethodsGetTheirStatus() async throws {
        let harness = try ServeHarness()
        #expect(try await harness.request("POST", "/v1/sessions", body: #"{"content": "none/master.m3u8"}"#).status == 404)
        #expect(try await harness.request("GET", "/v1/sessions/0123456789abcdef0123456789abcdef/master.m3u8").status == 404)
        #expect(try await harness.request("GET", "/v1/sessions/not-an-id/tracking").status == 404)
        let wrong = try await harness.request("GET", "/v1/sessions")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "POST")
        let preflight = try await harness.request("OPTIONS", "/v1/sessions", headers: ["Origin": "http://player.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
    }

    @Test func aHugeBodyIs413() async throws {
        let harness = try ServeHarness()
        let body = #"{"content": "show/master.m3u8", "params": {"x": ""# + String(repeating: "a", count: 100_000) + #""}}"#
        let response = try await harness.request("POST", "/v1/sessions", body: body)
        #expect(response.status == 413)
    }

    @Test func aThousandSessionsAtOnceAreAllMadeAndOthersStillServed() async throws {
        let harness = try ServeHarness(decisionTimeout: .seconds(30))
        harness.adServer.route("/vmap", .xml(ServeFixture.vmap(adServer: harness.adServer.baseURL)))
        let port = harness.port
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    (try? await RawHTTPConnection.request(port: port, "POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#).status) ?? -1
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(statuses == [201: 1000])
        #expect(harness.responder.sessions.count == 1000)
        #expect(try await harness.request("GET", "/v1/master/show/master.m3u8").status == 200)
    }

    @Test func sessionsOverTheLimitAre503() async throws {
        let harness = try ServeHarness(maximumSessions: 2)
        harness.adServer.route("/vmap", .notFound)
        _ = try await harness.session()
        _ = try await harness.session()
        let refused = try await harness.request("POST", "/v1/sessions", body: #"{"content": "show/master.m3u8"}"#)
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "10")
        // The two sessions' decisions are done once their tracking answers; the refused one never asked.
        for id in harness.responder.sessions.ids { _ = try await harness.request("GET", "/v1/sessions/\(id)/tracking") }
        #expect(harness.adServer.requests(for: "/vmap").count == 2)
    }

    @Test func anAdsTemplateWithAnUnknownVariableOrNoHTTPURLIsRefusedAtStart() {
        #expect(throws: ServeSetupError("--ads: [session.secret] is not one of [session.id], [session.user_agent], [session.client_ip], [player_params.NAME]")) {
            _ = try AdRequestTemplate("http://ads.example/vmap?x=[session.secret]")
        }
        #expect(throws: ServeSetupError("--ads \"file:///etc/passwd\": not an http(s) URL")) {
            _ = try AdRequestTemplate("file:///etc/passwd")
        }
        #expect(throws: ServeSetupError("--ads: \"[\" at \"[session.id\" is not closed")) {
            _ = try AdRequestTemplate("http://ads.example/?[session.id")
        }
    }

    @Test func anOriginPlaylistThatPointsOutsideIsRefused() async throws {
        let origin = try TemporaryDirectory()
        _ = try origin.write("bad.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\n../../etc/passwd\n#EXT-X-ENDLIST\n")
        _ = try origin.write("remote.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nhttp://elsewhere.example/a.ts\n#EXT-X-ENDLIST\n")
        let reader = OriginReader(origin: try OriginDirectory(path: origin.path))
        #expect(throws: OriginContentError.unusable("bad.m3u8: segment 0 \"../../etc/passwd\" is not a file inside the origin")) {
            _ = try reader.read(["bad.m3u8"])
        }
        #expect(throws: OriginContentError.unusable("remote.m3u8: segment 0 \"http://elsewhere.example/a.ts\" is not a file inside the origin")) {
            _ = try reader.read(["remote.m3u8"])
        }
        #expect(throws: OriginContentError.notFound("no content \"none.m3u8\" under the origin")) {
            _ = try reader.read(["none.m3u8"])
        }
    }

    /// Tags a player would need and the server cannot carry over: each playlist is refused naming its line, where the
    /// reader (which skips unknown tags, as the RFC asks of players) would have served whole files for byte ranges
    /// and encrypted segments without their key.
    @Test func aPlaylistOfByteRangesEncryptedSegmentsOrGapsIsRefusedNamingItsLine() throws {
        let origin = try TemporaryDirectory()
        _ = try origin.write("seg0.ts", "")
        let head = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        let cases: [(String, String, String)] = [
            ("range.m3u8", head + "#EXTINF:4.0,\n#EXT-X-BYTERANGE:1000@0\nseg0.ts\n#EXT-X-ENDLIST\n",
             "range.m3u8: line 4: segments that are byte ranges of a file (EXT-X-BYTERANGE) are not served"),
            ("key.m3u8", head + "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
             "key.m3u8: line 3: encrypted segments (EXT-X-KEY METHOD=AES-128) are not served"),
            ("map.m3u8", head + "#EXT-X-MAP:URI=\"seg0.ts\",BYTERANGE=\"720@0\"\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
             "map.m3u8: line 3: an initialization section that is a byte range of a file (EXT-X-MAP BYTERANGE) is not served"),
            ("gap.m3u8", head + "#EXTINF:4.0,\n#EXT-X-GAP\nseg0.ts\n#EXT-X-ENDLIST\n",
             "gap.m3u8: line 4: a gap in the segments (EXT-X-GAP) is not served"),
        ]
        for (name, text, _) in cases { _ = try origin.write(name, text) }
        // A key of METHOD=NONE encrypts nothing: that playlist reads.
        _ = try origin.write("clear.m3u8", head + "#EXT-X-KEY:METHOD=NONE\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n")
        let reader = OriginReader(origin: try OriginDirectory(path: origin.path))
        for (name, _, message) in cases {
            #expect(throws: OriginContentError.unusable(message)) { _ = try reader.read([name]) }
        }
        #expect(try reader.read(["clear.m3u8"]).renditions.count == 1)
    }

    @Test func aSubtitleRenditionIsReadOnlyWhenItIsWebVTTInsideTheOriginAndItsGroupDeclared() throws {
        let origin = try TemporaryDirectory()
        _ = try origin.write("v/index.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n")
        _ = try origin.write("en/index.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nseg0.vtt\n#EXT-X-ENDLIST\n")
        _ = try origin.write("ttml/index.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4.0,\nseg0.m4s\n#EXT-X-ENDLIST\n")
        for name in ["v/seg0.ts", "en/seg0.vtt", "ttml/init.mp4", "ttml/seg0.m4s"] { _ = try origin.write(name, "") }
        func subtitles(_ uri: String, _ extra: String = "") -> String {
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"English\",LANGUAGE=\"en\"\(extra),URI=\"\(uri)\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES=\"s\"\nv/index.m3u8\n"
        }
        _ = try origin.write("good.m3u8", subtitles("en/index.m3u8", ",FORCED=NO"))
        _ = try origin.write("ttml.m3u8", subtitles("ttml/index.m3u8"))
        _ = try origin.write("outside.m3u8", subtitles("../../etc/index.m3u8"))
        _ = try origin.write("forced.m3u8", subtitles("en/index.m3u8", ",FORCED=MAYBE"))
        _ = try origin.write("nogroup.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES=\"t\"\nv/index.m3u8\n")
        let reader = OriginReader(origin: try OriginDirectory(path: origin.path))
        let good = try reader.read(["good.m3u8"])
        #expect(good.subtitles.count == 1 && good.renditions[0].subtitleGroup == "s")
        #expect(good.subtitles.first?.segmentURLs == ["/v1/origin/en/seg0.vtt"])
        #expect(good.subtitles.first?.attributes == ["LANGUAGE": "en", "FORCED": "NO"])
        let refusals = [
            ("ttml.m3u8", "ttml.m3u8: line 2: subtitle rendition \"ttml/index.m3u8\": its segments are not WebVTT files (.vtt), the only subtitles served"),
            ("outside.m3u8", "outside.m3u8: line 2: subtitle rendition \"../../etc/index.m3u8\" is not a file inside the origin"),
            ("forced.m3u8", "forced.m3u8: line 2: FORCED=MAYBE is not YES or NO"),
            ("nogroup.m3u8", "nogroup.m3u8: line 2: SUBTITLES=\"t\" names no EXT-X-MEDIA:TYPE=SUBTITLES group"),
        ]
        for (name, message) in refusals {
            #expect(throws: OriginContentError.unusable(message)) { _ = try reader.read([name]) }
        }
    }

    @Test func anAudioGroupIsReadWhenEachOfItsRenditionsHasAPlaylistInsideTheOrigin() async throws {
        let origin = try TemporaryDirectory()
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n"
        for name in ["v/index.m3u8", "en/index.m3u8", "es/index.m3u8"] { _ = try origin.write(name, media) }
        for name in ["v/seg0.ts", "en/seg0.ts", "es/seg0.ts"] { _ = try origin.write(name, "") }
        let variant = "#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO=\"a\"\nv/index.m3u8\n"
        func audio(_ uri: String, _ name: String = "en") -> String {
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"\(name)\",URI=\"\(uri)\"\n"
        }
        _ = try origin.write("one.m3u8", "#EXTM3U\n" + audio("en/index.m3u8") + variant)
        _ = try origin.write("two.m3u8", "#EXTM3U\n" + audio("en/index.m3u8") + audio("es/index.m3u8", "es") + variant)
        _ = try origin.write("outside.m3u8", "#EXTM3U\n" + audio("../../etc/passwd") + variant)
        _ = try origin.write("nogroup.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO=\"b\"\nv/index.m3u8\n")
        _ = try origin.write("video.m3u8", "#EXTM3U\n#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"s\",NAME=\"angle\",URI=\"en/index.m3u8\"\n" + variant)
        _ = try origin.write("audioonly.m3u8", "#EXTM3U\n" + audio("en/index.m3u8")
                             + "#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\",AUDIO=\"a\"\nen/index.m3u8\n"
                             + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.64001e,mp4a.40.2\",AUDIO=\"a\"\nv/index.m3u8\n")
        _ = try origin.write("inband.m3u8", "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"main\"\n" + variant)
        let reader = OriginReader(origin: try OriginDirectory(path: origin.path))
        let one = try reader.read(["one.m3u8"])
        #expect(one.renditions.count == 1 && one.renditions[0].separateAudio?.file == origin.path + "/en/index.m3u8")
        #expect(one.renditions[0].separateAudio?.segmentFiles == [origin.path + "/en/seg0.ts"])
        // An audio-only variant is left out (breaks are cut into pictures); the one with pictures takes its sound.
        let pictured = try reader.read(["audioonly.m3u8"])
        #expect(pictured.renditions.count == 1 && pictured.renditions[0].bandwidth == 800_000)
        #expect(pictured.renditions[0].separateAudio?.file == origin.path + "/en/index.m3u8")
        // A group whose sound is in the variant's own segments reads as before.
        #expect(try reader.read(["inband.m3u8"]).renditions[0].separateAudio == nil)
        // Two languages: the default (the first here) muxed into the variant, the other stitched on a rendition of
        // its own, the variant's pictures with its sound, served as sound only.
        let two = try reader.read(["two.m3u8"])
        #expect(two.renditions.count == 2 && two.variants.count == 1 && two.renditions[1].role == .soundOf(track: 1))
        #expect(two.renditions[0].separateAudio?.file == origin.path + "/en/index.m3u8" && two.renditions[1].separateAudio?.file == origin.path + "/es/index.m3u8")
        #expect(two.audioTracks.map(\.name) == ["en", "es"] && two.audioTracks.map(\.rendition) == [nil, 1])
        _ = try origin.write("inbandtwo.m3u8", "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"main\"\n" + audio("es/index.m3u8", "es") + variant)
        #expect(throws: OriginContentError.unusable("inbandtwo.m3u8: line 2: audio group \"a\" has 2 renditions, one of them in the variants' segments (no URI); a group of several is served when each has its own playlist")) {
            _ = try reader.read(["inbandtwo.m3u8"])
        }
        _ = try origin.write("twogroups.m3u8", "#EXTM3U\n" + audio("en/index.m3u8") + audio("es/index.m3u8", "es")
                             + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"b\",NAME=\"x\",URI=\"en/index.m3u8\"\n" + variant
                             + "#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO=\"b\"\nv/index.m3u8\n")
        #expect(throws: OriginContentError.unusable("twogroups.m3u8: line 2: the variants name 2 audio groups, of which \"a\" has several renditions; one group is served")) {
            _ = try reader.read(["twogroups.m3u8"])
        }
        #expect(throws: OriginContentError.unusable("outside.m3u8: line 2: audio rendition \"../../etc/passwd\" is not a file inside the origin")) {
            _ = try reader.read(["outside.m3u8"])
        }
        #expect(throws: OriginContentError.unusable("nogroup.m3u8: line 2: AUDIO=\"b\" names no EXT-X-MEDIA:TYPE=AUDIO group")) {
            _ = try reader.read(["nogroup.m3u8"])
        }
        #expect(throws: OriginContentError.unusable("video.m3u8: line 2: VIDEO renditions (EXT-X-MEDIA with a URI) are not served; audio and subtitle ones are")) {
            _ = try reader.read(["video.m3u8"])
        }
        // A server without a cache cannot mux it, and says so.
        let harness = try ServeHarness(origin: origin.path)
        let refused = try await harness.request("POST", "/v1/sessions", body: #"{"content": "one.m3u8"}"#)
        #expect(refused.status == 422)
        #expect((harness.json(refused)["error"] as? [String: Any])?["message"] as? String
            == "one.m3u8: its sound is an audio rendition of its own (EXT-X-MEDIA), which is muxed into each variant in the cache: serve it with one")
    }
}
