import Serving
import Testing

/// A subtitle segment is served in windows cut at a break: each cue on the right side of the cut, cut at it when it
/// spans it, in the file's own clock as its `X-TIMESTAMP-MAP` maps the stream's presentation time.
@Suite struct WebVTTSegmentTests {
    /// A segment as packagers write one (local 0 at presentation time 10 s), with a style block, a note, a cue
    /// identifier and cue settings; CRLF line ends and a byte order mark.
    static let segment = "\u{FEFF}WEBVTT\r\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\r\n\r\nSTYLE\r\n::cue { color: yellow }\r\n\r\n"
        + "NOTE a comment\r\n\r\n"
        + "first\r\n00:00:04.000 --> 00:00:05.000 line:0 align:start\r\nbefore the cut\r\n\r\n"
        + "00:00:05.000 --> 00:00:06.000\r\nacross it\r\n<i>two lines</i>\r\n\r\n"
        + "00:00:06.500 --> 00:00:07.500\r\nafter it\r\n"

    /// Presentation time (90 kHz) of the file's local second `seconds`.
    static func pts(_ seconds: Double) -> Int64 { 900_000 + Int64(seconds * 90_000) }

    @Test func aWindowKeepsTheCuesOnItsSideOfEachCutAndCutsTheOneAcrossIt() throws {
        let vtt = try WebVTTSegment(text: Self.segment, file: "subs/seg1.vtt")
        #expect(vtt.local(Self.pts(5.5)) == 5500)
        #expect(vtt.window(from: nil, to: Self.pts(5.5)) == """
            WEBVTT
            X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

            STYLE
            ::cue { color: yellow }

            first
            00:00:04.000 --> 00:00:05.000 line:0 align:start
            before the cut

            00:00:05.000 --> 00:00:05.500
            across it
            <i>two lines</i>

            """)
        #expect(vtt.window(from: Self.pts(5.5), to: nil) == """
            WEBVTT
            X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

            STYLE
            ::cue { color: yellow }

            00:00:05.500 --> 00:00:06.000
            across it
            <i>two lines</i>

            00:00:06.500 --> 00:00:07.500
            after it

            """)
        // Between two cuts; a cut on a cue's edge leaves it whole on its side.
        let between = try WebVTTSegment(text: vtt.window(from: Self.pts(5), to: Self.pts(6.5)), file: "between.vtt")
        #expect(between.blocks.count == 2)
        #expect(between.blocks.last == .cue(.init(identifier: nil, start: 5000, end: 6000, settings: "", text: ["across it", "<i>two lines</i>"])))
        // Open on both sides: every cue, as read.
        #expect(try WebVTTSegment(text: vtt.window(from: nil, to: nil), file: "all.vtt").blocks == vtt.blocks)
    }

    @Test func theTimestampMapTiesLocalTimeToPresentationTime() throws {
        // Without the header, local 0 is presentation time 0.
        #expect(try WebVTTSegment(text: "WEBVTT\n\n00:01.000 --> 00:02.000\nx\n", file: "a.vtt").local(90_000) == 1000)
        // LOCAL other than 0, written first.
        let shifted = try WebVTTSegment(text: "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:01:00:00.000,MPEGTS:324000000\n", file: "b.vtt")
        #expect(shifted.local(324_000_000 + 45_000) == 3_600_500)
        // Across the 33-bit wrap of MPEG-TS time: a map just before it, a cut just after.
        let wrapping = try WebVTTSegment(text: "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:8589924592,LOCAL:00:00:00.000\n", file: "c.vtt")
        #expect(wrapping.local(80_000) == 1000)
    }

    @Test func aSegmentThatIsNotWebVTTIsRefusedNamingItsLine() {
        #expect(throws: WebVTTError(file: "s/1.vtt", line: 1, message: "not a WebVTT file (no WEBVTT signature)")) {
            _ = try WebVTTSegment(text: "1\n00:00:01,000 --> 00:00:02,000\nan SRT file\n", file: "s/1.vtt")
        }
        #expect(throws: WebVTTError(file: "s/2.vtt", line: 4, message: "cue timing \"00:01.000 --> soon\" is not START --> END")) {
            _ = try WebVTTSegment(text: "WEBVTT\n\nid\n00:01.000 --> soon\nx\n", file: "s/2.vtt")
        }
        #expect(throws: WebVTTError(file: "s/3.vtt", line: 2, message: "X-TIMESTAMP-MAP \"MPEGTS:-5,LOCAL:00:00:00.000\" is not MPEGTS:N,LOCAL:TIME")) {
            _ = try WebVTTSegment(text: "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:-5,LOCAL:00:00:00.000\n", file: "s/3.vtt")
        }
        // Minutes or seconds of 60 and more, and one-digit hours, are not WebVTT times.
        for timing in ["00:60.000 --> 00:61.000", "1:00:00.000 --> 1:00:01.000", "00:01.0 --> 00:02.0"] {
            #expect(throws: WebVTTError.self) { _ = try WebVTTSegment(text: "WEBVTT\n\n\(timing)\nx\n", file: "t.vtt") }
        }
    }
}
