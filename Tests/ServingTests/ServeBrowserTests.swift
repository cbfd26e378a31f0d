import Foundation
import LoopbackServer
import Testing

/// A real player reads what `serve` makes: Video.js 7 (with VHS, its HLS player over Media Source Extensions) in
/// Debian's headless Chromium plays a stitched session from its first frame to its end.
@Suite struct ServeBrowserTests {
    static let chromium = "/usr/bin/chromium"

    /// `video.min.js` of PyPI's `js.videojs` 7.5.5 (`scripts/setup --for-tests`), found through the installed
    /// distribution's file list; nil when it is not installed.
    static let videoJS: String? = {
        let script = """
        import importlib.metadata as m
        d = m.distribution("js.videojs")
        print(next(str(d.locate_file(f)) for f in d.files if f.name == "video.min.js"))
        """
        guard let output = try? PythonScript.run(script) else { return nil }
        let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }()

    static var canPlay: Bool { FileManager.default.isExecutableFile(atPath: chromium) && videoJS != nil }

    /// How fast the page plays: 11 s of stream in under 3 s, while every `timeupdate` still lands inside the 3 s ad.
    static let playbackRate = 4

    /// The player's page, served from a loopback origin of its own (not the server's): every request the player
    /// makes to `serve` is cross-origin, so the session's `POST` (with its CORS preflight), the playlists, the
    /// 302 of each ad segment and the segments it leads to all go through the browser's CORS checks.
    ///
    /// - Parameters:
    ///   - content: the session's content under the origin;
    ///   - rate: how fast it plays;
    ///   - onMetadata: script run once the player has the stream's metadata (`player` and `tech` are in scope);
    ///   - onTime: script run at each `timeupdate`, after the time is noted (`player` and `tech` are in scope).
    static func page(server: Int, content: String = "show/master.m3u8", rate: Int = playbackRate, onMetadata: String = "",
                     onTime: String = "") -> String {
        """
        <!doctype html><html><head><script src="/video.min.js"></script></head><body>
        <video id="v" class="video-js" muted playsinline width="640" height="360"></video><script>
        const server = "http://127.0.0.1:\(server)", seen = [], frames = [];
        let reported = false, sessionId = null, player_ = null;
        const report = (r) => {
          if (reported) return;
          reported = true;
          r.seen = seen; r.frames = frames; r.sessionId = sessionId; r.player = player_; r.extra = window.extra || null;
          try {  // for the failure message: what the element holds and how many pictures it showed
            const el = player.tech(true).el(), b = el.buffered, q = el.getVideoPlaybackQuality();
            r.buffered = []; for (let i = 0; i < b.length; i++) r.buffered.push([b.start(i), b.end(i)]);
            r.quality = {total: q.totalVideoFrames, dropped: q.droppedVideoFrames};
          } catch (e) { r.state = String(e); }
          fetch("/result?" + encodeURIComponent(JSON.stringify(r)));
        };
        window.addEventListener("error", (e) => report({error: "page: " + e.message, ended: false}));
        // `html5.hls` is Video.js 7.5's key for VHS's options (later versions read `html5.vhs`): without
        // overrideNative, a Chromium that plays HLS itself would be the player, and VHS never run.
        const player = videojs("v", {muted: true, autoplay: true, html5: {hls: {overrideNative: true},
                                     nativeAudioTracks: false, nativeVideoTracks: false}});
        player.on("timeupdate", () => { seen.push(player.currentTime()); const tech = player.tech(true); \(onTime) });
        player.on("error", () => { const e = player.error(); report({error: e ? e.code + ": " + e.message : "error", ended: false}); });
        player.on("ended", () => report({error: null, ended: true, duration: player.duration(), currentTime: player.currentTime()}));
        // Each picture the browser presents: its media time, the mean colour of the middle of the picture and its width.
        const canvas = document.createElement("canvas"), context = canvas.getContext("2d", {willReadFrequently: true});
        canvas.width = 32; canvas.height = 18;
        const sample = (video) => video.requestVideoFrameCallback((now, frame) => {
          context.drawImage(video, 0, 0, 32, 18);
          const pixels = context.getImageData(10, 0, 12, 18).data, mean = [0, 0, 0];
          for (let i = 0; i < pixels.length; i += 4) for (let c = 0; c < 3; c++) mean[c] += pixels[i + c] / (pixels.length / 4);
          frames.push([frame.mediaTime].concat(mean.map(Math.round), [frame.width]));
          sample(video);
        });
        player.on("loadedmetadata", () => {
          const tech = player.tech(true);
          player.playbackRate(\(rate));
          // Who plays: VHS over Media Source Extensions (a blob: source), not the browser's own HLS.
          player_ = {source: tech.el().currentSrc, vhs: !!tech.hls};
          \(onMetadata)
          sample(tech.el());
          // A failure detector, not a clock the test waits on: a player whose clock has not moved for 60 s has
          // stalled for good (a refused segment makes VHS retry for ever), and says so rather than leave the test
          // to its 300 s safety net.
          let last = -1, still = 0;
          setInterval(() => {
            const now = player.currentTime();
            still = now === last ? still + 1 : 0;
            last = now;
            if (still >= 60) report({error: "stalled at " + now + " s", ended: false});
          }, 1000);
        });
        fetch(server + "/v1/sessions", {method: "POST", headers: {"Content-Type": "application/json"},
                                        body: JSON.stringify({content: "\(content)", params: {genre: "browser"}})})
          .then((r) => r.status === 201 ? r.json() : r.text().then((t) => Promise.reject("POST /v1/sessions: " + r.status + " " + t)))
          .then((s) => { sessionId = s.sessionId; player.src({src: server + s.manifestUrl, type: "application/x-mpegURL"}); })
          .catch((e) => report({error: String(e), ended: false}));
        </script></body></html>
        """
    }

    /// Plays `page` (made for `harness`'s server) in headless Chromium, from a loopback site of its own, and returns
    /// what the page reported: it reports once, when the player ends or fails (the event waited for; 300 s is a
    /// safety net).
    static func play(_ harness: ServeHarness, page: String) async throws -> [String: Any] {
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        site.route("/play.html", .init(contentType: "text/html", body: Data(page.utf8)))
        site.route("/video.min.js", .file(URL(fileURLWithPath: try #require(Self.videoJS)), contentType: "text/javascript"))
        site.route("/result", .init(contentType: "text/plain", body: Data("ok".utf8)))
        let profile = try TemporaryDirectory()

        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: Self.chromium)
        browser.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
                             "--no-first-run", "--user-data-dir=\(profile.path)", site.baseURL.appendingPathComponent("play.html").absoluteString]
        browser.standardOutput = FileHandle.nullDevice
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        defer {
            browser.terminate()
            browser.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(300)
        while site.requests(for: "/result").isEmpty, browser.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let request = try #require(site.requests(for: "/result").first, "the page reported nothing (chromium running: \(browser.isRunning))")
        let json = try #require(String(request.target.dropFirst("/result?".count)).removingPercentEncoding)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// The pictures the page noted between two times, judged by frame number at 24 fps, the two frames next to each
    /// boundary left out (this VHS shows a discontinuity's next picture up to two frames early). The page notes times
    /// to the microsecond, rounded down: 2.916666 is frame 70, two before 3 s, which a comparison in seconds took for
    /// three frames before it.
    /// A noted picture (time, mean R, G, B, width) that is the red ad's: the test ads are pure red.
    static func red(_ frame: [Double]) -> Bool { frame[1] > 150 && frame[2] < 70 && frame[3] < 70 }

    static func shown(_ frames: [[Double]], from: Double = -.infinity, to: Double = .infinity) -> [[Double]] {
        frames.filter { frame in
            let number = (frame[0] * 24).rounded()
            return number > from * 24 + 2 && number < to * 24 - 2
        }
    }

    /// What a played page must show: no error, VHS as the player, `ended` at `duration` (within two frames at 24
    /// fps), the clock seen in every ad and every run of content, and the pictures the browser presented red in each
    /// ad (two frames' slack at either end) and never in the content.
    static func expectPlayed(_ played: [String: Any], duration: Double, ads: [(Double, Double)],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(played["error"] is NSNull, "\(played)", sourceLocation: sourceLocation)
        #expect(played["ended"] as? Bool == true, sourceLocation: sourceLocation)
        let player = played["player"] as? [String: Any]
        #expect(player?["vhs"] as? Bool == true && (player?["source"] as? String)?.hasPrefix("blob:") == true, "played by \(player ?? [:])",
                sourceLocation: sourceLocation)
        let ended = try #require(played["duration"] as? Double, "\(played)", sourceLocation: sourceLocation)
        #expect(abs(ended - duration) <= 2.0 / 24, "duration \(ended)", sourceLocation: sourceLocation)
        var content: [(Double, Double)] = [], start = 0.0
        for (from, to) in ads {
            if from > start { content.append((start, from)) }
            start = to
        }
        if duration > start { content.append((start, duration)) }
        let seen = try #require(played["seen"] as? [Double], sourceLocation: sourceLocation)
        for (from, to) in ads + content {
            #expect(seen.contains { $0 > from && $0 < to }, "no time seen in \(from)–\(to): \(seen)", sourceLocation: sourceLocation)
        }
        let frames = try #require(played["frames"] as? [[Double]], sourceLocation: sourceLocation).filter { $0.count == 5 }
        for (from, to) in ads {
            let inAd = Self.shown(frames, from: from, to: to)
            #expect(inAd.count >= 3 && inAd.allSatisfy(Self.red), "in the ad at \(from)–\(to): \(inAd)", sourceLocation: sourceLocation)
        }
        for (from, to) in content {
            let pictures = Self.shown(frames, from: from, to: to)
            #expect(pictures.count >= 6 && !pictures.contains(where: Self.red), "content at \(from)–\(to): \(pictures)", sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: canPlay, "needs Debian's chromium and js.videojs's video.min.js (scripts/setup --for-tests)"))
    func videoJSPlaysAStitchedSessionToItsEnd() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache)
        let played = try await Self.play(harness, page: Self.page(server: harness.port))

        // This VHS (2019) in today's Chromium shows no new picture for up to 3 s after an EXT-X-DISCONTINUITY that
        // follows a segment with B-frames, while the sound and the clock go on (ffmpeg's own segments with a
        // DISCONTINUITY tag between them do the same): the server conditions ads without B-frames, and with them
        // this player showed 3 pictures of the 60 after the ad.
        try Self.expectPlayed(played, duration: 11, ads: [(5.5, 8.5)])
        let id = try #require(played["sessionId"] as? String)
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(tracking["stitched"] as? Bool == true, "\(tracking)")
        // The player fetched the ad's segments through the session's URLs: each beacon went out once.
        let beacons = try await ServeStitchTests.waitForBeacons(harness.adServer, count: ServeStitchTests.beaconEvents.count)
        #expect(beacons.map(\.event).sorted() == ServeStitchTests.beaconEvents.sorted())
        for event in ["impression", "start", "complete"] {
            #expect(beacons.filter { $0.event == event }.count == 1, "\(event): \(beacons.map(\.event))")
        }
        #expect(beacons.allSatisfy { $0.request.headers["x-device-user-agent"]?.contains("Chrome") == true })
    }

    /// CMAF-style content: two video-only fMP4 variants and their one audio rendition (`EXT-X-MEDIA`), which the
    /// server muxes into MPEG-TS segments with the break cut in. VHS plays it to its end, the ad in its place.
    @Test(.enabled(if: canPlay, "needs Debian's chromium and js.videojs's video.min.js (scripts/setup --for-tests)"))
    func videoJSPlaysASessionOfVariantsWithTheirOwnAudioRendition() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache, origin: try ServeStitchTests.demuxedOrigin())
        let played = try await Self.play(harness, page: Self.page(server: harness.port, content: "master.m3u8"))
        try Self.expectPlayed(played, duration: 11, ads: [(5.5, 8.5)])
    }

    /// Script for `page`: the subtitle track shown (VHS fetches a text track's segments only then), and at each
    /// `timeupdate` every cue it holds noted in `window.extra` as `[start, end, text]`.
    static let subtitlesOnMetadata = """
        const tracks = player.textTracks();
        for (let i = 0; i < tracks.length; i++) if (tracks[i].kind === "subtitles") tracks[i].mode = "showing";
        """
    static let subtitlesOnTime = """
        const tracks = player.textTracks(), cues = [];
        for (let i = 0; i < tracks.length; i++) {
          if (tracks[i].kind !== "subtitles" || !tracks[i].cues) continue;
          for (let j = 0; j < tracks[i].cues.length; j++) { const c = tracks[i].cues[j]; cues.push([c.startTime, c.endTime, c.text]); }
        }
        window.extra = {cues: cues, tracks: tracks.length};
        """

    /// Content with a WebVTT subtitle rendition: VHS plays the session to its end, the ad in its place, and shows
    /// each cue at its time in the stream: the cues before the break where they were, the one across the cut up to
    /// it and again after the ad, the rest 3 s later, and none during the ad.
    @Test(.enabled(if: canPlay, "needs Debian's chromium and js.videojs's video.min.js (scripts/setup --for-tests)"))
    func videoJSShowsTheSubtitlesAroundTheAdAtTheirTimes() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache, origin: try ServeSubtitleTests.subtitledOrigin())
        let played = try await Self.play(harness, page: Self.page(server: harness.port, content: "master.m3u8", rate: 2,
                                                                  onMetadata: Self.subtitlesOnMetadata, onTime: Self.subtitlesOnTime))
        try Self.expectPlayed(played, duration: 11, ads: [(5.5, 8.5)])
        let extra = try #require(played["extra"] as? [String: Any], "\(played)")
        let cues = try #require(extra["cues"] as? [[Any]], "\(extra)").compactMap { cue -> (Double, Double, String)? in
            guard cue.count == 3, let start = cue[0] as? Double, let end = cue[1] as? Double, let text = cue[2] as? String else { return nil }
            return (start, end, text)
        }.sorted { $0.0 < $1.0 }
        // VHS (mux.js) puts the stream's first decode time at 0: the content's first picture is decoded 2 frames
        // before it is shown (B-frames; ffprobe reads its PTS and DTS), so until the ad every picture, and with it
        // every cue, shows that much later. After the ad the content's piece starts with a picture coded without
        // B-frames. A cue is in step with its picture.
        let lead = try ServeSubtitleTests.decodeDelay(try ServeSubtitleTests.subtitledOrigin() + "/v/seg0.ts")
        #expect(abs(lead - 2.0 / 24) < 0.001, "the origin's first picture is decoded \(lead) s early")
        let expected: [(Double, Double, String)] = [(1 + lead, 2 + lead, "one"), (3 + lead, 3.9 + lead, "two"), (5 + lead, 5.5 + lead, "three"),
                                                    (8.5, 9, "three"), (9.5, 10.5, "four")]
        #expect(cues.count == expected.count, "\(cues)")
        for (cue, want) in zip(cues, expected) {
            #expect(abs(cue.0 - want.0) < 0.01 && abs(cue.1 - want.1) < 0.01 && cue.2 == want.2, "shown \(cues)")
        }
    }

    /// Content with two languages: VHS plays the session to its end with the other language chosen (its own playlist
    /// of sound only, the break cut in), the ad in its place, fetching that language's segments and not the pictures'
    /// twice.
    @Test(.enabled(if: canPlay, "needs Debian's chromium and js.videojs's video.min.js (scripts/setup --for-tests)"))
    func videoJSPlaysTheOtherLanguageWithTheAdInPlace() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache, origin: try ServeAudioTracksTests.languagesOrigin())
        let choose = """
            const tracks = player.audioTracks();
            for (let i = 0; i < tracks.length; i++) tracks[i].enabled = tracks[i].language === "es";
            window.extra = {languages: Array.from({length: tracks.length}, (_, i) => tracks[i].language)};
            """
        let onTime = """
            const tracks = player.audioTracks();
            for (let i = 0; i < tracks.length; i++) if (tracks[i].enabled) window.extra.playing = tracks[i].language;
            """
        let played = try await Self.play(harness, page: Self.page(server: harness.port, content: "master.m3u8", rate: 2,
                                                                  onMetadata: choose, onTime: onTime))
        try Self.expectPlayed(played, duration: 11, ads: [(5.5, 8.5)])
        let extra = try #require(played["extra"] as? [String: Any], "\(played)")
        #expect((extra["languages"] as? [String])?.sorted() == ["en", "es"] && extra["playing"] as? String == "es", "\(extra)")
        // The player fetched the Spanish playlist's segments as sound only, and its ad through the session's URL.
        let answered = harness.answeredPaths()
        #expect(answered.contains { $0.hasPrefix("/v1/audio/packaged/") } && answered.contains { $0.hasPrefix("/v1/audio/ads/") }, "\(answered)")
    }

    /// A session that starts with a pre-roll: the red ad, then the content (its first segment served as a copy
    /// without the sound before its first picture), the red ad again at the content's 5.5 s, and the content to its
    /// end: 14 s. VHS plays it from the ad's first frame to the end, and each beacon of each ad goes out once. This
    /// VHS shows the mid-roll's first red picture two frames early here (at 8.417 s: the content's last two pictures
    /// before the cut are not shown), the same whether the content's first piece is led by its sound or interleaved
    /// by decode time; without the pre-roll it shows it at 5.5 s to the frame (above). The ffmpeg tool's pixels
    /// (`ServeVerifyTests`' pre-roll shape) put it at the cut's exact frame.
    @Test(.enabled(if: canPlay, "needs Debian's chromium and js.videojs's video.min.js (scripts/setup --for-tests)"))
    func videoJSPlaysASessionThatStartsWithAPreRoll() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache)
        harness.adServer.route("/vmap", .xml(ServeStitchTests.vmap(adServer: harness.adServer.baseURL, preroll: true)))
        let played = try await Self.play(harness, page: Self.page(server: harness.port))
        try Self.expectPlayed(played, duration: 14, ads: [(0, 3), (8.5, 11.5)])
        let id = try #require(played["sessionId"] as? String)
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(tracking["stitched"] as? Bool == true, "\(tracking)")
        let events = ServeStitchTests.beaconEvents
        let beacons = try await ServeStitchTests.waitForBeacons(harness.adServer, count: 2 * events.count)
        #expect(beacons.map(\.event).sorted() == (events + events).sorted())
    }

    /// Script for `page`: VHS plays only the larger rendition, then, once the clock is half a second into the ad, only
    /// the smaller one (`representations()`, each with `enabled(bool)`: the new one enabled before the old one is
    /// disabled, so one is always left), noting when it switched in `window.extra`.
    static let switchOnMetadata = """
        window.only = (i) => {
          const all = tech.hls.representations().slice().sort((a, b) => b.bandwidth - a.bandwidth);
          all[i].enabled(true);
          all.forEach((r, j) => { if (j !== i) r.enabled(false); });
        };
        window.extra = {representations: tech.hls.representations().map((r) => [r.width, r.height, r.bandwidth]), switchedAt: null};
        only(0);
        """
    static let switchOnTime = """
        if (window.extra && window.extra.switchedAt === null && player.currentTime() >= 6) {
          window.extra.switchedAt = player.currentTime();
          only(1);
        }
        """

    @Test(.enabled(if: canPlay, "needs Debian's chromium and js.videojs's video.min.js (scripts/setup --for-tests)"))
    func videoJSSwitchesBetweenTwoRenditionsInsideTheAdAndPlaysBothCleanly() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache)
        // At normal speed: a starved page notes the time late, and the switch must still come inside the ad.
        let played = try await Self.play(harness, page: Self.page(server: harness.port, rate: 1, onMetadata: Self.switchOnMetadata,
                                                                  onTime: Self.switchOnTime))
        #expect(played["error"] is NSNull, "\(played)")
        #expect(played["ended"] as? Bool == true)
        let player = played["player"] as? [String: Any]
        #expect(player?["vhs"] as? Bool == true, "played by \(player ?? [:])")
        let duration = try #require(played["duration"] as? Double, "\(played)")
        #expect(abs(duration - 11) <= 2.0 / 24, "duration \(duration)")
        let extra = try #require(played["extra"] as? [String: Any], "\(played)")
        #expect((extra["representations"] as? [[Double]])?.map { $0[0] }.sorted() == [320, 640], "\(extra)")
        // The switch came inside the ad (5.5 s to 8.5 s), with time left to show the other rendition's ad.
        let switchedAt = try #require(extra["switchedAt"] as? Double, "never switched: \(extra)")
        #expect(switchedAt > 5.5 && switchedAt < 8, "switched at \(switchedAt)")

        // What the browser showed, in the order it showed them: the larger rendition's pictures, then from the switch
        // on the smaller one's, with no picture of the larger after the first of the smaller (VHS drops what it
        // buffered and fetches the other rendition from the clock's time; in runs here the first smaller picture came
        // within two frames of the switch); the red ad in both sizes between 5.5 s and 8.5 s, never before it nor
        // after it, and the content after it.
        let frames = try #require(played["frames"] as? [[Double]]).filter { $0.count == 5 }
        let widths = frames.map { Int($0[4]) }
        let firstSmall = try #require(widths.firstIndex(of: 320), "no picture of the smaller rendition: \(widths)")
        #expect(firstSmall > 0 && widths[..<firstSmall].allSatisfy { $0 == 640 } && widths[firstSmall...].allSatisfy { $0 == 320 },
                "widths in the order shown: \(frames.map { [$0[0], $0[4]] })")
        #expect(abs(frames[firstSmall][0] - switchedAt) < 0.5, "the first smaller picture at \(frames[firstSmall][0]) s, the switch at \(switchedAt) s")
        let inAd = Self.shown(frames, from: 5.5, to: 8.5)
        let before = Self.shown(frames, to: 5.5), after = Self.shown(frames, from: 8.5)
        #expect(inAd.allSatisfy(Self.red), "in the ad: \(inAd)")
        #expect(inAd.contains { $0[4] == 640 } && inAd.contains { $0[4] == 320 }, "the ad in both sizes: \(inAd.map { [$0[0], $0[4]] })")
        #expect(before.count >= 6 && !before.contains(where: Self.red), "before the ad: \(before)")
        #expect(after.count >= 6 && !after.contains(where: Self.red), "after the ad: \(after)")

        // The server's log: the player fetched content and ad segments of both renditions, each ad segment through
        // this session's URL and its 302 to that rendition's own conditioned ad.
        let id = try #require(played["sessionId"] as? String)
        let answered = Set(harness.answeredPaths())
        var conditioned: Set<String> = []
        for rendition in 0..<2 {
            let playlist = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).m3u8")
            let uris = ServeStitchTests.segments(playlist.text).map(\.uri)
            let ads = uris.filter { $0.hasPrefix("/v1/sessions/\(id)/ads/\(rendition)/") }
            let content = uris.filter { !$0.hasPrefix("/v1/sessions/") }
            #expect(ads.contains { answered.contains($0) }, "no ad segment of rendition \(rendition) fetched: \(answered.sorted())")
            #expect(content.contains { answered.contains($0) }, "no content segment of rendition \(rendition) fetched: \(answered.sorted())")
            for ad in ads.prefix(1) {
                let redirect = try await harness.request("GET", ad)
                let location = try #require(redirect.headers["location"], "\(ad): \(redirect.status)")
                conditioned.insert(String(location[..<(location.lastIndex(of: "/") ?? location.endIndex)]))
            }
        }
        // Each rendition's ad is its own conditioning, and the player fetched both.
        #expect(conditioned.count == 2 && conditioned.allSatisfy { key in answered.contains { $0.hasPrefix(key + "/") } },
                "\(conditioned) against \(answered.sorted())")
        // However many renditions the ad was fetched from, each beacon went out once.
        let beacons = try await ServeStitchTests.waitForBeacons(harness.adServer, count: ServeStitchTests.beaconEvents.count)
        #expect(beacons.map(\.event).sorted() == ServeStitchTests.beaconEvents.sorted())
    }
}
