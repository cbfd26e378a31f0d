import AdPlayback
import Foundation
import HTTPServing
import LoopbackServer
import MediaCore
import Serving
import Testing
import Verification
import VideoPipeline

/// `pipctl verify --sources`, an independent reader of the pixels, passes the stream a player downloads: each
/// rendition fetched over HTTP by the ffmpeg tool, against the session's timeline (`/v1/sessions/ID/N.timeline.json`).
@Suite struct ServeVerifyTests {
    /// An ad that moves (fingerprints tell its frames apart; a solid colour would be "not verifiable") with a noise
    /// for its sound (whose alignment can be measured; a tone's cannot): 3 s at 320x240 and 30 fps.
    static func movingAd() throws -> String {
        try TestFixtures.directory(for: "serve-ad-moving-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=3,negate",
                "-f", "lavfi", "-i", "anoisesrc=color=pink:sample_rate=44100:amplitude=0.3:duration=3:seed=7",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                directory + "/moving.mp4",
            ])
        } + "/moving.mp4"
    }

    /// A server whose ad server answers `vmap` (the mid-roll at 5.5 s by default), every ad the moving one.
    static func harness(cache: String, origin: String? = nil, vmap: ((URL) -> String)? = nil,
                        timelineScanBytes: Int64? = nil) throws -> ServeHarness {
        let harness = try ServeHarness(stitchCache: cache, origin: origin, timelineScanBytes: timelineScanBytes)
        var document = vmap?(harness.adServer.baseURL) ?? ServeStitchTests.vmap(adServer: harness.adServer.baseURL)
        for name in ["red", "ad-pre", "ad-mid"] {
            document = document.replacingOccurrences(of: "/media/\(name).mp4", with: "/media/moving.mp4")
        }
        harness.adServer.route("/vmap", .xml(document))
        harness.adServer.route("/media/moving.mp4", .file(URL(fileURLWithPath: try movingAd()), contentType: "video/mp4"))
        return harness
    }

    /// The stream at `url` as an MP4, as a viewer would keep it: every picture re-encoded at high quality, none added
    /// or dropped, and each discontinuity's jump in the timestamps taken out (the ffmpeg tool's own correction,
    /// from a second on), so the sound runs on across each splice.
    static func download(_ url: String, to path: String) async throws {
        _ = try await offPool {
            try FFmpegCommandLine.run([
                "-dts_delta_threshold", "1", "-i", url, "-map", "0:v:0", "-map", "0:a:0", "-fps_mode", "passthrough",
                "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-c:a", "aac", "-b:a", "192k", "-y", path,
            ])
        }
    }

    static func verify(_ output: String, timeline: String) async throws -> SourceReport {
        try await offPool { try SourceVerifier.verify(Verifier.Request(outputPath: output, timelinePath: timeline)) }
    }

    /// The same timeline (content, ad, content) with its cut one frame later: the content runs a frame longer before
    /// the ad and starts a frame later after it, which the stream does not show.
    static func cutOneFrameLater(_ timeline: Timeline) throws -> Timeline {
        var moved = timeline
        let rate = try #require(FrameRate(parsing: timeline.output.fps))
        let clock = SampleClock(sampleRate: Int64(timeline.output.sampleRate), frameRate: rate)
        try #require(moved.segments.map(\.kind) == [.content, .ad, .content])
        moved.segments[0].outEndFrame += 1
        moved.segments[0].srcEndTick += 1
        moved.segments[1].outStartFrame += 1
        moved.segments[1].outEndFrame += 1
        moved.segments[2].outStartFrame += 1
        moved.segments[2].srcStartTick += 1
        moved.segments[2].sound.sourceStart += clock.samples(fromFrame: 0, toFrame: 1)
        for i in 1...2 { moved.segments[i].sound.start = clock.sample(atFrame: moved.segments[i].outStartFrame) }
        return moved
    }

    @Test func verifyPassesEachDownloadedRenditionAgainstTheSessionsTimelineAndFailsOneCutAFrameLater() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let scratch = try TemporaryDirectory()
        let harness = try Self.harness(cache: cache)
        let id = try await harness.session()
        let origin = try ServeFixture.origin()
        for rendition in 0..<2 {
            let answer = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).timeline.json")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.headers["cache-control"] == "no-store")
            let timeline = try Timeline.decode(Data(answer.body))
            // The content up to the cue's frame (132: inside segment 1 and inside its first GOP), the ad's 72 frames
            // at the rendition's 24 fps, then the content from the cue's frame to its end.
            #expect(timeline.segments.map(\.kind) == [.content, .ad, .content])
            #expect(timeline.segments.map(\.outStartFrame) == [0, 132, 204])
            #expect(timeline.output.frames == Int64(ServeFixture.frames + 72))
            #expect(timeline.content.path == origin + "/show/v\(rendition)/index.m3u8")
            #expect(timeline.segments[1].source.hasPrefix(cache + "/media/"))
            #expect(timeline.output.width == (rendition == 0 ? 640 : 320))
            // The ad's 4:3 picture pillarboxed in the 16:9 rendition.
            #expect(timeline.segments[1].picture.width == (rendition == 0 ? 480 : 240))

            let stream = scratch.file("stream\(rendition).mp4"), path = scratch.file("stream\(rendition).timeline.json")
            try Data(answer.body).write(to: URL(fileURLWithPath: path))
            try await Self.download("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/\(rendition).m3u8", to: stream)
            let report = try await Self.verify(stream, timeline: path)
            #expect(report.verdict == .passed, "rendition \(rendition): \(report.problems) \(report.notes)")
            #expect(report.frames == timeline.output.frames)
            // Every frame was told apart by its fingerprint, and the ad's sound was measured at both ends (within a
            // frame: the ffmpeg tool joins the ad's sound, its encoder's priming included, to the end of the content's,
            // which runs 4 ms past the content's last picture, so it measures about 25 ms late).
            #expect(report.segments.map(\.identified) == [132, 72, 60], "\(report.segments)")
            #expect(report.audio.filter { $0.segment == 1 && $0.offsetMilliseconds != nil && $0.ok }.count == 2, "\(report.audio)")

            if rendition == 0 {
                let moved = scratch.file("moved.timeline.json")
                try Self.cutOneFrameLater(timeline).jsonData().write(to: URL(fileURLWithPath: moved))
                let wrong = try await Self.verify(stream, timeline: moved)
                #expect(wrong.verdict == .failed, "a cut a frame later passed: \(wrong.notes)")
                // Named where it is wrong: the break's first frame and the content's return, each a frame early.
                #expect(wrong.findings.filter { $0.code == .framesBoundary }.count == 2, "\(wrong.problems)")
            }
        }
    }

    @Test func aTimelineOfAnUnknownSessionOrRenditionOrOfAServerWithoutACacheIsNotFound() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try Self.harness(cache: cache)
        let id = try await harness.session()
        let unknown = try await harness.request("GET", "/v1/sessions/\(String(repeating: "0", count: 32))/0.timeline.json")
        #expect(unknown.status == 404)
        for name in ["2.timeline.json", "-1.timeline.json", "01.timeline.json", ".timeline.json", "0.timeline.jsonx"] {
            let answer = try await harness.request("GET", "/v1/sessions/\(id)/\(name)")
            #expect(answer.status == 404, "\(name): \(answer.status)")
        }
        // A server that stitches nothing (no --cache) has no timelines.
        let plain = try ServeHarness()
        let plainID = try await plain.session()
        let answer = try await plain.request("GET", "/v1/sessions/\(plainID)/0.timeline.json")
        #expect(answer.status == 404 && answer.text.contains("no --cache"), "\(answer.status) \(answer.text)")
    }

    /// Downloads rendition `rendition` of session `id` and verifies it against its timeline.
    static func downloadAndVerify(_ harness: ServeHarness, id: String, rendition: Int, in scratch: TemporaryDirectory) async throws -> (Timeline, SourceReport) {
        let answer = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).timeline.json")
        try #require(answer.status == 200, "\(answer.text)")
        let timeline = try Timeline.decode(Data(answer.body))
        let stream = scratch.file("s\(id)-\(rendition).mp4"), path = scratch.file("s\(id)-\(rendition).timeline.json")
        try Data(answer.body).write(to: URL(fileURLWithPath: path))
        try await download("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/\(rendition).m3u8", to: stream)
        return (timeline, try await verify(stream, timeline: path))
    }

    @Test func aSessionWithoutAdsHasTheContentAloneInItsTimeline() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let scratch = try TemporaryDirectory()
        // An ad server with no ads: the VMAP's one break is empty, so the stream is the content as it is.
        let harness = try Self.harness(cache: cache, vmap: { _ in
            #"<vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0"></vmap:VMAP>"#
        })
        let id = try await harness.session()
        let (timeline, report) = try await Self.downloadAndVerify(harness, id: id, rendition: 1, in: scratch)
        #expect(timeline.segments.map(\.kind) == [.content] && timeline.output.frames == Int64(ServeFixture.frames))
        #expect(timeline.output.width == 320 && timeline.output.fps == "24/1")
        #expect(report.verdict == .passed, "\(report.problems) \(report.notes)")
    }

    @Test func aRenditionOverTheScanBoundHasNoTimeline() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // The origin's renditions are about 400 KiB and 800 KiB of segments: neither is counted within 64 KiB.
        let harness = try Self.harness(cache: cache, timelineScanBytes: 64 << 10)
        let id = try await harness.session()
        let answer = try await harness.request("GET", "/v1/sessions/\(id)/0.timeline.json")
        #expect(answer.status == 422)
        let message = (harness.json(answer)["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("over the 65536 read to count its frames") && !message.contains("\n"), "\(message)")
        // Nothing was read: the cache holds no count of its frames (only the sound of the segments around the
        // breaks, which the session counted to choose each ad's ending).
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/timelines")) ?? []).filter { !$0.hasPrefix(".") }
        let counts = entries.compactMap { FileManager.default.contents(atPath: cache + "/timelines/" + $0 + "/entry.json") }
        #expect(counts.count == entries.count && !counts.isEmpty)
        #expect(!counts.contains { String(decoding: $0, as: UTF8.self).contains("segmentFrames") })
    }

    /// The other shapes a session's stream takes: MP4 content packaged by the server (the timeline names the MP4),
    /// fMP4 renditions, variants whose sound is an audio rendition of their own (the timeline names the playlists
    /// that read the origin's two), and a pre-roll with a mid-roll on a segment's first frame, an IDR (the ads
    /// first, the cut copying both sides).
    enum Shape: String, CaseIterable, Sendable {
        case packagedMP4, fmp4Renditions, demuxedAudio, prerollAndMidrollOnASegmentBoundary
    }

    @Test(arguments: Shape.allCases)
    func verifyPassesTheDownloadedStream(of shape: Shape) async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let scratch = try TemporaryDirectory()
        let harness: ServeHarness, id: String, kinds: [Timeline.Segment.Kind], starts: [Int64]
        switch shape {
        case .packagedMP4:
            harness = try Self.harness(cache: cache, origin: try ServeStitchTests.mp4Origin())
            id = try await harness.session(content: "movie.mp4")
            (kinds, starts) = ([.content, .ad, .content], [0, 132, 204])
        case .fmp4Renditions:
            harness = try Self.harness(cache: cache, origin: try ServeStitchTests.fmp4Origin())
            id = try await harness.session(content: "index.m3u8")
            (kinds, starts) = ([.content, .ad, .content], [0, 132, 204])
        case .demuxedAudio:
            harness = try Self.harness(cache: cache, origin: try ServeStitchTests.demuxedOrigin())
            id = try await harness.session(content: "master.m3u8")
            (kinds, starts) = ([.content, .ad, .content], [0, 132, 204])
        case .prerollAndMidrollOnASegmentBoundary:
            harness = try Self.harness(cache: cache, vmap: ServeFixture.vmap(adServer:))
            id = try await harness.session()
            (kinds, starts) = ([.ad, .content, .ad, .content], [0, 72, 168, 240])
        }
        let (timeline, report) = try await Self.downloadAndVerify(harness, id: id, rendition: 0, in: scratch)
        #expect(timeline.segments.map(\.kind) == kinds && timeline.segments.map(\.outStartFrame) == starts, "\(timeline.segments)")
        #expect(report.verdict == .passed, "\(report.problems) \(report.notes)")
        #expect(report.frames == timeline.output.frames && timeline.output.frames == Int64(ServeFixture.frames + 72 * (kinds.count / 2)))
        #expect(report.segments.allSatisfy { $0.identified == $0.outEndFrame - $0.outStartFrame }, "\(report.segments)")
        if shape == .packagedMP4 { #expect(timeline.content.path == (try ServeStitchTests.mp4Origin()) + "/movie.mp4") }
        if shape == .demuxedAudio { #expect(timeline.content.path.hasPrefix(cache + "/packaged/") && timeline.content.path.hasSuffix("/muxed.m3u8")) }
    }
}
