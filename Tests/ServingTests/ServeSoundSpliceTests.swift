import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Serving
import StampedMedia
import Testing
import VideoPipeline

/// Issue 39: the sound stays continuous and in sync across every splice of a stitched rendition, with no gap or
/// overlap over one AAC frame (1,024 samples), measured from the segments a player downloads in the two ways players
/// place them (`SoundSplices`).
@Suite struct ServeSoundSpliceTests {
    static let frame = SoundSplices.frame

    /// Downloads each segment of rendition `rendition` of session `id` and measures its splices.
    static func measure(_ harness: ServeHarness, id: String, rendition: Int, rate: Rational,
                        in scratch: TemporaryDirectory) async throws -> SoundSplices.Measure {
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).m3u8")
        try #require(playlist.status == 200, "\(playlist.text)")
        var segments: [SoundSplices.Segment] = []
        for (n, segment) in SoundSplices.playlistSegments(playlist.text).enumerated() {
            var answer = try await harness.request("GET", segment.uri)
            if answer.status == 302, let location = answer.headers["location"] { answer = try await harness.request("GET", location) }
            try #require(answer.status == 200, "\(segment.uri): \(answer.status)")
            let file = scratch.file("r\(rendition)-\(n).ts")
            try Data(answer.body).write(to: URL(fileURLWithPath: file))
            segments.append(SoundSplices.Segment(uri: segment.uri, discontinuity: segment.discontinuity, file: file))
        }
        let downloaded = segments
        return try await offPool { try SoundSplices.measure(downloaded, rate: rate) }
    }

    /// A VMAP whose one mid-roll at 5.5 s is a pod of two ads.
    static func pod(adServer: URL) -> String {
        func ad(_ id: String, _ sequence: Int) -> String {
            """
            <Ad id="\(id)" sequence="\(sequence)"><InLine><AdSystem>test</AdSystem><AdTitle>\(id)</AdTitle>
            <Impression><![CDATA[\(adServer)/beacon/\(id)/impression]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:03.000</Duration>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[\(adServer)/media/red.mp4]]></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad>
            """
        }
        return """
        <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
        <vmap:AdBreak timeOffset="00:00:05.500" breakType="linear" breakId="mid"><vmap:AdSource id="mid"><vmap:VASTAdData>
        <VAST version="4.0">\(ad("first", 1))\(ad("second", 2))</VAST>
        </vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
        </vmap:VMAP>
        """
    }

    /// A conditioned ad's sound starts with its first picture (no priming) and ends within half an AAC frame of its
    /// last picture's end: 5 s at 48 kHz is 234.375 AAC frames, so its encoder's 235 (with the last one cut short in
    /// the MP4 by its edit list) would run 640 samples past; 234 end 384 before.
    @Test func aConditionedAdsSoundStartsWithItsFirstPictureAndEndsWithinHalfAFrameOfItsLast() throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.file("five.mp4")
        _ = try FFmpegCommandLine.run([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=5",
            "-f", "lavfi", "-i", "anoisesrc=color=pink:sample_rate=48000:amplitude=0.3:duration=5:seed=3",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", source,
        ])
        let directory = scratch.file("ad")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = try AdConditioner.condition(AdConditioner.Request(
            input: source, directory: directory, size: PixelSize(width: 320, height: 180), frameRate: FrameRate(24)))
        #expect(made.frames == 120)
        let scans = try made.segments.map { segment in try MediaProbe.scanSound(directory + "/" + segment.uri) }
        #expect(scans.first?.soundAfterPicture == 0)
        let samples = scans.reduce(0) { $0 + $1.samples }
        #expect(samples == 234 * Self.frame, "\(samples) samples for 240,000 of pictures")
        // Its alternate ending keeps the 235th packet, whole in MPEG-TS: 640 samples past the pictures' end, and
        // the same pictures.
        let alternate = try #require(made.alternateLast)
        let last = try #require(made.segments.last)
        #expect(alternate.uri == last.uri.replacingOccurrences(of: ".ts", with: "-alt.ts") && alternate.frames == last.frames)
        let other = try MediaProbe.scanSound(directory + "/" + alternate.uri)
        #expect(other.pictures == scans.last?.pictures)
        #expect(samples - scans.last!.samples + other.samples == 235 * Self.frame)
    }

    enum Shape: String, CaseIterable, Sendable {
        /// ServeStitchTests' fixture: the mid-roll at 5.5 s, inside a segment and inside a GOP.
        case midrollInASegmentAndGOP
        /// ServeFixture.vmap: a pre-roll, and a mid-roll at 4 s, on a segment's first frame.
        case prerollAndMidrollOnASegmentBoundary
        /// MP4 content packaged by the server, the mid-roll at 5.5 s.
        case packagedMP4
        /// Two ads in one mid-roll.
        case podOfTwoAds
    }

    @Test(arguments: Shape.allCases)
    func everySpliceOfTheSoundIsWithinOneAACFrameBothWays(_ shape: Shape) async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let scratch = try TemporaryDirectory()
        let harness: ServeHarness, id: String, splices: Int
        switch shape {
        case .midrollInASegmentAndGOP:
            harness = try ServeVerifyTests.harness(cache: cache)
            id = try await harness.session()
            splices = 2
        case .prerollAndMidrollOnASegmentBoundary:
            harness = try ServeVerifyTests.harness(cache: cache, vmap: ServeFixture.vmap(adServer:))
            id = try await harness.session()
            splices = 3
        case .packagedMP4:
            harness = try ServeVerifyTests.harness(cache: cache, origin: try ServeStitchTests.mp4Origin())
            id = try await harness.session(content: "movie.mp4")
            splices = 2
        case .podOfTwoAds:
            harness = try ServeVerifyTests.harness(cache: cache, vmap: Self.pod(adServer:))
            id = try await harness.session()
            splices = 3
        }
        try await Self.expectTheFFmpegToolShowsEveryPictureOneFrameAfterTheLast(harness, id: id, shape, in: scratch)
        for rendition in 0..<(shape == .packagedMP4 ? 1 : 2) {
            let measure = try await Self.measure(harness, id: id, rendition: rendition, rate: Rational(24), in: scratch)
            SoundSplices.expectWithinOneFrame(measure, splices: splices, "\(shape) rendition \(rendition)")
            // Each ad's ending is chosen so that what the ads add up to stays within half a frame: without the
            // choice, the pod's two 3 s ads (384 samples past their pictures each) end the stream 768 samples late.
            #expect(abs(measure.offsets.last!) <= Self.frame / 2, "\(shape) rendition \(rendition): offsets \(measure.offsets)")
        }
    }

    /// The presentation times (90 kHz) of the packets of `file`'s first stream of `kind` (`v` or `a`), sorted, as
    /// ffprobe reads them.
    static func presentationTimes(_ file: String, _ kind: String) throws -> [Int64] {
        try FFmpegCommandLine.probe(["-select_streams", "\(kind):0", "-show_entries", "packet=pts", "-of", "csv=p=0", file])
            .split(whereSeparator: \.isNewline).compactMap { Int64($0.split(separator: ",").first ?? "") }.sorted()
    }

    /// The ffmpeg tool reading a stitched stream over HTTP joins decode times across each discontinuity. The
    /// content's pictures are decoded two frames before they are shown (x264's B-pyramid), and each ad is stamped
    /// the same (`AdConditioner.Request.decodeDelay`): so every picture of its download comes one frame after the one
    /// before (decoded as they were shown, the ads left the content after them two frames late, with 80 ms of silence),
    /// and the sound runs on within an AAC frame at every splice.
    static func expectTheFFmpegToolShowsEveryPictureOneFrameAfterTheLast(_ harness: ServeHarness, id: String, _ shape: Shape,
                                                                          in scratch: TemporaryDirectory) async throws {
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/0.m3u8")
        let frames = Int64((ServeStitchTests.segments(playlist.text).map(\.duration).reduce(0, +) * 24).rounded())
        let first = try #require(ServeStitchTests.segments(playlist.text).first { !$0.uri.contains("/ads/") })
        let content = try await harness.request("GET", first.uri)
        try Data(content.body).write(to: URL(fileURLWithPath: scratch.file("content.ts")))
        // The content is decoded two frames ahead of its pictures, else this test would prove nothing.
        #expect(try SegmentCutter.pictureTiming(of: scratch.file("content.ts")).decodeDelay == Rational(2, 24))

        let download = scratch.file("download.ts")
        _ = try await offPool { try FFmpegCommandLine.run(["-i", "http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8", "-c", "copy", download]) }
        let (pictures, sound) = try await offPool { (try Self.presentationTimes(download, "v"), try Self.presentationTimes(download, "a")) }
        #expect(Int64(pictures.count) == frames, "\(shape)")
        // One frame is 3,750 ticks. Where a piece starts with its sound (the content's first segment after a
        // pre-roll), the tool joins the sound, which is within half an AAC frame (960 ticks) of the pictures.
        let steps = zip(pictures.dropFirst(), pictures).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 3_750) <= 960 }, "\(shape): picture steps \(Set(steps).sorted())")
        // 1,024 samples at 48 kHz are 1,920 ticks: no gap or overlap over one AAC frame.
        let soundSteps = zip(sound.dropFirst(), sound).map { $0 - $1 }
        #expect(soundSteps.allSatisfy { abs($0 - 1_920) <= 1_920 }, "\(shape): sound steps \(Set(soundSteps).sorted())")
        let pictureEnd = pictures.last! + 3_750, soundEnd = sound.last! + 1_920
        #expect(abs(soundEnd - pictureEnd) <= 1_920, "\(shape): the sound ends \(soundEnd - pictureEnd) ticks after the pictures")
    }
}
