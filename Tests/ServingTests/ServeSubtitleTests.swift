import Foundation
import LoopbackServer
import Serving
import Testing

/// Content with a WebVTT subtitle rendition: the session's multivariant playlist lists it, and its playlist has the
/// break in place: the cues up to the cut, empty segments as long as the ad's, and the cues from the cut.
@Suite struct ServeSubtitleTests {
    /// The cues of the subtitled origin, in content seconds: "three" spans the 5.5 s cue of the test VMAP.
    static let cues: [(start: Double, end: Double, text: String)] = [(1, 2, "one"), (3, 3.9, "two"), (5, 6, "three"), (6.5, 7.5, "four")]

    /// An MPEG-TS origin (8 s at 24 fps, 4 s segments, GOPs of 48) with one English WebVTT rendition of two 4 s
    /// segments, written as packagers write them: local time 0 is the first picture's presentation time
    /// (`X-TIMESTAMP-MAP`, the PTS read by ffprobe).
    static func subtitledOrigin() throws -> String {
        try TestFixtures.directory(for: "serve-subtitled-origin-v1") { directory in
            try FileManager.default.createDirectory(atPath: directory + "/v", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: directory + "/subs", withIntermediateDirectories: true)
            try ServeStitchTests.makeTSOrigin(segments: directory + "/v/seg%d.ts", playlist: directory + "/v/index.m3u8")
            // (Printed once for the program and once for the stream.)
            let start = try FFmpegCommandLine.probe(["-select_streams", "v:0", "-show_entries", "stream=start_pts", "-of", "csv=p=0",
                                                    directory + "/v/seg0.ts"]).split(separator: "\n").first.map(String.init) ?? ""
            guard Int(start) != nil else { throw ServeTestFailure("ffprobe's start_pts: \(start)") }
            func time(_ seconds: Double) -> String { String(format: "00:00:%06.3f", seconds) }
            for segment in 0..<2 {
                let lower = Double(segment * 4)
                let cues = Self.cues.filter { $0.start >= lower && $0.start < lower + 4 }
                let text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(start),LOCAL:00:00:00.000\n\n"
                    + cues.map { "\(time($0.start)) --> \(time($0.end))\n\($0.text)\n" }.joined(separator: "\n")
                try text.write(toFile: directory + "/subs/seg\(segment).vtt", atomically: true, encoding: .utf8)
            }
            try """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:4
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:4.000000,
                seg0.vtt
                #EXTINF:4.000000,
                seg1.vtt
                #EXT-X-ENDLIST

                """.write(toFile: directory + "/subs/index.m3u8", atomically: true, encoding: .utf8)
            try """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs/index.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",SUBTITLES="subs"
                v/index.m3u8

                """.write(toFile: directory + "/master.m3u8", atomically: true, encoding: .utf8)
        }
    }

    /// How long before its presentation the first picture of MPEG-TS `segment` is decoded, in seconds (its
    /// B-frames' decode delay): ffprobe's first video packet's PTS less its DTS.
    static func decodeDelay(_ segment: String) throws -> Double {
        let text = try FFmpegCommandLine.probe(["-select_streams", "v:0", "-show_entries", "packet=pts,dts", "-read_intervals", "%+#1",
                                                "-of", "csv=p=0", segment])
        let fields = text.split(separator: "\n").first?.split(separator: ",").compactMap { Double($0) } ?? []
        guard fields.count == 2 else { throw ServeTestFailure("ffprobe's first packet: \(text)") }
        return (fields[0] - fields[1]) / 90_000
    }

    /// Each discontinuity-delimited run's total length, in seconds: what a player lines two renditions up by.
    static func runs(_ playlist: String) -> [Double] {
        var runs: [Double] = [0]
        for segment in ServeStitchTests.segments(playlist) {
            if segment.tags.contains("#EXT-X-DISCONTINUITY") { runs.append(0) }
            runs[runs.count - 1] += segment.duration
        }
        return runs
    }

    @Test func theSubtitlesAreCutAtTheBreaksFrameAndEmptyDuringTheAd() async throws {
        let origin = try Self.subtitledOrigin()
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache, origin: origin)
        let id = try await harness.session(content: "master.m3u8")
        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8").text
        #expect(master.contains("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,"
                                + "URI=\"/v1/sessions/\(id)/subtitles/0.m3u8\""), "\(master)")
        #expect(master.contains("SUBTITLES=\"subs\""), "\(master)")

        let pictures = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8").text
        let response = try await harness.request("GET", "/v1/sessions/\(id)/subtitles/0.m3u8")
        #expect(response.status == 200 && response.headers["cache-control"] == "no-store")
        let subtitles = response.text
        // The same runs between discontinuities as the pictures: 5.5 s of content, the 3 s ad, 2.5 s of content.
        let (pictureRuns, subtitleRuns) = (Self.runs(pictures), Self.runs(subtitles))
        #expect(pictureRuns.count == 3 && subtitleRuns.count == 3, "\(pictures)\n\(subtitles)")
        for (a, b) in zip(pictureRuns, subtitleRuns) { #expect(abs(a - b) < 0.001, "\(pictureRuns) against \(subtitleRuns)") }

        // Each segment as the player gets it, its cues in the stream's time: each run's own clock (the content's, or
        // none in the ad) from where the run starts.
        var shown: [(start: Double, end: Double, text: String)] = [], runStart = 0.0, runIndex = 0
        var runLength = 0.0
        for segment in ServeStitchTests.segments(subtitles) {
            if segment.tags.contains("#EXT-X-DISCONTINUITY") {
                runStart += runLength
                (runIndex, runLength) = (runIndex + 1, 0)
            }
            runLength += segment.duration
            let fetched = try await harness.request("GET", segment.uri)
            #expect(fetched.status == 200 && fetched.headers["content-type"]?.hasPrefix("text/vtt") == true, "\(segment.uri)")
            let vtt = try WebVTTSegment(text: fetched.text, file: segment.uri)
            if runIndex == 1 { #expect(vtt.blocks.isEmpty && segment.uri == "/v1/subtitles/empty.vtt", "in the ad: \(segment.uri)") }
            for case .cue(let cue) in vtt.blocks {
                // Local time is content time here (LOCAL 0 at the first picture); after the ad the content resumes at 5.5 s.
                let contentStart = runIndex == 2 ? 5.5 : 0
                shown.append((runStart + Double(cue.start) / 1000 - contentStart, runStart + Double(cue.end) / 1000 - contentStart, cue.text.joined()))
            }
        }
        let expected: [(Double, Double, String)] = [(1, 2, "one"), (3, 3.9, "two"), (5, 5.5, "three"), (8.5, 9, "three"), (9.5, 10.5, "four")]
        #expect(shown.count == expected.count, "\(shown)")
        for (cue, want) in zip(shown, expected) {
            #expect(abs(cue.start - want.0) < 0.002 && abs(cue.end - want.1) < 0.002 && cue.text == want.2, "\(shown)")
        }
        // The segment across the cut is served in two windows; the others whole, from the origin.
        let uris = ServeStitchTests.segments(subtitles).map(\.uri)
        #expect(uris.first == "/v1/origin/subs/seg0.vtt")
        #expect(uris.filter { $0.hasPrefix("/v1/subtitles/") && $0.hasSuffix("/subs/seg1.vtt") }.count == 2, "\(uris)")
    }

    /// A guided session's breaks are interstitials, which leave the content's timeline as it is: its subtitle
    /// playlist is the origin's segments, whole, without a discontinuity.
    @Test func aGuidedSessionListsTheOriginsSubtitlesAsTheyAre() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeGuidedTests.harness(cache: cache, origin: try Self.subtitledOrigin())
        let id = try await ServeGuidedTests.guidedSession(harness, content: "master.m3u8")
        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8").text
        #expect(master.contains("URI=\"/v1/sessions/\(id)/subtitles/0.m3u8\"") && master.contains("SUBTITLES=\"subs\""), "\(master)")
        let subtitles = try await harness.request("GET", "/v1/sessions/\(id)/subtitles/0.m3u8").text
        let segments = ServeStitchTests.segments(subtitles)
        #expect(segments.map(\.uri) == ["/v1/origin/subs/seg0.vtt", "/v1/origin/subs/seg1.vtt"], "\(subtitles)")
        #expect(!subtitles.contains("#EXT-X-DISCONTINUITY"))
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/subtitles/1.m3u8").status == 404)
    }

    @Test func aSubtitleWindowOutsideTheOriginOrOfNoWebVTTFileIsRefused() async throws {
        let origin = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: origin.path + "/s", withIntermediateDirectories: true)
        try "not subtitles\n".write(toFile: origin.path + "/s/bad.vtt", atomically: true, encoding: .utf8)
        try "WEBVTT\n".write(toFile: origin.path + "/s/seg.ts", atomically: true, encoding: .utf8)
        try String(repeating: "x", count: WebVTTSegment.maximumBytes + 1).write(toFile: origin.path + "/s/huge.vtt", atomically: true, encoding: .utf8)
        let harness = try ServeHarness(origin: origin.path)
        for target in ["/v1/subtitles/-/-/../etc/passwd.vtt", "/v1/subtitles/-/-/s/%2e%2e/%2e%2e/x.vtt", "/v1/subtitles/-/-/s/seg.ts",
                       "/v1/subtitles/-1/-/s/bad.vtt", "/v1/subtitles/99999999999/-/s/bad.vtt", "/v1/subtitles/-/-/s/none.vtt", "/v1/subtitles/-/-"] {
            let response = try await harness.request("GET", target)
            #expect(response.status == 404, "\(target): \(response.status)")
        }
        let bad = try await harness.request("GET", "/v1/subtitles/-/900000/s/bad.vtt")
        #expect(bad.status == 422)
        #expect((harness.json(bad)["error"] as? [String: Any])?["message"] as? String == "s/bad.vtt: line 1: not a WebVTT file (no WEBVTT signature)")
        let huge = try await harness.request("GET", "/v1/subtitles/-/-/s/huge.vtt")
        #expect(huge.status == 422)
        #expect((harness.json(huge)["error"] as? [String: Any])?["message"] as? String == "s/huge.vtt: larger than the limit of 1048576 bytes")
        #expect(try await harness.request("GET", "/v1/subtitles/empty.vtt").text == "WEBVTT\n")
    }
}
