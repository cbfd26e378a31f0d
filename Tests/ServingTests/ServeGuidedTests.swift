import Foundation
import LoopbackServer
import Serving
import Testing

/// Guided mode (HLS Interstitials): the primary playlists are the content's, the same bytes for every viewer, with
/// each break an interstitial; each viewer's ads come in the asset list the player asks for, as HLS whose segments
/// send the beacons. Against the real server, a loopback ad server, the ffmpeg tool and PyPI's `m3u8`.
@Suite struct ServeGuidedTests {
    /// The mid-roll's offset: 5.530 s is 132.72 frames at the origin's 24 fps, so the nearest frame is 133
    /// (5.5417 s), where stitched mode would cut.
    static let midrollOffset = "00:00:05.530"
    static let midrollFrame = 133

    /// A VMAP with a pre-roll, the mid-roll and a post-roll, each one inline ad `id` (media `/media/ID.mp4`, beacons
    /// under `/beacon/ID/`).
    static func vmap(adServer: URL, ad id: String, seconds: Int) -> String {
        func vast() -> String {
            """
            <VAST version="4.0"><Ad id="\(id)"><InLine><AdSystem>test</AdSystem><AdTitle>\(id)</AdTitle>
            <Impression><![CDATA[\(adServer)/beacon/\(id)/impression]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:0\(seconds).000</Duration>
            <TrackingEvents>\(["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                "<Tracking event=\"\($0)\"><![CDATA[\(adServer)/beacon/\(id)/\($0)]]></Tracking>"
            }.joined())</TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[\(adServer)/media/\(id).mp4]]></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        }
        let breaks = [("start", "pre"), (midrollOffset, "mid"), ("end", "post")].map { offset, name in
            "<vmap:AdBreak timeOffset=\"\(offset)\" breakType=\"linear\" breakId=\"\(name)\"><vmap:AdSource id=\"\(name)\"><vmap:VASTAdData>\(vast())</vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>"
        }
        return "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">\n" + breaks.joined(separator: "\n") + "\n</vmap:VMAP>"
    }

    /// 2 s of solid blue: 48 frames at the origin's 24 fps.
    static func blueAd() throws -> String { try ServeStitchTests.solidAd("blue", seconds: 2, tone: 500) }

    /// A stitching server whose ad server answers `/vmap/GENRE`: the red ad (3 s) for `news`, the blue (2 s) for
    /// `sport`, at the same places.
    static func harness(cache: String, wait: Duration = .seconds(600), adServer: LoopbackHTTPServer? = nil,
                        origin: String? = nil) throws -> ServeHarness {
        let harness = try ServeHarness(adsPath: "/vmap/[player_params.genre]", stitchCache: cache, stitchWait: wait, adServer: adServer,
                                       origin: origin)
        let base = harness.adServer.baseURL
        harness.adServer.route("/vmap/news", .xml(vmap(adServer: base, ad: "red", seconds: 3)))
        harness.adServer.route("/vmap/sport", .xml(vmap(adServer: base, ad: "blue", seconds: 2)))
        harness.adServer.route("/media/red.mp4", .file(URL(fileURLWithPath: try ServeStitchTests.adMedia()), contentType: "video/mp4"))
        harness.adServer.route("/media/blue.mp4", .file(URL(fileURLWithPath: try blueAd()), contentType: "video/mp4"))
        return harness
    }

    /// Starts a guided session (`"mode": "guided"`) and returns its id.
    static func guidedSession(_ harness: ServeHarness, genre: String = "news", content: String = "show/master.m3u8") async throws -> String {
        let response = try await harness.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"],
                                                 body: #"{"content": "\#(content)", "mode": "guided", "params": {"genre": "\#(genre)"}}"#)
        guard response.status == 201, let id = harness.json(response)["sessionId"] as? String else {
            throw ServeTestFailure("POST /v1/sessions answered \(response.status): \(response.text)")
        }
        return id
    }

    /// The media playlists' URLs a session's multivariant playlist lists.
    static func variants(_ harness: ServeHarness, _ id: String) async throws -> [String] {
        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8")
        try #require(master.status == 200, "\(master.text)")
        return master.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// Interstitial `id`'s `X-ASSET-LIST` in `playlist`, with `{$session}` replaced as the player replaces it (the
    /// playlist's `EXT-X-DEFINE:QUERYPARAM="session"`, from the playlist's own URL) and the player's
    /// `_HLS_primary_id` added.
    static func assetListURL(_ playlist: String, interstitial id: String, session: String) throws -> String {
        let line = try #require(playlist.split(separator: "\n").first { $0.hasPrefix("#EXT-X-DATERANGE:") && $0.contains("ID=\"\(id)\"") })
        let start = try #require(line.range(of: "X-ASSET-LIST=\"")).upperBound
        let end = try #require(line[start...].firstIndex(of: "\""))
        return line[start..<end].replacingOccurrences(of: "{$session}", with: session) + "?_HLS_primary_id=4F1B2C3D"
    }

    static func assets(_ harness: ServeHarness, _ url: String) async throws -> [[String: Any]] {
        let answer = try await harness.request("GET", url)
        try #require(answer.status == 200, "\(url): \(answer.status) \(answer.text)")
        #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(answer.headers["cache-control"] == "no-store")
        return try #require(harness.json(answer)["ASSETS"] as? [[String: Any]], "\(answer.text)")
    }

    @Test func everyViewersPrimaryPlaylistsAreTheSameBytesAndTheirAssetListsTheirOwn() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let news = try await Self.guidedSession(harness, genre: "news")
        let sport = try await Self.guidedSession(harness, genre: "sport")
        let newsVariants = try await Self.variants(harness, news), sportVariants = try await Self.variants(harness, sport)
        #expect(newsVariants.count == 2)
        // The URLs differ by the session parameter only.
        #expect(newsVariants.map { $0.replacingOccurrences(of: "session=\(news)", with: "session=ID") }
            == sportVariants.map { $0.replacingOccurrences(of: "session=\(sport)", with: "session=ID") }, "\(newsVariants) \(sportVariants)")
        #expect(newsVariants.allSatisfy { $0.hasPrefix("/v1/guided/show/master.m3u8/") && $0.hasSuffix("&session=\(news)") })
        var primaries: [String] = []
        for (mine, theirs) in zip(newsVariants, sportVariants) {
            let a = try await harness.request("GET", mine), b = try await harness.request("GET", theirs)
            #expect(a.status == 200 && b.status == 200)
            // Byte for byte, naming neither session: a CDN keeps one copy.
            #expect(a.body == b.body)
            #expect(!a.text.contains(news) && !b.text.contains(sport))
            #expect(a.headers["cache-control"] == "public, max-age=3600")
            #expect(a.text.contains("#EXT-X-DEFINE:QUERYPARAM=\"session\"") && a.text.contains("#EXT-X-VERSION:11"))
            primaries.append(a.text)
        }
        // The mid-roll's asset lists: each viewer's ad server answer.
        let red = try await Self.assets(harness, try Self.assetListURL(primaries[0], interstitial: "break-1", session: news))
        let blue = try await Self.assets(harness, try Self.assetListURL(primaries[0], interstitial: "break-1", session: sport))
        try #require(red.count == 1 && blue.count == 1, "\(red) \(blue)")
        #expect(red[0]["DURATION"] as? Double == 3 && blue[0]["DURATION"] as? Double == 2)
        #expect(red[0]["URI"] as? String == "/v1/sessions/\(news)/assets/1/0/master.m3u8")
        #expect(blue[0]["URI"] as? String == "/v1/sessions/\(sport)/assets/1/0/master.m3u8")
        func beaconURLs(_ asset: [String: Any]) -> [String] {
            let signalling = asset["X-AD-CREATIVE-SIGNALING"] as? [String: Any]
            let slot = (signalling?["payload"] as? [[String: Any]])?.first
            return (slot?["tracking"] as? [[String: Any]] ?? []).flatMap { $0["urls"] as? [String] ?? [] }
        }
        #expect(beaconURLs(red[0]).count == 6 && beaconURLs(red[0]).allSatisfy { $0.contains("/beacon/red/") }, "\(red)")
        #expect(beaconURLs(blue[0]).count == 6 && beaconURLs(blue[0]).allSatisfy { $0.contains("/beacon/blue/") }, "\(blue)")
        // The ad server was asked once per viewer, each with its own parameter.
        #expect(harness.adServer.requests(for: "/vmap/news").count == 1 && harness.adServer.requests(for: "/vmap/sport").count == 1)
    }

    /// Reads each media playlist (the arguments) with PyPI's `m3u8`: the model (segments, program date time, date
    /// ranges) and the parser's raw attributes (it keeps `CUE` there only).
    static let script = #"""
    import json, sys, datetime
    import m3u8

    out = []
    for path in sys.argv[1:]:
        text = open(path).read()
        playlist = m3u8.loads(text)
        raw = [r for s in m3u8.parse(text)["segments"] for r in s.get("dateranges", [])]
        epoch = playlist.segments[0].program_date_time
        ranges = []
        for segment in playlist.segments:
            for d in segment.dateranges:
                start = datetime.datetime.fromisoformat(d.start_date.replace("Z", "+00:00"))
                attributes = dict(d.x_client_attrs)
                cue = [r.get("cue") for r in raw if r["id"] == d.id]
                ranges.append({"id": d.id, "class": d.class_, "startAfterProgramDateTime": (start - epoch).total_seconds(),
                               "assetList": attributes.get("x_asset_list"), "resumeOffset": attributes.get("x_resume_offset"),
                               "restrict": attributes.get("x_restrict"), "cue": cue[0] if cue else None})
        out.append({"programDateTime": epoch.isoformat() if epoch else None, "uris": [s.uri for s in playlist.segments],
                    "durations": [s.duration for s in playlist.segments], "dateranges": ranges, "endList": playlist.is_endlist})
    print(json.dumps(out))
    """#

    @Test(.enabled(if: ServeParserTests.canRead, "needs python3's m3u8 (scripts/setup --for-tests)"))
    func m3u8ReadsEachInterstitialAtItsBreaksFrameWithPreAndPostCues() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let id = try await Self.guidedSession(harness)
        let files = try TemporaryDirectory()
        var paths: [String] = []
        for (n, url) in try await Self.variants(harness, id).enumerated() {
            let response = try await harness.request("GET", url)
            try #require(response.status == 200, "\(url): \(response.status)")
            paths.append(try files.write("\(n).m3u8", response.text))
        }
        let output = try PythonScript.run(Self.script, arguments: paths)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "\(output)")
        try #require(read.count == 2)
        for (rendition, playlist) in read.enumerated() {
            // The content's own segments, as they are, from the fixed epoch.
            #expect(playlist["uris"] as? [String] == ["/v1/origin/show/v\(rendition)/seg0.ts", "/v1/origin/show/v\(rendition)/seg1.ts"])
            #expect(playlist["durations"] as? [Double] == [4, 4])
            #expect((playlist["programDateTime"] as? String)?.hasPrefix("2000-01-01T00:00:00") == true, "\(playlist)")
            #expect(playlist["endList"] as? Bool == true)
            let ranges = try #require(playlist["dateranges"] as? [[String: Any]])
            #expect(ranges.map { $0["id"] as? String } == ["break-0", "break-1", "break-2"], "\(ranges)")
            guard ranges.count == 3 else { continue }
            for (b, range) in ranges.enumerated() {
                #expect(range["class"] as? String == "com.apple.hls.interstitial")
                #expect(range["assetList"] as? String == "\"/v1/sessions/{$session}/assets/\(b).json\"")
                #expect(range["resumeOffset"] as? String == "0")
                #expect(range["restrict"] as? String == "\"SKIP,JUMP\"")
            }
            // The pre-roll at the start, the mid-roll at its frame (to the millisecond START-DATE holds, and to the
            // frame), the post-roll at the content's end (192 frames: 8 s).
            let starts = ranges.map { $0["startAfterProgramDateTime"] as? Double ?? -1 }
            #expect(starts[0] == 0 && starts[2] == 8, "\(starts)")
            #expect(abs(starts[1] - Double(Self.midrollFrame) / 24) < 0.001, "\(starts[1])")
            #expect(Int((starts[1] * 24).rounded()) == Self.midrollFrame)
            #expect(ranges.map { $0["cue"] as? String } == ["\"PRE\"", nil, "\"POST\""], "\(ranges)")
        }
    }

    @Test func anMP4sPrimaryListsTheSegmentsTheServerPackagedWithItsInterstitials() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache, origin: try ServeStitchTests.mp4Origin())
        let id = try await Self.guidedSession(harness, content: "movie.mp4")
        let variants = try await Self.variants(harness, id)
        #expect(variants.count == 1 && variants.first?.hasPrefix("/v1/guided/movie.mp4/0.m3u8?breaks=") == true, "\(variants)")
        let primary = try await harness.request("GET", try #require(variants.first))
        let segments = ServeStitchTests.segments(primary.text)
        #expect(segments.count >= 2 && segments.allSatisfy { $0.uri.hasPrefix("/v1/cache/packaged/") }, "\(primary.text)")
        #expect(abs(segments.map(\.duration).reduce(0, +) - 8) < 0.001)
        let starts = primary.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-DATERANGE:") }.compactMap { line in
            line.range(of: "START-DATE=\"").map { String(line[$0.upperBound...].prefix(24)) }
        }
        #expect(starts == ["2000-01-01T00:00:00.000Z", "2000-01-01T00:00:05.542Z", "2000-01-01T00:00:08.000Z"], "\(starts)")
        let assets = try await Self.assets(harness, try Self.assetListURL(primary.text, interstitial: "break-1", session: id))
        #expect(assets.count == 1 && assets.first?["DURATION"] as? Double == 3, "\(assets)")
    }

    @Test func anAssetListsAdsPlayToTheirEndOverHTTP() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let id = try await Self.guidedSession(harness)
        let primary = try await harness.request("GET", try Self.variants(harness, id)[0])
        for b in 0..<3 {
            let assets = try await Self.assets(harness, try Self.assetListURL(primary.text, interstitial: "break-\(b)", session: id))
            try #require(assets.count == 1, "break \(b): \(assets)")
            #expect(assets[0]["DURATION"] as? Double == 3)
            let uri = try #require(assets[0]["URI"] as? String)
            // The asset (its multivariant playlist: the ffmpeg tool takes its first rendition) and each rendition's
            // playlist decode to the ad's 72 frames, every one red.
            var inputs = [uri]
            if b == 1 { inputs += ["/v1/sessions/\(id)/assets/1/0/0.m3u8", "/v1/sessions/\(id)/assets/1/0/1.m3u8"] }
            for input in inputs {
                let frames = try await ServeStitchTests.greyFrames("http://127.0.0.1:\(harness.port)\(input)")
                #expect(frames.count == ServeStitchTests.adFrames, "\(input): \(frames.count) frames")
                #expect(frames.allSatisfy { (70...95).contains(Int($0[18 * 64 + 32])) }, "\(input) is not the red ad")
            }
        }
        let master = try await harness.request("GET", "/v1/sessions/\(id)/assets/1/0/master.m3u8")
        #expect(master.text.contains("RESOLUTION=640x360") && master.text.contains("RESOLUTION=320x180"))
        // The segments of one rendition's ad, through the beacon route, lasting the asset's DURATION.
        let media = ServeStitchTests.segments(try await harness.request("GET", "/v1/sessions/\(id)/assets/1/0/1.m3u8").text)
        #expect(media.allSatisfy { $0.uri.hasPrefix("/v1/sessions/\(id)/ads/1/1/0/seg") })
        #expect(abs(media.map(\.duration).reduce(0, +) - 3) < 0.001)
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/assets/1/4/master.m3u8").status == 404)
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/assets/9.json").status == 404)
    }

    @Test func eachBeaconIsSentOnceWhenTheAssetsSegmentHoldingItIsRequested() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // One mid-roll of the red ad, whose beacons `ServeStitchTests.waitForBeacons` counts: 6 s, two segments of the
        // content's 4 s.
        let harness = try ServeStitchTests.harness(cache: cache, adSeconds: 6)
        let id = try await Self.guidedSession(harness)
        let primary = try await harness.request("GET", try Self.variants(harness, id)[0])
        let assets = try await Self.assets(harness, try Self.assetListURL(primary.text, interstitial: "break-0", session: id))
        try #require(assets.count == 1)
        // The signalling gives each beacon's offset into the ad, for players that send their own.
        let slot = try #require(((assets[0]["X-AD-CREATIVE-SIGNALING"] as? [String: Any])?["payload"] as? [[String: Any]])?.first)
        let offsets = Dictionary((slot["tracking"] as? [[String: Any]] ?? []).map { ($0["type"] as? String ?? "", $0["offset"] as? Double ?? -1) },
                                 uniquingKeysWith: { a, _ in a })
        #expect(offsets == ["impression": 0, "start": 0, "firstQuartile": 1.5, "midpoint": 3, "thirdQuartile": 4.5, "complete": 6])
        #expect(slot["type"] as? String == "linear" && slot["duration"] as? Double == 6)
        let uri = try #require(assets[0]["URI"] as? String)
        #expect(try await harness.request("GET", uri).status == 200)
        var ads: [[String]] = [[], []]
        for r in 0..<2 {
            ads[r] = ServeStitchTests.segments(try await harness.request("GET", "/v1/sessions/\(id)/assets/0/0/\(r).m3u8").text).map(\.uri)
            #expect(ads[r].count == 2, "\(ads[r])")
        }
        #expect(harness.adServer.requests(for: "/beacon/red/impression").isEmpty, "a playlist or asset list sent a beacon")

        // Segment 0 holds frames 0–119 of 180: the impression, start, first quartile (45) and midpoint (90).
        let sentFirst = ContinuousClock.now
        let first = try await harness.request("GET", ads[0][0], headers: ["User-Agent": "Viewer/1.0"])
        #expect(first.status == 302 && first.headers["location"]?.hasPrefix("/v1/cache/ads/") == true)
        let early = try await ServeStitchTests.waitForBeacons(harness.adServer, count: 4)
        #expect(early.map(\.event).sorted() == ["firstQuartile", "impression", "midpoint", "start"])
        #expect(early.allSatisfy { $0.request.arrival > sentFirst })
        #expect(early.allSatisfy { $0.request.headers["x-device-user-agent"] == "Viewer/1.0" })
        // Again, and the other rendition's: nothing more. Segment 1: the third quartile and complete.
        #expect(try await harness.request("GET", ads[0][0]).status == 302)
        #expect(try await harness.request("GET", ads[1][0]).status == 302)
        let sentSecond = ContinuousClock.now
        #expect(try await harness.request("GET", ads[0][1]).status == 302)
        let all = try await ServeStitchTests.waitForBeacons(harness.adServer, count: 6)
        #expect(all.map(\.event).sorted() == ServeStitchTests.beaconEvents.sorted())
        #expect(all.filter { ["thirdQuartile", "complete"].contains($0.event) }.allSatisfy { $0.request.arrival > sentSecond })
        #expect(try await harness.request("GET", ads[1][1]).status == 302)
        // Another viewer's first segment sends its own four; ours are not sent again.
        let other = try await Self.guidedSession(harness)
        let otherPrimary = try await harness.request("GET", try Self.variants(harness, other)[1])
        _ = try await Self.assets(harness, try Self.assetListURL(otherPrimary.text, interstitial: "break-0", session: other))
        #expect(try await harness.request("GET", "/v1/sessions/\(other)/ads/1/0/0/" + (ads[1][0].split(separator: "/").last ?? "")).status == 302)
        #expect(try await ServeStitchTests.waitForBeacons(harness.adServer, count: 10).count == 10)
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/ads/0/0/0/seg00009.ts").status == 404)
    }

    @Test func anAdNotReadyWithinTheWaitIsLeftOutOfTheAssetListAndBuiltForTheNextViewer() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let impatient = try Self.harness(cache: cache, wait: .zero)
        let first = try await Self.guidedSession(impatient)
        let primary = try await impatient.request("GET", try Self.variants(impatient, first)[0])
        let none = try await Self.assets(impatient, try Self.assetListURL(primary.text, interstitial: "break-1", session: first))
        #expect(none.isEmpty, "\(none)")
        // Its ad's playlists are not there either.
        #expect(try await impatient.request("GET", "/v1/sessions/\(first)/assets/1/0/master.m3u8").status == 404)
        // The builds go on (the red ad for both renditions); the next viewer gets the ad.
        let deadline = ContinuousClock.now + .seconds(600)
        func built() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/ads")) ?? [])
                .filter { FileManager.default.fileExists(atPath: cache + "/ads/" + $0 + "/entry.json") }.count
        }
        while built() < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let patient = try Self.harness(cache: cache, adServer: impatient.adServer)
        let next = try await Self.guidedSession(patient)
        let assets = try await Self.assets(patient, try Self.assetListURL(primary.text, interstitial: "break-1", session: next))
        #expect(assets.count == 1 && assets.first?["DURATION"] as? Double == 3, "\(assets)")
        #expect(impatient.adServer.requests(for: "/media/red.mp4").count == 1)
    }

    @Test func theModeIsChosenPerSessionAndABadOneRefused() async throws {
        // `[player_params.mode]`: the ad request shows that `mode` is not passed on as a player parameter.
        let harness = try ServeHarness(adsPath: "/vmap/[player_params.mode]")
        for (body, message) in [(#"{"content": "show/master.m3u8", "mode": "hybrid"}"#, "$.mode: \"hybrid\" is not a mode"),
                                (#"{"content": "show/master.m3u8", "mode": 1}"#, "$.mode: not a string")] {
            let refused = try await harness.request("POST", "/v1/sessions", body: body)
            #expect(refused.status == 400)
            #expect(((harness.json(refused)["error"] as? [String: Any])?["message"] as? String)?.hasPrefix(message) == true, "\(refused.text)")
        }
        let badQuery = try await harness.request("GET", "/v1/master/show/master.m3u8?mode=hybrid")
        #expect(badQuery.status == 400 && badQuery.text.contains("query.mode"), "\(badQuery.text)")

        let implicit = try await harness.request("GET", "/v1/master/show/master.m3u8?mode=guided&genre=news")
        #expect(implicit.status == 200)
        let variants = implicit.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(variants.count == 2 && variants.allSatisfy { $0.hasPrefix("/v1/guided/show/master.m3u8/") && $0.contains("?breaks=") })
        #expect(harness.adServer.requests(for: "/vmap/").count == 1 && harness.adServer.requests(for: "/vmap/guided").isEmpty)
        let id = try #require(variants.first?.split(separator: "=").last.map(String.init))
        // A guided session has no stitched playlists; its primaries need their session and their breaks.
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8").status == 404)
        let primary = try await harness.request("GET", variants[0])
        #expect(primary.status == 200 && primary.text.contains("#EXT-X-PROGRAM-DATE-TIME:2000-01-01T00:00:00.000Z"))
        #expect(try await harness.request("GET", variants[0].replacingOccurrences(of: "?breaks=", with: "?breaks=0")).status == 404)
        #expect(try await harness.request("GET", String(variants[0].prefix { $0 != "?" })).status == 400)
        #expect(try await harness.request("GET", variants[0].replacingOccurrences(of: "/show/master.m3u8/", with: "/show/other.m3u8/")).status == 404)

        for name in ["x.json", "-1.json", "01.json", "0.m3u8"] {
            #expect(try await harness.request("GET", "/v1/sessions/\(id)/assets/\(name)").status == 404, "\(name)")
        }
        // Its tracking document says why nothing is stitched.
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect((tracking["notes"] as? [String])?.contains { $0.contains("guided session") } == true, "\(tracking)")

        // Stitched stays the default, and has no asset lists.
        let stitched = try await harness.session()
        #expect(try await Self.variants(harness, stitched) == ["/v1/sessions/\(stitched)/0.m3u8", "/v1/sessions/\(stitched)/1.m3u8"])
        #expect(try await harness.request("GET", "/v1/sessions/\(stitched)/assets/0.json").status == 404)
    }
}
