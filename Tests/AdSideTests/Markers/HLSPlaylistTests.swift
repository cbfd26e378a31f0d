@testable import AdPlayback
import Foundation
import MediaCore
import Testing

/// The media playlist `render --hls` writes: segments, exact durations, and each break's markers where it starts and
/// where the content returns; and the reader `verify` uses, which takes the written text back to the same values.
@Suite struct HLSPlaylistTests {
    /// 30 fps: content 0–179 (6 s), a 20 s break 180–779 in four 5 s segments, content 780–884 (3.5 s); a post-roll
    /// 885–1034 that ends the stream.
    static let spans = [
        HLSSegmentSpan(uri: "s0.m4s", startFrame: 0, frameCount: 180),
        HLSSegmentSpan(uri: "s1.m4s", startFrame: 180, frameCount: 150),
        HLSSegmentSpan(uri: "s2.m4s", startFrame: 330, frameCount: 150),
        HLSSegmentSpan(uri: "s3.m4s", startFrame: 480, frameCount: 150),
        HLSSegmentSpan(uri: "s4.m4s", startFrame: 630, frameCount: 150),
        HLSSegmentSpan(uri: "s5.m4s", startFrame: 780, frameCount: 105),
        HLSSegmentSpan(uri: "s6.m4s", startFrame: 885, frameCount: 150),
    ]
    static let breaks = [HLSAdBreak(index: 0, startFrame: 180, endFrame: 780, plannedDuration: Rational(20)),
                         HLSAdBreak(index: 1, startFrame: 885, endFrame: 1035)]
    static let origin = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    static func playlist() -> HLSMediaPlaylist {
        .withAdMarkers(spans, breaks: breaks, frameRate: FrameRate(30), map: "init.mp4", origin: origin, ptsOffset: 0)
    }

    @Test func theBreaksAreMarkedWhereTheyStartAndWhereTheContentReturns() throws {
        let text = Self.playlist().text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(9)) == [
            "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MAP:URI=\"init.mp4\"", "#EXT-X-PROGRAM-DATE-TIME:2025-12-01T00:00:00.000Z",
            "#EXTINF:6.000000,",
        ])
        // The out markers right before s1, the in markers right before s5, in that order.
        let s1 = try #require(lines.firstIndex(of: "s1.m4s")), s5 = try #require(lines.firstIndex(of: "s5.m4s"))
        #expect(lines[s1 - 3].hasPrefix("#EXT-X-DATERANGE:ID=\"break-0\",START-DATE=\"2025-12-01T00:00:06.000Z\",DURATION=20.000000,PLANNED-DURATION=20.000000,SCTE35-OUT=0xFC30"))
        #expect(lines[s1 - 2] == "#EXT-X-CUE-OUT:20.000000")
        #expect(lines[s5 - 3] == "#EXT-X-CUE-IN")
        #expect(lines[s5 - 2].hasPrefix("#EXT-X-DATERANGE:ID=\"break-0\",START-DATE=\"2025-12-01T00:00:06.000Z\",SCTE35-IN=0xFC30"))
        #expect(lines[s5 - 1] == "#EXTINF:3.500000,")
        #expect(lines.last == "#EXT-X-ENDLIST")
        // The post-roll is marked out; the stream ends inside it, so nothing marks a return.
        #expect(lines.filter { $0 == "#EXT-X-CUE-IN" }.count == 1 && lines.filter { $0.hasPrefix("#EXT-X-CUE-OUT:") }.count == 2)
    }

    @Test func theReaderTakesTheTextBackToTheSameSegmentsAndCues() throws {
        let written = Self.playlist()
        let read = try HLSPlaylistReading(text: written.text, file: "media.m3u8")
        #expect(read.playlist == written)
        #expect(read.playlist.duration == Rational(1035, 30))
        #expect(read.targetDuration == 6)
        #expect(read.cueOuts.map(\.segment) == [1, 6] && read.cueOuts.map(\.duration) == [Rational(20), Rational(5)])
        #expect(read.cueIns == [5])
        #expect(read.start(ofSegment: 1) == Rational(6) && read.start(ofSegment: 5) == Rational(26))
        let range = try #require(read.dateRanges.first)
        #expect(range.id == "break-0" && range.segment == 1 && range.inSegment == 5)
        #expect(range.startDate == Self.origin.addingTimeInterval(6))
        #expect(range.duration == Rational(20) && range.plannedDuration == Rational(20))
        // The cues are the break's splice_insert: out at 6 s for 20 s, back in at 26 s, one event id.
        #expect(range.scte35Out?.command == .spliceInsert(.init(eventID: 1, outOfNetwork: true, pts: 540_000,
                                                                breakDuration: .init(autoReturn: true, duration: 1_800_000))))
        #expect(range.scte35In?.command == .spliceInsert(.init(eventID: 1, outOfNetwork: false, pts: 2_340_000)))
        let post = try #require(read.dateRanges.last)
        #expect(post.id == "break-1" && post.scte35In == nil && post.plannedDuration == nil)
    }

    /// NTSC rates: EXTINF is rounded to the microsecond, the cue's PTS is exact on the 90 kHz clock (3003 a frame),
    /// and a container's start offset moves every PTS.
    @Test func ntscFramesAndAContainerOffset() throws {
        let rate = FrameRate(30000, 1001)
        let spans = [HLSSegmentSpan(uri: "a.ts", startFrame: 0, frameCount: 100), HLSSegmentSpan(uri: "b.ts", startFrame: 100, frameCount: 50)]
        let playlist = HLSMediaPlaylist.withAdMarkers(spans, breaks: [HLSAdBreak(index: 3, startFrame: 100, endFrame: 150)],
                                                      frameRate: rate, map: nil, origin: Self.origin, ptsOffset: 126_000)
        #expect(playlist.text.contains("#EXT-X-VERSION:3\n"))
        #expect(playlist.text.contains("#EXTINF:3.336667,\na.ts\n"))
        let read = try HLSPlaylistReading(text: playlist.text, file: "p.m3u8")
        #expect(read.dateRanges[0].scte35Out?.command == .spliceInsert(.init(eventID: 4, outOfNetwork: true, pts: 126_000 + 300_300,
                                                                            breakDuration: .init(autoReturn: true, duration: 150_150))))
        #expect(read.playlist.segments[0].duration == Rational(3_336_667, 1_000_000))
    }

    @Test func theMasterPlaylistNamesTheVariant() {
        let master = HLSMasterPlaylist(mediaURI: "media.m3u8", bandwidth: 2_400_000, averageBandwidth: 1_900_000,
                                       codecs: ["avc1.64001F", "mp4a.40.2"], resolution: PixelSize(width: 1280, height: 720),
                                       frameRate: FrameRate(30000, 1001))
        #expect(master.text == """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=2400000,AVERAGE-BANDWIDTH=1900000,CODECS="avc1.64001F,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970
        media.m3u8

        """)
    }

    @Test(arguments: [
        ("#EXTM3U\n#EXTINF:4,\n", "p.m3u8: line 3: the last #EXTINF has no segment after it"),
        ("#EXT-X-VERSION:3\n", "p.m3u8: line 1: a playlist starts with #EXTM3U"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.6,\na.ts\n#EXT-X-ENDLIST\n", "p.m3u8: line 6: segment 0 (a.ts) lasts 4.600000 s, over the target duration 4"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\na.ts\n", "p.m3u8: line 3: segment \"a.ts\" has no #EXTINF before it"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:-1,\n", "p.m3u8: line 3: EXTINF \"-1\" is not a duration"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n", "p.m3u8: line 5: a VOD playlist ends with #EXT-X-ENDLIST"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"2025-12-01T00:00:00Z\"\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST",
         "p.m3u8: line 6: EXT-X-DATERANGE needs an EXT-X-PROGRAM-DATE-TIME"),
        ("#EXTM3U\n#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"2025\",SCTE35-OUT=0xFC\n", "p.m3u8: line 2: EXT-X-DATERANGE \"x\" has no START-DATE, or not an ISO 8601 one"),
        ("#EXTM3U\n#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"2025-12-01T00:00:00Z\",SCTE35-OUT=0xFC00\n",
         "p.m3u8: line 2: EXT-X-DATERANGE \"x\": SCTE35-OUT: SCTE-35: the section ends inside section_length"),
        ("#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\n", "p.m3u8: line 2: attribute URI's quoted string is not closed"),
    ])
    func badPlaylistsAreOneLineErrorsNamingTheLine(_ text: String, _ message: String) {
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylistReading(text: text, file: "p.m3u8") }
        do { _ = try HLSPlaylistReading(text: text, file: "p.m3u8") } catch { #expect(error.description == message) }
    }

    @Test func decimalsAreExact() {
        #expect(HLSPlaylistReading.decimal("6.006") == Rational(6006, 1000))
        #expect(HLSPlaylistReading.decimal("10") == Rational(10))
        #expect(HLSPlaylistReading.decimal("+1") == nil && HLSPlaylistReading.decimal("1.") == nil && HLSPlaylistReading.decimal("1e3") == nil)
        #expect(HLSAttributes.decimal(Rational(1001, 30000)) == "0.033367")
        #expect(HLSAttributes.decimal(Rational(1, 2), places: 0) == "1")
    }
}
