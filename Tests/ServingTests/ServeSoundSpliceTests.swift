import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Serving
import Testing
import VideoPipeline

/// Issue 39: the sound stays continuous and in sync across every splice of a stitched rendition, with no gap or
/// overlap over one AAC frame (1,024 samples). Measured from the segments a player downloads (each one's sound and
/// video packets, `MediaProbe.scanSound`), in the two ways players place them:
/// - **by presentation time** (MSE, hls.js, VHS): within a discontinuity a segment's sound sits at its PTS beside
///   its pictures, so at a splice the sound before ends `overrun` after its last picture's end and the sound after
///   starts `lead` before its first picture: their sum is the overlap (negative, a gap);
/// - **one after the other** (the ffmpeg tool over HTTP): each segment's sound follows the samples of all the
///   segments before it, so a segment's first picture is heard `offset` samples after it is shown, counted from the
///   stream's start (its own lead included): what any lead, overrun or priming adds up to.
@Suite struct ServeSoundSpliceTests {
    /// One AAC frame.
    static let frame: Int64 = 1_024

    struct Splice: CustomStringConvertible {
        /// The segment after the splice, by its index in the media playlist.
        var segment: Int
        var uri: String
        /// By presentation time: the sound before's end past its last picture plus the sound after's start before its
        /// first picture (samples; negative, a gap).
        var overlap: Int64
        /// One after the other: how late the sound of the segment's first picture is heard (samples).
        var offset: Int64
        var description: String { "segment \(segment) (\(uri)): overlap \(overlap), offset \(offset) samples" }
    }

    /// What a rendition's segments' sound does at each discontinuity, and the largest offset anywhere.
    struct Measure {
        var splices: [Splice]
        /// One after the other, at every segment's start and at the stream's end (samples; the stream's first
        /// segment counts from its own lead, which a reader hears before its first picture).
        var offsets: [Int64]
        var sampleRate: Int
        func milliseconds(_ samples: Int64) -> Double { Double(samples) * 1000 / Double(sampleRate) }
    }

    /// Downloads each segment of rendition `rendition` of session `id` and measures its splices.
    static func measure(_ harness: ServeHarness, id: String, rendition: Int, rate: Rational,
                        in scratch: TemporaryDirectory) async throws -> Measure {
        let playlist = try await harness.request("GET", "/v1/sessions/\(id)/\(rendition).m3u8")
        try #require(playlist.status == 200, "\(playlist.text)")
        let segments = ServeStitchTests.segments(playlist.text)
        var scans: [MediaProbe.SoundScan] = []
        for (n, segment) in segments.enumerated() {
            var answer = try await harness.request("GET", segment.uri)
            if answer.status == 302, let location = answer.headers["location"] { answer = try await harness.request("GET", location) }
            try #require(answer.status == 200, "\(segment.uri): \(answer.status)")
            let file = scratch.file("r\(rendition)-\(n).ts")
            try Data(answer.body).write(to: URL(fileURLWithPath: file))
            scans.append(try await offPool { try MediaProbe.scanSound(file) })
        }
        let sampleRate = try #require(scans.first?.sampleRate)
        let perSecond = Rational(Int64(sampleRate))
        func samples(_ seconds: Rational) -> Int64 { (seconds * perSecond).rounded }
        var splices: [Splice] = [], offsets: [Int64] = []
        var heard: Int64 = 0, shown = Rational.zero
        var streamLead: Int64 = 0
        for (n, scan) in scans.enumerated() {
            let firstSound = try #require(scan.firstSound, "segment \(n) has no sound")
            let firstPicture = try #require(scan.firstPicture, "segment \(n) has no picture")
            let lead = samples(firstPicture - firstSound)
            if n == 0 { streamLead = lead }
            // Heard after all the sound before and its own lead; shown after all the pictures before and the
            // stream's first lead.
            offsets.append(heard + lead - samples(shown) - streamLead)
            if n > 0, segments[n].tags.contains("#EXT-X-DISCONTINUITY") {
                let before = scans[n - 1]
                let pictureEnd = try #require(before.lastPicture) + rate.reciprocal
                let soundEnd = try #require(before.firstSound) + Rational(before.samples) / perSecond
                splices.append(Splice(segment: n, uri: segments[n].uri, overlap: samples(soundEnd - pictureEnd) + lead,
                                      offset: offsets.last!))
            }
            heard += scan.samples
            shown = shown + Rational(scan.pictures) / rate
        }
        offsets.append(heard - samples(shown) - streamLead)
        return Measure(splices: splices, offsets: offsets, sampleRate: sampleRate)
    }

    /// Every splice within one AAC frame both ways, and the sound never more than a frame off its pictures.
    static func expectWithinOneFrame(_ measure: Measure, splices count: Int, _ shape: String) {
        #expect(measure.splices.count == count, "\(shape): \(measure.splices)")
        for splice in measure.splices {
            #expect(abs(splice.overlap) <= frame, "\(shape) by presentation time: \(splice)")
            #expect(abs(splice.offset) <= frame, "\(shape) one after the other: \(splice)")
        }
        #expect(measure.offsets.allSatisfy { abs($0) <= frame }, "\(shape): offsets \(measure.offsets)")
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
        for rendition in 0..<(shape == .packagedMP4 ? 1 : 2) {
            let measure = try await Self.measure(harness, id: id, rendition: rendition, rate: Rational(24), in: scratch)
            Self.expectWithinOneFrame(measure, splices: splices, "\(shape) rendition \(rendition)")
        }
    }
}
