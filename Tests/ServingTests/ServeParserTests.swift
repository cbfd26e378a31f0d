import Foundation
import LoopbackServer
import Testing

/// Independent readers of a stitched session's playlists and markers: PyPI's `m3u8` parses every playlist (each
/// segment, discontinuity and date range) and `threefive` decodes every `SCTE35-OUT`/`SCTE35-IN`; nothing of
/// pipctl's own reading is used.
@Suite struct ServeParserTests {
    static var canRead: Bool { (try? PythonScript.run("import m3u8, threefive")) != nil }

    /// Reads the multivariant playlist (argument 1) and media playlists (the rest) and prints what it found as JSON.
    static let script = #"""
    import json, sys, datetime
    import m3u8, threefive
    from threefive.crc import crc32

    def cue(text):
        data = bytes.fromhex(text[2:])
        decoded = threefive.Cue(text).get()
        return {"info": decoded["info_section"], "command": decoded["command"],
                "crcMatches": crc32(data[:-4]) == int.from_bytes(data[-4:], "big")}

    master = m3u8.loads(open(sys.argv[1]).read())
    out = {"variants": [{"uri": p.uri, "bandwidth": p.stream_info.bandwidth,
                         "resolution": list(p.stream_info.resolution or [])} for p in master.playlists], "media": []}
    for path in sys.argv[2:]:
        playlist = m3u8.loads(open(path).read())
        epoch = playlist.segments[0].program_date_time
        segments, dateranges, elapsed = [], [], 0.0
        for segment in playlist.segments:
            segments.append({"uri": segment.uri, "duration": segment.duration, "discontinuity": segment.discontinuity,
                             "cueOut": segment.cue_out_start, "cueIn": segment.cue_in, "cueOutDuration": segment.scte35_duration})
            for d in segment.dateranges:
                start = datetime.datetime.fromisoformat(d.start_date)
                entry = {"id": d.id, "segment": len(segments) - 1, "segmentStart": elapsed,
                         "startAfterProgramDateTime": (start - epoch).total_seconds(),
                         "duration": d.duration, "plannedDuration": d.planned_duration}
                if d.scte35_out: entry["out"] = cue(d.scte35_out)
                if d.scte35_in: entry["in"] = cue(d.scte35_in)
                dateranges.append(entry)
            elapsed += segment.duration
        out["media"].append({"programDateTime": epoch.isoformat() if epoch else None, "segments": segments,
                             "dateranges": dateranges, "targetDuration": playlist.target_duration,
                             "endList": playlist.is_endlist})
    print(json.dumps(out))
    """#

    /// Session `id`'s first media playlist as `m3u8` and `threefive` read it: its segments, its date ranges, and
    /// each break's splice times (seconds: the `SCTE35-OUT`'s, then the `SCTE35-IN`'s) by the date range's ID.
    static func splices(_ harness: ServeHarness, session id: String) async throws
        -> (segments: [[String: Any]], ranges: [[String: Any]], spliced: [String: [Double]]) {
        let files = try TemporaryDirectory()
        var paths: [String] = []
        for name in ["master.m3u8", "0.m3u8"] {
            let response = try await harness.request("GET", "/v1/sessions/\(id)/\(name)")
            try #require(response.status == 200, "\(name): \(response.status)")
            paths.append(try files.write(name, response.text))
        }
        let output = try PythonScript.run(Self.script, arguments: paths)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        let playlist = try #require((read["media"] as? [[String: Any]])?.first)
        let segments = try #require(playlist["segments"] as? [[String: Any]])
        let ranges = try #require(playlist["dateranges"] as? [[String: Any]])
        var spliced: [String: [Double]] = [:]
        for range in ranges {
            let id = try #require(range["id"] as? String)
            for key in ["out", "in"] {
                guard let cue = range[key] as? [String: Any], let command = cue["command"] as? [String: Any] else { continue }
                spliced[id, default: []].append(try #require(command["pts_time"] as? Double))
            }
        }
        return (segments, ranges, spliced)
    }

    /// The first picture's start and the last picture's end in MPEG-TS `url`, in seconds of its timestamps, as
    /// ffprobe reads its video packets (24 fps).
    static func pictureTimes(_ url: String) async throws -> ClosedRange<Double> {
        let text = try await offPool { try FFmpegCommandLine.probe(["-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", url]) }
        let times = text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }.map { $0 / 90_000 }
        guard let first = times.min(), let last = times.max() else { throw ServeTestFailure("no pictures in \(url): \(text)") }
        return first...(last + 1.0 / 24)
    }

    @Test(.enabled(if: canRead, "needs python3's m3u8 and threefive (scripts/setup --for-tests)"))
    func m3u8AndThreefiveReadEveryPlaylistAndMarker() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache)
        let id = try await harness.session()
        let files = try TemporaryDirectory()
        var paths: [String] = []
        for name in ["master.m3u8", "0.m3u8", "1.m3u8"] {
            let response = try await harness.request("GET", "/v1/sessions/\(id)/\(name)")
            try #require(response.status == 200, "\(name): \(response.status)")
            paths.append(try files.write(name, response.text))
        }
        let output = try PythonScript.run(Self.script, arguments: paths)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")

        let variants = try #require(read["variants"] as? [[String: Any]])
        #expect(variants.map { $0["uri"] as? String } == ["/v1/sessions/\(id)/0.m3u8", "/v1/sessions/\(id)/1.m3u8"])
        #expect(variants.map { $0["resolution"] as? [Int] } == [[640, 360], [320, 180]])
        let media = try #require(read["media"] as? [[String: Any]])
        try #require(media.count == 2)
        for (rendition, playlist) in media.enumerated() {
            let segments = try #require(playlist["segments"] as? [[String: Any]])
            let durations = segments.compactMap { $0["duration"] as? Double }
            #expect(durations.count == segments.count)
            // The content's 8 s and the ad's 3 s.
            #expect(abs(durations.reduce(0, +) - 11) < 0.001, "rendition \(rendition): \(durations)")
            #expect(playlist["endList"] as? Bool == true)
            #expect((playlist["programDateTime"] as? String)?.hasPrefix("2000-01-01T00:00:00") == true, "\(playlist)")
            // A discontinuity before the ad and before the content after it, nowhere else.
            let discontinuities = segments.indices.filter { segments[$0]["discontinuity"] as? Bool == true }
            let ads = segments.indices.filter { (segments[$0]["uri"] as? String)?.hasPrefix("/v1/sessions/\(id)/ads/") == true }
            #expect(ads.count == 1)
            #expect(discontinuities == [ads.first ?? -1, (ads.last ?? -2) + 1], "rendition \(rendition): \(discontinuities)")
            #expect(segments.indices.filter { segments[$0]["cueOut"] as? Bool == true } == [ads.first ?? -1])
            #expect(segments.indices.filter { segments[$0]["cueIn"] as? Bool == true } == [(ads.last ?? -2) + 1])

            let ranges = try #require(playlist["dateranges"] as? [[String: Any]])
            let outs = ranges.filter { $0["out"] != nil }, ins = ranges.filter { $0["in"] != nil }
            try #require(outs.count == 1 && ins.count == 1 && ranges.count == 2, "rendition \(rendition): \(ranges)")
            let out = outs[0], back = ins[0]
            #expect(out["id"] as? String == "break-0" && back["id"] as? String == "break-0")
            // The break starts 5.5 s into the stream, by the dates and by the segments before it; it lasts 3 s.
            #expect(abs((out["startAfterProgramDateTime"] as? Double ?? -1) - 5.5) < 0.001, "\(out)")
            #expect(abs((back["startAfterProgramDateTime"] as? Double ?? -1) - 5.5) < 0.001, "\(back)")
            #expect(out["segment"] as? Int == ads.first && back["segment"] as? Int == (ads.last ?? -2) + 1)
            #expect(abs((out["segmentStart"] as? Double ?? -1) - 5.5) < 0.001)
            #expect(abs((back["segmentStart"] as? Double ?? -1) - 8.5) < 0.001)
            #expect(abs((out["duration"] as? Double ?? -1) - 3) < 0.001)
            let cueOut = segments[ads.first ?? 0]["cueOutDuration"].map { "\($0)" }.flatMap { Double($0) } ?? -1
            #expect(abs(cueOut - 3) < 0.001, "EXT-X-CUE-OUT: \(segments[ads.first ?? 0])")

            // threefive's decoding of the cues.
            let outCue = try #require(out["out"] as? [String: Any]), inCue = try #require(back["in"] as? [String: Any])
            for cue in [outCue, inCue] {
                #expect(cue["crcMatches"] as? Bool == true, "\(cue)")
                #expect((cue["info"] as? [String: Any])?["table_id"] as? String == "0xfc", "\(cue)")
            }
            let leave = try #require(outCue["command"] as? [String: Any]), come = try #require(inCue["command"] as? [String: Any])
            #expect(leave["command_type"] as? Int == 5 && come["command_type"] as? Int == 5, "\(leave) \(come)")
            #expect(leave["out_of_network_indicator"] as? Bool == true, "\(leave)")
            #expect(leave["break_duration"] as? Double == 3.0, "\(leave)")
            #expect(leave["break_auto_return"] as? Bool == true, "\(leave)")
            #expect(come["out_of_network_indicator"] as? Bool == false, "\(come)")
            let event = try #require(leave["splice_event_id"] as? Int)
            #expect(come["splice_event_id"] as? Int == event)
            // The content leaves and comes back at its own time at the cut (it keeps its timestamps around the ad):
            // where the piece before the cut ends and the piece after it starts, as ffprobe reads their pictures.
            let outTime: Double = try #require(leave["pts_time"] as? Double), inTime: Double = try #require(come["pts_time"] as? Double)
            let before = try #require(segments[(ads.first ?? 0) - 1]["uri"] as? String), after = try #require(segments[(ads.last ?? 0) + 1]["uri"] as? String)
            let ended = try await Self.pictureTimes("http://127.0.0.1:\(harness.port)\(before)").upperBound
            let started = try await Self.pictureTimes("http://127.0.0.1:\(harness.port)\(after)").lowerBound
            #expect(abs(outTime - ended) < 0.0001 && abs(inTime - started) < 0.0001, "out at \(outTime) (\(ended)), in at \(inTime) (\(started))")
        }
    }
    /// A session of subtitled content: `m3u8` reads the subtitle rendition in the multivariant playlist, the
    /// variant's `SUBTITLES` group, and the subtitle playlist's segments (the content's 8 s and the ad's 3 s, a
    /// discontinuity before the ad and after it).
    @Test(.enabled(if: canRead, "needs python3's m3u8 and threefive (scripts/setup --for-tests)"))
    func m3u8ReadsTheSubtitleRenditionAndItsPlaylist() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache, origin: try ServeSubtitleTests.subtitledOrigin())
        let id = try await harness.session(content: "master.m3u8")
        let files = try TemporaryDirectory()
        var paths: [String] = []
        for name in ["master.m3u8", "subtitles/0.m3u8"] {
            let response = try await harness.request("GET", "/v1/sessions/\(id)/\(name)")
            try #require(response.status == 200, "\(name): \(response.status)")
            paths.append(try files.write(name.replacingOccurrences(of: "/", with: "-"), response.text))
        }
        let script = """
            import json, sys, m3u8
            master, subtitles = m3u8.loads(open(sys.argv[1]).read()), m3u8.loads(open(sys.argv[2]).read())
            print(json.dumps({
                "media": [{"type": m.type, "group": m.group_id, "name": m.name, "language": m.language, "default": m.default,
                           "uri": m.uri} for m in master.media],
                "variantSubtitles": [p.stream_info.subtitles for p in master.playlists],
                "segments": [{"uri": s.uri, "duration": s.duration, "discontinuity": s.discontinuity} for s in subtitles.segments],
                "endList": subtitles.is_endlist}))
            """
        let output = try PythonScript.run(script, arguments: paths)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        let media = try #require(read["media"] as? [[String: Any]])
        #expect(media.count == 1)
        #expect(media.first?["type"] as? String == "SUBTITLES" && media.first?["group"] as? String == "subs", "\(media)")
        #expect(media.first?["language"] as? String == "en" && media.first?["default"] as? String == "YES", "\(media)")
        #expect(media.first?["uri"] as? String == "/v1/sessions/\(id)/subtitles/0.m3u8", "\(media)")
        #expect(read["variantSubtitles"] as? [String] == ["subs"], "\(read)")
        let segments = try #require(read["segments"] as? [[String: Any]])
        let durations = segments.compactMap { $0["duration"] as? Double }
        #expect(durations.count == segments.count && abs(durations.reduce(0, +) - 11) < 0.001, "\(durations)")
        let ads = segments.indices.filter { segments[$0]["uri"] as? String == "/v1/subtitles/empty.vtt" }
        #expect(!ads.isEmpty && abs(ads.map { durations[$0] }.reduce(0, +) - 3) < 0.001, "\(segments)")
        let discontinuities = segments.indices.filter { segments[$0]["discontinuity"] as? Bool == true }
        #expect(discontinuities == [ads.first ?? -1, (ads.last ?? -2) + 1], "\(segments)")
        #expect(read["endList"] as? Bool == true)
    }
    /// A session with a pre-roll and a mid-roll: each break's `SCTE35-OUT` and `SCTE35-IN` (threefive's decoding)
    /// splice at the content's own time, where its next picture starts as ffprobe reads it (the pre-roll at the
    /// content's first picture, the mid-roll at the cut, whatever the pre-roll's ad put before it in the stream).
    @Test(.enabled(if: canRead, "needs python3's m3u8 and threefive (scripts/setup --for-tests)"))
    func eachSpliceIsAtTheContentsOwnTimeAfterAPreRollToo() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache)
        harness.adServer.route("/vmap", .xml(ServeStitchTests.vmap(adServer: harness.adServer.baseURL, preroll: true)))
        let id = try await harness.session()
        let (segments, ranges, spliced) = try await Self.splices(harness, session: id)
        #expect(spliced.keys.sorted() == ["break-0", "break-1"], "\(ranges)")
        // Where the content comes back after each break: the segment marked with its SCTE35-IN.
        for range in ranges where range["in"] != nil {
            let id = try #require(range["id"] as? String), index = try #require(range["segment"] as? Int)
            let uri = try #require(segments[index]["uri"] as? String)
            let started = try await Self.pictureTimes("http://127.0.0.1:\(harness.port)\(uri)").lowerBound
            let times = spliced[id] ?? []
            #expect(times.count == 2 && times.allSatisfy { abs($0 - started) < 0.0001 }, "\(id): \(times), the content's picture at \(started)")
        }
        // The mid-roll is 5.5 s of content after the pre-roll's return: 3 s of ad before it leave its time as it is.
        let pre = spliced["break-0"]?.first ?? 0, mid = spliced["break-1"]?.first ?? 0
        #expect(abs(mid - pre - 5.5) < 0.0001, "the pre-roll at \(pre), the mid-roll at \(mid)")
    }

    /// A mid-roll at the origin's own discontinuity (8 s, where the second programme, with a clock of its own,
    /// starts): the content leaves on the first programme's clock, where its last picture ends, and comes back on
    /// the second's, where its first picture starts (threefive's decoding of `SCTE35-OUT` and `SCTE35-IN` against
    /// ffprobe's reading of the segments on either side of the ad).
    @Test(.enabled(if: canRead, "needs python3's m3u8 and threefive (scripts/setup --for-tests)"))
    func aSpliceAtTheOriginsDiscontinuityLeavesOnOneClockAndComesBackOnTheOther() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (_, harness, id, _) = try await ServeStitchTests.discontinuousSession(offset: "00:00:08.000", cache: cache)
        let (segments, ranges, spliced) = try await Self.splices(harness, session: id)
        let times = try #require(spliced["break-0"], "\(ranges)")
        let uris = segments.compactMap { $0["uri"] as? String }
        #expect(uris.filter { $0.hasPrefix("/v1/origin/") } == ["a0", "a1", "b1"].map { "/v1/origin/\($0).ts" }, "\(uris)")
        let ended = try await Self.pictureTimes("http://127.0.0.1:\(harness.port)/v1/origin/a1.ts").upperBound
        let started = try await Self.pictureTimes("http://127.0.0.1:\(harness.port)/v1/origin/b0.ts").lowerBound
        #expect(times.count == 2 && abs(times[0] - ended) < 0.0001 && abs(times[1] - started) < 0.0001,
                "out and in at \(times), the first programme's pictures ending at \(ended), the second's starting at \(started)")
    }
}
