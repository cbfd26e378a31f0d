import AdPlayback
import Foundation
import HTTPServing
import LoopbackServer
import MediaCore
import Serving
import StampedMedia
import Testing
import VideoPipeline

/// The cut: each break in every rendition at its exact frame, judged from the pixels the ffmpeg tool decodes over
/// HTTP, against the origin's own frames.
@Suite struct ServeStitchTests {
    /// The origin (`HLSOriginFixture`): 24 fps, GOPs of 48 frames, segments of 96. A mid-roll at 5.5 s is frame 132:
    /// inside segment 1 (frames 96–191) and inside its first GOP (96–143), so both sides of the cut are partial GOPs.
    static let cueFrame = 132
    /// The ad: 3 s of solid red at 320x240 and 30 fps, conditioned to each rendition's size and 24 fps: 72 frames.
    static let adFrames = 72

    static func adMedia(seconds: Int = 3) throws -> String { try solidAd("red", seconds: seconds, tone: 1000) }

    /// `seconds` of solid `colour` at 320x240 and 30 fps with a `tone` Hz sine at 44.1 kHz: an ad's media.
    static func solidAd(_ colour: String, seconds: Int, tone: Int) throws -> String {
        try TestFixtures.directory(for: "serve-ad-\(colour)-\(seconds)s-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "color=c=\(colour):size=320x240:rate=30:duration=\(seconds)",
                "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=44100:duration=\(seconds)",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                directory + "/\(colour).mp4",
            ])
        } + "/\(colour).mp4"
    }

    /// A VMAP whose mid-roll at `offset` (and pre-roll, with `preroll`) is the red 3 s ad.
    static func vmap(adServer: URL, offset: String = "00:00:05.500", preroll: Bool = false, adSeconds: Int = 3) -> String {
        func adBreak(_ offset: String, _ id: String) -> String {
            """
            <vmap:AdBreak timeOffset="\(offset)" breakType="linear" breakId="\(id)"><vmap:AdSource id="\(id)"><vmap:VASTAdData>
            <VAST version="4.0"><Ad id="red"><InLine><AdSystem>test</AdSystem><AdTitle>red</AdTitle>
            <Impression><![CDATA[\(adServer)/beacon/red/impression]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:0\(adSeconds).000</Duration>
            <TrackingEvents>\(["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
                "<Tracking event=\"\($0)\"><![CDATA[\(adServer)/beacon/red/\($0)?t=[ADPLAYHEAD]]]></Tracking>"
            }.joined())</TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[\(adServer)/media/red.mp4]]></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            </vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
            """
        }
        let breaks = (preroll ? [adBreak("start", "pre")] : []) + [adBreak(offset, "mid")]
        return """
        <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
        \(breaks.joined(separator: "\n"))
        </vmap:VMAP>
        """
    }

    /// A server stitching into the HLS origin fixture, whose ad server answers `vmap(adSeconds:)` with the red ad of
    /// `adSeconds` (3 s: one segment of the content's 4; 6 s: two, a beacon test's).
    static func harness(cache: String, wait: Duration = .seconds(600), adServer: LoopbackHTTPServer? = nil,
                        secret: ServeSecret? = nil, maximumSessions: Int = 100_000, sessionIdleTimeout: Duration = .seconds(4 * 3600),
                        adSeconds: Int = 3) throws -> ServeHarness {
        let harness = try ServeHarness(maximumSessions: maximumSessions, stitchCache: cache, stitchWait: wait, adServer: adServer,
                                       sessionIdleTimeout: sessionIdleTimeout, secret: secret)
        harness.adServer.route("/vmap", .xml(vmap(adServer: harness.adServer.baseURL, adSeconds: adSeconds)))
        harness.adServer.route("/media/red.mp4", .file(URL(fileURLWithPath: try adMedia(seconds: adSeconds)), contentType: "video/mp4"))
        return harness
    }

    /// A server stitching into `origin` (a folder of its own), whose ad server answers `vmap(offset:)` with the red
    /// 3 s ad.
    static func harness(cache: String, origin: String, offset: String = "00:00:05.500") throws -> ServeHarness {
        let harness = try ServeHarness(stitchCache: cache, origin: origin)
        harness.adServer.route("/vmap", .xml(vmap(adServer: harness.adServer.baseURL, offset: offset)))
        harness.adServer.route("/media/red.mp4", .file(URL(fileURLWithPath: try adMedia()), contentType: "video/mp4"))
        return harness
    }

    static func temporaryCache() throws -> String {
        let path = NSTemporaryDirectory() + "pipctl-stitch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every frame of `input`'s first video stream as 64x36 grey pictures (the ffmpeg tool's decoding).
    /// (Off Swift's pool: the ffmpeg tool may be reading from the server under test, whose responders need it.)
    static func greyFrames(_ input: String) async throws -> [[UInt8]] {
        let data = try await offPool { try FFmpegCommandLine.run(["-i", input, "-map", "0:v:0", "-fps_mode", "passthrough", "-vf", "scale=64:36,format=gray",
                                              "-f", "rawvideo", "-"]) }
        let size = 64 * 36
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<($0 + size)]) }
    }

    /// The sound's samples per channel as the ffmpeg tool decodes them (48 kHz mono, 16-bit).
    static func soundSamples(_ input: String) async throws -> Int {
        try await offPool { try FFmpegCommandLine.run(["-i", input, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "s16le", "-"]).count / 2 }
    }

    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var total = 0
        for (x, y) in zip(a, b) { total += abs(Int(x) - Int(y)) }
        return Double(total) / Double(max(1, a.count))
    }

    /// The index in `frames` of the one nearest to `picture`.
    static func nearest(_ picture: [UInt8], among frames: [[UInt8]], in range: Range<Int>) -> Int {
        range.min { difference(picture, frames[$0]) < difference(picture, frames[$1]) }!
    }

    /// The media playlist's segments: URI and `EXTINF` duration, and the tags before each.
    static func segments(_ playlist: String) -> [(uri: String, duration: Double, tags: [String])] {
        var result: [(String, Double, [String])] = [], tags: [String] = [], duration = 0.0
        for line in playlist.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst(8).split(separator: ",")[0]) ?? -1
            } else if line.hasPrefix("#") {
                tags.append(line)
            } else if !line.isEmpty {
                result.append((line, duration, tags))
                tags = []
            }
        }
        return result
    }

    @Test func aMidRollIsCutIntoEveryRenditionAtItsExactFrameAndDecodesFromThePixels() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let id = try await harness.session()
        let origin = try ServeFixture.origin()
        for rendition in 0..<2 {
            let playlist = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).m3u8")
            #expect(playlist.status == 200)
            let segments = Self.segments(playlist.text)
            // seg0 as it is, the piece before the cut, the ad's segments, the piece after it.
            #expect(segments.first?.uri == "/v1/origin/show/v\(rendition)/seg0.ts")
            #expect(segments[1].uri.hasPrefix("/v1/cache/cuts/") && segments[1].uri.hasSuffix("/before.ts"))
            #expect(segments.last?.uri.hasSuffix("/after.ts") == true)
            // The 3 s ad in one segment: an ad's segments are as long as the content's (4 s), so that a player asks
            // no more often during an ad than during the content.
            let ads = segments.filter { $0.uri.hasPrefix("/v1/sessions/\(id)/ads/") }
            #expect(ads.count == 1 && abs((ads.first?.duration ?? 0) - 3) < 0.001, "\(ads.map(\.duration))")
            #expect(ads.first?.tags.contains("#EXT-X-DISCONTINUITY") == true)
            #expect(ads.first?.tags.contains { $0.hasPrefix("#EXT-X-CUE-OUT:3") } == true)
            #expect(ads.first?.tags.contains { $0.hasPrefix("#EXT-X-DATERANGE:") && $0.contains("SCTE35-OUT=0x") } == true)
            #expect(segments.last?.tags.contains("#EXT-X-DISCONTINUITY") == true)
            #expect(segments.last?.tags.contains("#EXT-X-CUE-IN") == true)
            #expect(segments.filter { $0.tags.contains("#EXT-X-DISCONTINUITY") }.count == 2)
            // No segment under a second but the stream's last.
            #expect(segments.dropLast().allSatisfy { $0.duration >= 1 }, "\(segments.map(\.duration))")
            #expect(abs(segments[1].duration - 1.5) < 0.001 && abs(segments.last!.duration - 2.5) < 0.001)

            let stitched = try await Self.greyFrames("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/\(rendition).m3u8")
            let content = try await Self.greyFrames(origin + "/show/v\(rendition)/index.m3u8")
            #expect(content.count == ServeFixture.frames)
            #expect(stitched.count == ServeFixture.frames + Self.adFrames)
            guard stitched.count == ServeFixture.frames + Self.adFrames else { continue }
            Self.expectTheCut(stitched: stitched, content: content)
            // The sound: the content's samples and the ad's 3 s, with at most an AAC frame lost or added per splice.
            let stitchedSound = try await Self.soundSamples("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/\(rendition).m3u8")
            let contentSound = try await Self.soundSamples(origin + "/show/v\(rendition)/index.m3u8")
            #expect(abs(stitchedSound - contentSound - 3 * 48_000) <= 2 * 1024, "\(stitchedSound) samples against \(contentSound) + 144000")
        }
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(tracking["stitched"] as? Bool == true)
        #expect(((tracking["breaks"] as? [[String: Any]])?.first?["stitched"]) as? Bool == true)
        // Where the ad plays in the stream, and each beacon's moment, for players that send their own.
        let ad = try #require(((tracking["breaks"] as? [[String: Any]])?.first?["ads"] as? [[String: Any]])?.first)
        #expect(ad["streamTime"] as? Double == 5.5 && ad["streamDuration"] as? Double == 3)
        let times = try #require(ad["beaconTimes"] as? [String: Double])
        #expect(times == ["impression": 5.5, "start": 5.5, "firstQuartile": 6.25, "midpoint": 7, "thirdQuartile": 7.75, "complete": 8.5])
        // Both renditions were played through: each beacon went out once.
        let beacons = try await Self.waitForBeacons(harness.adServer, count: Self.beaconEvents.count)
        #expect(beacons.map(\.event).sorted() == Self.beaconEvents.sorted())
    }

    /// The stitched frames are the content's with the red ad's 72 between content frames 131 and 132, judged from the
    /// pixels.
    static func expectTheCut(stitched: [[UInt8]], content: [[UInt8]], cue: Int = cueFrame) {
        let end = cue + adFrames
        // The frame before the cue is the content's frame at the cue less one; the cue's frame is the ad's first.
        #expect(nearest(stitched[cue - 1], among: content, in: (cue - 4)..<(cue + 4)) == cue - 1)
        #expect(difference(stitched[cue - 1], content[cue - 1]) < 4)
        // The 4:3 ad is pillarboxed in the 16:9 rendition: red (luma about 81) between black bars.
        let red = stitched[cue]
        let middle = (0..<36).map { Int(red[$0 * 64 + 32]) }, edge = (0..<36).map { Int(red[$0 * 64 + 2]) }
        #expect(middle.allSatisfy { (70...95).contains($0) } && edge.allSatisfy { $0 <= 24 }, "frame \(cue) is not the red ad: \(middle) \(edge)")
        #expect(stitched[cue..<end].allSatisfy { difference($0, red) < 2 })
        // The content comes back at the cue's own frame.
        #expect(nearest(stitched[end], among: content, in: (cue - 4)..<(cue + 4)) == cue)
        #expect(difference(stitched[end], content[cue]) < 4)
        // Everywhere else, the content's frames in order.
        for n in Array(0..<cue) + Array(end..<stitched.count) {
            let source = n < cue ? n : n - adFrames
            #expect(difference(stitched[n], content[source]) < 4, "stitched frame \(n) against content frame \(source)")
        }
    }

    static func mp4Origin() throws -> String {
        try TestFixtures.directory(for: "serve-mp4-origin-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                "-c:a", "aac", "-b:a", "64k", directory + "/movie.mp4",
            ])
        }
    }

    @Test func anMP4IsPackagedOnceAsHLSAndItsBreakCutAtTheFrame() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let origin = try Self.mp4Origin()
        let harness = try Self.harness(cache: cache, origin: origin)
        let id = try await harness.session(content: "movie.mp4")
        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8")
        let variants = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 1)
        #expect(variants.first?.contains("RESOLUTION=640x360") == true && variants.first?.contains("CODECS=\"avc1.") == true)
        #expect(variants.first?.contains("FRAME-RATE=24.000") == true)
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let uris = Self.segments(playlist.text).map(\.uri)
        #expect(uris.first?.hasPrefix("/v1/cache/packaged/") == true && uris.first?.hasSuffix("/seg00000.ts") == true)
        #expect(uris.contains { $0.hasSuffix("/before.ts") } && uris.contains { $0.hasSuffix("/after.ts") })
        let stitched = try await Self.greyFrames("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8")
        let content = try await Self.greyFrames(origin + "/movie.mp4")
        #expect(stitched.count == content.count + Self.adFrames)
        if stitched.count == content.count + Self.adFrames { Self.expectTheCut(stitched: stitched, content: content) }
        // Packaged once: another viewer's session reads the same segments.
        let other = try await harness.session(content: "movie.mp4")
        #expect(try await harness.request("GET", "/v1/sessions/\(other)/0.m3u8").text.contains(uris[0]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/packaged").count == 1)
    }

    /// An origin whose playlist marks a break inside its second segment with `EXT-X-DATERANGE` and `SCTE35-OUT` at
    /// 5.5 s (frame 132), and an ad server that answers plain VAST: the VAST fills the origin's break.
    @Test func aVASTAnswerFillsTheOriginsOwnCueAtItsExactFrame() async throws {
        let hls = try ServeFixture.origin()
        let origin = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: origin) }
        for name in ["seg0.ts", "seg1.ts"] { try FileManager.default.copyItem(atPath: hls + "/show/v0/" + name, toPath: origin + "/" + name) }
        let cue = SpliceInfoSection(command: .spliceInsert(.init(eventID: 7, outOfNetwork: true, pts: 0,
                                                                 breakDuration: .init(autoReturn: true, duration: 270_000))))
        try """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:4
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXTINF:4.000000,
        seg0.ts
        #EXT-X-DATERANGE:ID="avail-1",START-DATE="2026-01-01T00:00:05.500Z",SCTE35-OUT=\(cue.hexadecimal)
        #EXTINF:4.000000,
        seg1.ts
        #EXT-X-ENDLIST

        """.write(toFile: origin + "/cued.m3u8", atomically: true, encoding: .utf8)
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeHarness(adsPath: "/vast", stitchCache: cache, origin: origin)
        let vmap = Self.vmap(adServer: harness.adServer.baseURL)
        let vast = String(vmap[vmap.range(of: "<VAST")!.lowerBound..<vmap.range(of: "</VAST>")!.upperBound])
        harness.adServer.route("/vast", .xml(vast))
        harness.adServer.route("/media/red.mp4", .file(URL(fileURLWithPath: try Self.adMedia()), contentType: "video/mp4"))
        let id = try await harness.session(content: "cued.m3u8")
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        let breaks = try #require(tracking["breaks"] as? [[String: Any]])
        #expect(breaks.count == 1)
        #expect(breaks.first?["position"] as? String == "midroll" && breaks.first?["contentTime"] as? Double == 5.5)
        #expect(breaks.first?["stitched"] as? Bool == true)
        let stitched = try await Self.greyFrames("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8")
        let content = try await Self.greyFrames(hls + "/show/v0/index.m3u8")
        #expect(stitched.count == content.count + Self.adFrames)
        if stitched.count == content.count + Self.adFrames { Self.expectTheCut(stitched: stitched, content: content) }
    }

    /// `ffmpeg`'s own EBU R128 meter (the `ebur128` filter): the integrated loudness of `input`'s sound, LUFS.
    static func integratedLoudness(_ input: String) throws -> Double {
        let out = String(decoding: try FFmpegCommandLine.run(["-i", input, "-map", "0:a:0", "-af",
                                                              "ebur128=metadata=1,ametadata=print:key=lavfi.r128.I:file=-", "-f", "null", "-"]),
                         as: UTF8.self)
        let values = out.split(separator: "\n").compactMap { $0.hasPrefix("lavfi.r128.I=") ? Double($0.dropFirst(13)) : nil }
        guard let last = values.last else { throw ServeTestFailure("ffmpeg measured no loudness of \(input)") }
        return last
    }

    @Test func eachAdIsBroughtToTheContentsLoudness() async throws {
        let quiet = try TestFixtures.directory(for: "serve-ad-quiet-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "color=c=blue:size=320x240:rate=30:duration=3",
                "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=3",
                "-af", "volume=-18dB", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                "-shortest", directory + "/quiet.mp4",
            ])
        } + "/quiet.mp4"
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        harness.adServer.route("/media/red.mp4", .file(URL(fileURLWithPath: quiet), contentType: "video/mp4"))
        let id = try await harness.session()
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8").text.contains("/ads/"))
        let content = try Self.integratedLoudness(try ServeFixture.origin() + "/show/v0/index.m3u8")
        let before = try Self.integratedLoudness(quiet)
        #expect(content - before > 10, "the fixture's ad is not quieter: \(before) against \(content)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/ads")
        #expect(entries.count == 2)
        for entry in entries {
            let directory = cache + "/ads/" + entry
            let joined = directory + "/joined.ts"
            var bytes = Data()
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).filter({ $0.hasSuffix(".ts") }).sorted() {
                bytes += try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            }
            try bytes.write(to: URL(fileURLWithPath: joined))
            let after = try Self.integratedLoudness(joined)
            #expect(abs(after - content) < 1, "the conditioned ad is \(after) LUFS, the content \(content)")
        }
    }

    /// An fMP4 HLS origin made by the ffmpeg tool: `index.m3u8`, `init.mp4` and segments of 4 s, 8 s at 24 fps.
    static func fmp4Origin() throws -> String {
        try TestFixtures.directory(for: "serve-fmp4-origin-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                "-hls_segment_filename", directory + "/seg%d.m4s", directory + "/index.m3u8",
            ])
        }
    }

    @Test func anFMP4OriginIsServedAsMPEGTSAndItsBreakCutAtTheFrame() async throws {
        let origin = try Self.fmp4Origin()
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache, origin: origin)
        let id = try await harness.session(content: "index.m3u8")
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        #expect(!playlist.text.contains("#EXT-X-MAP"))
        let uris = Self.segments(playlist.text).map(\.uri)
        #expect(uris.first?.hasPrefix("/v1/cache/packaged/") == true)
        #expect(uris.contains { $0.hasSuffix("/before.ts") } && uris.contains { $0.hasSuffix("/after.ts") })
        let stitched = try await Self.greyFrames("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8")
        let content = try await Self.greyFrames(origin + "/index.m3u8")
        #expect(content.count == ServeFixture.frames)
        #expect(stitched.count == content.count + Self.adFrames)
        if stitched.count == content.count + Self.adFrames { Self.expectTheCut(stitched: stitched, content: content) }
    }

    /// A CMAF-style origin made by the ffmpeg tool: two video-only variants (640x360 and 320x180, 4 s segments, 8 s
    /// at 24 fps) whose sound is one audio rendition of its own (`EXT-X-MEDIA:TYPE=AUDIO` with a URI); fMP4, or
    /// MPEG-TS (whose timestamps FFmpeg's muxer starts at 1.4 s).
    static func demuxedOrigin(_ type: String = "fmp4") throws -> String {
        try TestFixtures.directory(for: "serve-demuxed-origin-\(type)-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
                "-filter_complex", "[0:v]split=2[a][b];[b]scale=320:180[s]", "-map", "[a]", "-map", "[s]", "-map", "1:a",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-hls_segment_type", type, "-hls_fmp4_init_filename", "init.mp4", "-master_pl_name", "master.m3u8",
                "-var_stream_map", "v:0,agroup:sound,name:v0 v:1,agroup:sound,name:v1 a:0,agroup:sound,name:audio,default:yes",
                "-hls_segment_filename", directory + "/%v/seg%d." + (type == "fmp4" ? "m4s" : "ts"), directory + "/%v/index.m3u8",
            ])
        }
    }

    @Test(arguments: ["fmp4", "mpegts"])
    func aVariantsOwnAudioRenditionIsMuxedInAndTheBreakCutAtTheFrameInPicturesAndSound(type: String) async throws {
        let origin = try Self.demuxedOrigin(type)
        let master = try String(contentsOfFile: origin + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("#EXT-X-MEDIA:TYPE=AUDIO") && master.contains("URI="))
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache, origin: origin)
        let id = try await harness.session(content: "master.m3u8")
        // One variant per video rendition, its sound in its segments: no audio group left to fetch.
        let multivariant = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8")
        #expect(multivariant.status == 200 && !multivariant.text.contains("EXT-X-MEDIA") && !multivariant.text.contains("AUDIO="))
        #expect(multivariant.text.components(separatedBy: "#EXT-X-STREAM-INF").count == 3)
        let contentSound = try await Self.soundSamples(origin + "/audio/index.m3u8")
        #expect(abs(contentSound - 8 * 48_000) <= 2 * 1024)
        for (rendition, name) in ["v0", "v1"].enumerated() {
            let playlist = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).m3u8")
            #expect(!playlist.text.contains("#EXT-X-MAP"))
            let segments = Self.segments(playlist.text), uris = segments.map(\.uri)
            #expect(uris.first?.hasPrefix("/v1/cache/packaged/") == true)
            #expect(uris.contains { $0.hasSuffix("/before.ts") } && uris.contains { $0.hasSuffix("/after.ts") })
            // The content's 4 s segment, then the cut's 1.5 s and 2.5 s around the 3 s ad: the packaged segments
            // count the pictures there are, from the first (not the time before it).
            #expect(segments.map(\.duration) == [4, 1.5, 3, 2.5], "\(segments.map(\.duration))")
            let url = "http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/\(rendition).m3u8"
            let stitched = try await Self.greyFrames(url)
            let content = try await Self.greyFrames(origin + "/\(name)/index.m3u8")
            #expect(content.count == ServeFixture.frames)
            #expect(stitched.count == content.count + Self.adFrames)
            if stitched.count == content.count + Self.adFrames { Self.expectTheCut(stitched: stitched, content: content) }
            // The audio rendition's samples and the ad's 3 s, with at most an AAC frame lost or added per splice.
            let stitchedSound = try await Self.soundSamples(url)
            #expect(abs(stitchedSound - contentSound - 3 * 48_000) <= 2 * 1024, "\(stitchedSound) samples against \(contentSound) + 144000")
        }
    }

    /// An MPEG-TS origin whose packager carries the pictures on PID 0x1E1 and the sound on 0x1E2, the sound's
    /// stream first (as AWS Elemental's number them): 8 s at 24 fps, 4 s segments, GOPs of 48.
    static func packagerPIDsOrigin() throws -> String {
        try TestFixtures.directory(for: "serve-packager-pids-origin-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
                "-map", "1:a", "-map", "0:v", "-streamid", "0:482", "-streamid", "1:481",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-hls_segment_filename", directory + "/seg%d.ts", directory + "/index.m3u8",
            ])
        }
    }

    /// Each stream's type and MPEG-TS PID in `input` (`video,0x1e1`), as ffprobe reads them.
    static func pids(_ input: String) throws -> Set<String> {
        Set(try FFmpegCommandLine.probe(["-show_entries", "stream=codec_type,id", "-of", "csv=p=0", input]).split(separator: "\n").map { String($0) })
    }

    /// A player reads a stream's PIDs on from segment to segment: the cut's pieces and the ads carry the origin's,
    /// not the muxer's own (0x100, 0x101), or the ffmpeg tool finds new streams at the cut and loses the pictures.
    @Test func everySegmentOfTheStreamCarriesTheOriginsPIDsAndItDecodesAsOneStream() async throws {
        let origin = try Self.packagerPIDsOrigin()
        #expect(try Self.pids(origin + "/seg0.ts") == ["audio,0x1e2", "video,0x1e1"])
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache, origin: origin)
        let id = try await harness.session(content: "index.m3u8")
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let uris = Self.segments(playlist.text).map(\.uri)
        #expect(uris.contains { $0.hasSuffix("/before.ts") } && uris.contains { $0.hasPrefix("/v1/sessions/\(id)/ads/") })
        for uri in uris {
            let found = try await offPool { try Self.pids("http://127.0.0.1:\(harness.port)\(uri)") }
            #expect(found == ["audio,0x1e2", "video,0x1e1"], "\(uri)")
        }
        let url = "http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8"
        let stitched = try await Self.greyFrames(url)
        let content = try await Self.greyFrames(origin + "/index.m3u8")
        #expect(content.count == ServeFixture.frames)
        #expect(stitched.count == content.count + Self.adFrames)
        if stitched.count == content.count + Self.adFrames { Self.expectTheCut(stitched: stitched, content: content) }
    }

    /// An 8 s MPEG-TS HLS VOD made by the ffmpeg tool (640x360 at 24 fps, GOPs of 48, a 440 Hz tone, 4 s segments):
    /// its segments named by `segments` (an `%d` pattern), its media playlist at `playlist`.
    static func makeTSOrigin(segments: String, playlist: String) throws {
        _ = try FFmpegCommandLine.run([
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
            "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
            "-hls_segment_filename", segments, playlist,
        ])
    }

    /// Two 8 s programmes made by the ffmpeg tool one after the other, joined in one media playlist with an
    /// `EXT-X-DISCONTINUITY` between them: the second's timestamps start again.
    static func discontinuousOrigin() throws -> String {
        try TestFixtures.directory(for: "serve-discontinuous-origin-v1") { directory in
            var lines: [String] = []
            for part in ["a", "b"] {
                try Self.makeTSOrigin(segments: directory + "/\(part)%d.ts", playlist: directory + "/\(part).m3u8")
                let text = try String(contentsOfFile: directory + "/\(part).m3u8", encoding: .utf8)
                lines += text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("#EXTINF") || !$0.hasPrefix("#") }
                if part == "a" { lines.append("#EXT-X-DISCONTINUITY") }
            }
            let playlist = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"] + lines + ["#EXT-X-ENDLIST"]
            try (playlist.joined(separator: "\n") + "\n").write(toFile: directory + "/index.m3u8", atomically: true, encoding: .utf8)
        }
    }

    /// A session of `discontinuousOrigin` whose one mid-roll is at `offset`, its stitch cached in `cache`: the
    /// origin's folder, the harness, the session's id and its first media playlist.
    static func discontinuousSession(offset: String, cache: String) async throws
        -> (origin: String, harness: ServeHarness, id: String, playlist: RawResponse) {
        let origin = try discontinuousOrigin()
        let harness = try harness(cache: cache, origin: origin, offset: offset)
        let id = try await harness.session(content: "index.m3u8")
        return (origin, harness, id, try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8"))
    }

    /// Session `id`'s first rendition, as the ffmpeg tool decodes it over HTTP, is the content of `origin`'s
    /// `index.m3u8` (both programmes, every frame) with the ad from frame `cue` (`expectTheCut`).
    static func expectTheCut(_ harness: ServeHarness, session id: String, origin: String, cue: Int) async throws {
        let stitched = try await greyFrames("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8")
        let content = try await greyFrames(origin + "/index.m3u8")
        #expect(content.count == 2 * ServeFixture.frames)
        #expect(stitched.count == content.count + adFrames)
        if stitched.count == content.count + adFrames { expectTheCut(stitched: stitched, content: content, cue: cue) }
    }

    /// A mid-roll after the origin's own discontinuity is cut on the clock the discontinuity starts (the second
    /// programme's, from its own first picture): at 13.5 s, 5.5 s into the second programme, inside its second
    /// segment; at 10 s, inside its first segment, whose discontinuity the piece before the cut then carries. The
    /// frames decode as the content's with the ad at the cue's frame.
    @Test(arguments: [("00:00:13.500", 324, ["a0", "a1", "b0"]), ("00:00:10.000", 240, ["a0", "a1"])])
    func aMidRollAfterTheOriginsDiscontinuityIsCutOnTheClockItStarts(offset: String, cue: Int, kept: [String]) async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (origin, harness, id, playlist) = try await Self.discontinuousSession(offset: offset, cache: cache)
        let segments = Self.segments(playlist.text)
        let before = kept.count, after = try #require(segments.firstIndex { $0.uri.hasSuffix("/after.ts") }, "\(playlist.text)")
        #expect(Array(segments.map(\.uri).prefix(before)) == kept.map { "/v1/origin/\($0).ts" }, "\(playlist.text)")
        #expect(segments.count > before && segments[before].uri.hasSuffix("/before.ts"), "\(playlist.text)")
        // The origin's discontinuity (before b0, or before the piece standing in for it), before the ad, and after
        // it: nowhere else.
        let discontinuities = segments.indices.filter { segments[$0].tags.contains("#EXT-X-DISCONTINUITY") }
        #expect(discontinuities == [2, before + 1, after], "\(playlist.text)")
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(tracking["stitched"] as? Bool == true, "\(tracking)")
        try await Self.expectTheCut(harness, session: id, origin: origin, cue: cue)
    }

    /// A mid-roll at the origin's own discontinuity (8 s, where the second programme starts) goes between its
    /// programmes: the first is served as it is, the second from its first picture (the piece standing in for its
    /// first segment keeps that segment's pictures and discontinuity), and the ad has a discontinuity before it. The
    /// frames decode as the content's with the ad at the cue's frame, and the sound stays within an AAC frame at both
    /// splices.
    @Test func aMidRollAtTheOriginsDiscontinuityGoesBetweenItsProgrammes() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (origin, harness, id, playlist) = try await Self.discontinuousSession(offset: "00:00:08.000", cache: cache)
        let segments = Self.segments(playlist.text), uris = segments.map(\.uri)
        let after = try #require(uris.firstIndex { $0.hasSuffix("/after.ts") }, "\(playlist.text)")
        #expect(uris.filter { $0.hasPrefix("/v1/origin/") } == ["a0", "a1", "b1"].map { "/v1/origin/\($0).ts" }, "\(playlist.text)")
        #expect(Array(uris.prefix(2)) == ["/v1/origin/a0.ts", "/v1/origin/a1.ts"] && after > 2, "\(playlist.text)")
        #expect(uris[2..<after].allSatisfy { $0.hasPrefix("/v1/sessions/\(id)/ads/") }, "\(playlist.text)")
        let discontinuities = segments.indices.filter { segments[$0].tags.contains("#EXT-X-DISCONTINUITY") }
        #expect(discontinuities == [2, after], "\(playlist.text)")
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        #expect(tracking["stitched"] as? Bool == true, "\(tracking)")
        try await Self.expectTheCut(harness, session: id, origin: origin, cue: 192)
        let sound = try await ServeSoundSpliceTests.measure(harness, id: id, rendition: 0, rate: Rational(24), in: try TemporaryDirectory())
        SoundSplices.expectWithinOneFrame(sound, splices: 2, "a mid-roll at the origin's discontinuity")
    }

    /// A cue within a second of the origin's discontinuity (8.5 s, half a second into the second programme) takes the
    /// segment across the discontinuity into its window (no piece shorter than a second), which cannot be cut as one
    /// stream: it is left out, said in the tracking document, and the viewer gets the content there, every frame.
    @Test func aMidRollWhoseCutWouldCrossTheOriginsDiscontinuityIsLeftOutAndSaidSo() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (_, harness, id, playlist) = try await Self.discontinuousSession(offset: "00:00:08.500", cache: cache)
        #expect(Self.segments(playlist.text).map(\.uri) == ["a0", "a1", "b0", "b1"].map { "/v1/origin/\($0).ts" })
        let tracking = harness.json(try await harness.request("GET", "/v1/sessions/\(id)/tracking"))
        let notes = try #require(tracking["notes"] as? [String])
        #expect(notes.contains { $0.contains("cross the origin's EXT-X-DISCONTINUITY before segment 2") }, "\(notes)")
        let frames = try await Self.greyFrames("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8")
        #expect(frames.count == 2 * ServeFixture.frames)
    }

    static let beaconEvents = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]

    /// The beacons the ad server has received (event, request, arrival), once `count` have come: an event, waited
    /// for with a safety net.
    static func waitForBeacons(_ server: LoopbackHTTPServer, count: Int) async throws -> [(event: String, request: LoopbackHTTPServer.Request)] {
        func received() -> [(event: String, request: LoopbackHTTPServer.Request)] {
            beaconEvents.flatMap { event in server.requests(for: "/beacon/red/\(event)").map { (event, $0) } }
        }
        let deadline = ContinuousClock.now + .seconds(300)
        while received().count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return received()
    }

    @Test func eachBeaconIsSentOnceWhenTheSegmentHoldingItsMomentIsRequested() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // A 6 s ad: two segments of the content's 4 s.
        let harness = try Self.harness(cache: cache, adSeconds: 6)
        let id = try await harness.session()
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let ads = Self.segments(playlist.text).map(\.uri).filter { $0.contains("/ads/") }
        #expect(ads.count == 2 && ads.allSatisfy { $0.hasPrefix("/v1/sessions/\(id)/ads/0/0/0/") })
        let tracking = try await harness.request("GET", "/v1/sessions/\(id)/tracking")
        #expect(tracking.status == 200)
        #expect(harness.adServer.requests(for: "/beacon/red/impression").isEmpty, "a playlist fetch sent a beacon")

        // Segment 0 holds frames 0–119 of 180: the impression, start, first quartile (45) and midpoint (90).
        let sentFirst = ContinuousClock.now
        let first = try await harness.request("GET", ads[0], headers: ["User-Agent": "Viewer/1.0"])
        #expect(first.status == 302)
        #expect(first.headers["location"]?.hasPrefix("/v1/cache/ads/") == true)
        #expect(first.headers["cache-control"] == "no-store")
        let early = try await Self.waitForBeacons(harness.adServer, count: 4)
        #expect(early.map(\.event).sorted() == ["firstQuartile", "impression", "midpoint", "start"])
        #expect(early.allSatisfy { $0.request.arrival > sentFirst })
        #expect(early.allSatisfy { $0.request.headers["x-device-user-agent"] == "Viewer/1.0" && $0.request.headers["x-device-ip"] == "127.0.0.1" })
        #expect(early.first { $0.event == "midpoint" }?.request.target == "/beacon/red/midpoint?t=00%3A00%3A00.000")
        // Fetched again: nothing more. Segment 1 (frames 120–179): the third quartile (135) and complete (179).
        #expect(try await harness.request("GET", ads[0]).status == 302)
        let sentSecond = ContinuousClock.now
        #expect(try await harness.request("GET", ads[1]).status == 302)
        let all = try await Self.waitForBeacons(harness.adServer, count: 6)
        #expect(all.map(\.event).sorted() == Self.beaconEvents.sorted())
        #expect(all.filter { ["thirdQuartile", "complete"].contains($0.event) }.allSatisfy { $0.request.arrival > sentSecond })
        #expect(all.first { $0.event == "complete" }?.request.target == "/beacon/red/complete?t=00%3A00%3A04.000")
        // Another session's viewer sends their own.
        let other = try await harness.session()
        let otherAds = Self.segments(try await harness.request("GET", "/v1/sessions/\(other)/1.m3u8").text).map(\.uri).filter { $0.contains("/ads/") }
        #expect(try await harness.request("GET", otherAds[0]).status == 302)
        #expect(try await Self.waitForBeacons(harness.adServer, count: 10).count == 10)
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/ads/0/0/0/seg00009.ts").status == 404)
        #expect(try await harness.request("GET", "/v1/sessions/\(id)/ads/0/7/0/seg00000.ts").status == 404)
    }

    @Test func theCutKeepsTheContentsOwnPacketsOutsideThePartialGOPs() throws {
        let origin = try ServeFixture.origin()
        let directory = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let segment = origin + "/show/v0/seg1.ts"
        let start = try SegmentCutter.firstPictureTime(of: segment)
        // Frame 36 of the segment (content frame 132): GOPs at 0 and 48 of it.
        let result = try SegmentCutter.cut(SegmentCutter.Request(input: segment, cut: start + Rational(36, 24),
                                                                 before: directory + "/before.ts", after: directory + "/after.ts"))
        #expect(result.frames == 96)
        #expect(result.before?.frames == 36 && result.before?.encodedFrames == 36)
        #expect(result.after?.frames == 60 && result.after?.encodedFrames == 12)
        #expect(result.before?.duration == Rational(36, 24) && result.after?.duration == Rational(60, 24))
        // The pictures after the next IDR are the content's own: decoded, they are the same bytes.
        func hashes(_ path: String) throws -> [String] {
            String(decoding: try FFmpegCommandLine.run(["-i", path, "-map", "0:v:0", "-f", "framemd5", "-"]), as: UTF8.self)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
        }
        let original = try hashes(segment), after = try hashes(directory + "/after.ts")
        #expect(after.count == 60)
        #expect(Array(after[12...]) == Array(original[48...]))
        #expect(after[..<12] != original[36..<48])
        // The pieces keep the content's timestamps: the piece after starts at the cut.
        #expect(try SegmentCutter.firstPictureTime(of: directory + "/after.ts") == start + Rational(36, 24))
        // The sound is split, not re-encoded: together the pieces hold the segment's packets.
        func audioPackets(_ path: String) throws -> Int {
            String(decoding: try FFmpegCommandLine.run(["-i", path, "-map", "0:a:0", "-c", "copy", "-f", "framemd5", "-"]), as: UTF8.self)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        }
        #expect(try audioPackets(directory + "/before.ts") + audioPackets(directory + "/after.ts") == audioPackets(segment))

        // A cut on an IDR (frame 48 of the segment) re-encodes nothing: both pieces are the content's own pictures.
        let onIDR = try SegmentCutter.cut(SegmentCutter.Request(input: segment, cut: start + Rational(48, 24),
                                                                before: directory + "/b2.ts", after: directory + "/a2.ts"))
        #expect(onIDR.before?.encodedFrames == 0 && onIDR.after?.encodedFrames == 0)
        #expect(try hashes(directory + "/b2.ts") + hashes(directory + "/a2.ts") == original)
    }

    @Test func everyViewerSharesOneBuildOfEachPieceAndAd() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let ids = [try await harness.session(), try await harness.session(), try await harness.session()]
        // Three viewers ask for both renditions at once: one build of each piece.
        let playlists = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (n, id) in ids.enumerated() {
                for rendition in 0..<2 {
                    group.addTask { (n * 2 + rendition, try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).m3u8").text) }
                }
            }
            var all: [Int: String] = [:]
            for try await (key, text) in group { all[key] = text.replacingOccurrences(of: ids[key / 2], with: "ID") }
            return all
        }
        #expect(playlists[0] == playlists[2] && playlists[0] == playlists[4])
        #expect(playlists[1] == playlists[3] && playlists[1] == playlists[5])
        #expect(playlists[0]?.contains("/v1/sessions/ID/ads/") == true)
        let cuts = try FileManager.default.contentsOfDirectory(atPath: cache + "/cuts")
        let ads = try FileManager.default.contentsOfDirectory(atPath: cache + "/ads")
        #expect(cuts.count == 2, "\(cuts)")
        #expect(ads.count == 2, "\(ads)")
        #expect(harness.adServer.requests(for: "/media/red.mp4").count == 1)
        let piece = try #require(Self.segments(playlists[0] ?? "").first { $0.uri.hasPrefix("/v1/cache/cuts/") })
        let answer = try await harness.request("GET", piece.uri)
        #expect(answer.status == 200)
        #expect(answer.headers["cache-control"] == "public, max-age=86400")
        #expect(try await harness.request("GET", "/v1/cache/cuts/../ads/x.ts").status == 404)
    }

    @Test func aBreakNotReadyInTimeGivesThatViewerTheContentAndIsBuiltForTheNext() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let impatient = try Self.harness(cache: cache, wait: .zero)
        let first = try await impatient.session()
        let playlist = try await impatient.request("GET", "/v1/sessions/\(first)/0.m3u8")
        #expect(playlist.status == 200)
        #expect(Self.segments(playlist.text).map(\.uri) == ["/v1/origin/show/v0/seg0.ts", "/v1/origin/show/v0/seg1.ts"])
        let tracking = impatient.json(try await impatient.request("GET", "/v1/sessions/\(first)/tracking"))
        #expect(tracking["stitched"] as? Bool == false)
        #expect((tracking["notes"] as? [String])?.first?.contains("not ready") == true)
        // The build goes on; the next viewer (of a server sharing the cache) gets the break.
        try await waitForEntries(in: cache, count: 4)
        let patient = try Self.harness(cache: cache, adServer: impatient.adServer)
        let next = try await patient.session()
        let stitched = try await patient.request("GET", "/v1/sessions/\(next)/0.m3u8")
        #expect(stitched.text.contains("/v1/sessions/\(next)/ads/"))
        #expect(impatient.adServer.requests(for: "/media/red.mp4").count == 1)
    }

    /// Waits until the cache holds `count` whole entries (each `entry.json` in place): the builds' end, an event.
    private func waitForEntries(in cache: String, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while ContinuousClock.now < deadline {
            let entries = ["cuts", "ads"].flatMap { kind in
                ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/" + kind)) ?? []).filter {
                    FileManager.default.fileExists(atPath: "\(cache)/\(kind)/\($0)/entry.json")
                }
            }
            if entries.count >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServeTestFailure("the cache never held \(count) entries")
    }

    @Test func aBrokenCacheEntryIsBuiltAgainNotServed() async throws {
        let cache = try Self.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let id = try await harness.session()
        let first = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let piece = try #require(Self.segments(first.text).first { $0.uri.hasSuffix("/before.ts") })
        // Truncate the piece on disk, as a crash or another process might leave it.
        let file = cache + piece.uri.replacingOccurrences(of: "/v1/cache", with: "")
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        try original.prefix(1000).write(to: URL(fileURLWithPath: file))
        let other = try Self.harness(cache: cache, adServer: harness.adServer)
        let next = try await other.session()
        let again = try await other.request("GET", "/v1/sessions/\(next)/0.m3u8")
        #expect(again.text.replacingOccurrences(of: next, with: id) == first.text)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count == original.count)
    }
}

/// The cache's bound: least recently used entries go first, recent ones never.
@Suite struct StitchCacheBoundTests {
    static func build(_ cache: StitchCache, _ key: String, bytes: Int) async throws {
        let result = await cache.entry("ads", key: key, as: BlobEntry.self) { directory throws(StitchBuildError) in
            guard FileManager.default.createFile(atPath: directory + "/seg00000.ts", contents: Data(count: bytes)) else {
                throw StitchBuildError("\(directory): cannot write")
            }
            return BlobEntry(files: [.init(name: "seg00000.ts", bytes: Int64(bytes))])
        }
        _ = try result.get()
    }

    static func key(_ n: Int) -> String { String(repeating: String(n), count: 64) }

    @Test func theLeastRecentlyUsedEntriesAreRemovedPastTheBound() async throws {
        let directory = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try StitchCache(directory: directory, limits: .init(maximumBytes: 250_000, keepRecent: .zero))
        for n in 1...2 { try await Self.build(cache, Self.key(n), bytes: 100_000) }
        // Entry 1 is used again (a segment served), so 2 is now the least recently used.
        #expect(cache.segmentFile(kind: "ads", key: Self.key(1), name: "seg00000.ts") != nil)
        try await Self.build(cache, Self.key(3), bytes: 100_000)
        #expect(cache.evictions == 1)
        #expect(cache.segmentFile(kind: "ads", key: Self.key(2), name: "seg00000.ts") == nil)
        #expect(cache.segmentFile(kind: "ads", key: Self.key(1), name: "seg00000.ts") != nil)
        #expect(cache.segmentFile(kind: "ads", key: Self.key(3), name: "seg00000.ts") != nil)
    }

    @Test func anEntryUsedRecentlyIsKeptEvenPastTheBound() async throws {
        let directory = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try StitchCache(directory: directory, limits: .init(maximumBytes: 150_000, keepRecent: .seconds(3600)))
        for n in 1...3 { try await Self.build(cache, Self.key(n), bytes: 100_000) }
        #expect(cache.evictions == 0)
        #expect((1...3).allSatisfy { cache.segmentFile(kind: "ads", key: Self.key($0), name: "seg00000.ts") != nil })
    }
}

struct BlobEntry: StitchCacheEntry {
    var files: [StitchCache.CachedFile]
}
