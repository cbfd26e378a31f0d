import AdPlayback
import LoopbackServer
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification

/// Verify's findings are typed: each kind of problem has its stable code (docs/VERIFY.md), whatever its sentence
/// says. The codes of media-free checks, made here from small timelines and playlists; the pixel and sound checks'
/// codes are asserted where they are found (`VerifierDetectionTests`, `LoudnessCheckTests`, the `--json` end-to-end
/// tests).
@Suite struct VerifyFindingCodeTests {
    static func segment(_ start: Int64, _ end: Int64, tick: Int64, breakIndex: Int? = nil) -> Timeline.Segment {
        Timeline.Segment(kind: breakIndex == nil ? .content : .ad, source: breakIndex == nil ? "content.mp4" : "ad.mp4",
                         sourceFps: "30/1", breakIndex: breakIndex, adIndex: breakIndex.map { _ in 0 }, outStartFrame: start,
                         outEndFrame: end, srcStartTick: tick, srcEndTick: tick + end - start, srcStart: 0, srcEnd: 0, paused: false,
                         pip: nil, picture: Timeline.Rect(PixelRect(x: 0, y: 0, width: 320, height: 180)), audioStart: 0,
                         sourceAudioStart: 0, audioPadded: 0, audioDrift: 0)
    }

    /// Content 0–60, break 0 over frames 60–120, content 120–180, at 30 fps.
    static let timeline = GoldenComparisonTests.timeline([segment(0, 60, tick: 0), segment(60, 120, tick: 0, breakIndex: 0),
                                                          segment(120, 180, tick: 60)])

    @Test func everyCodeIsDocumentedOnceInVerifyMD() throws {
        let doc = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/VERIFY.md").path, encoding: .utf8)
        for code in VerifyFinding.Code.allCases {
            #expect(doc.components(separatedBy: "| `\(code.rawValue)` |").count == 2, "\(code.rawValue)")
        }
        #expect(Set(VerifyFinding.Code.allCases.map(\.rawValue)).count == VerifyFinding.Code.allCases.count)
    }

    @Test func contentThatResumesElsewhereIsADiscontinuityOfItsFirstFrame() {
        var jumped = Self.timeline
        jumped.segments[2].srcStartTick = 65
        let found = Verifier.continuity(jumped, seekFrames: [])
        #expect(found.map(\.code) == [.contentDiscontinuity])
        #expect(found.map(\.subject) == [.frame(120)])
        #expect(found.map(\.description) == ["content resumed at tick 65 at output frame 120: ticks 60–64 were lost"])
        #expect(Verifier.continuity(jumped, seekFrames: [120]).isEmpty)
    }

    @Test func aBrokenLayoutRuleIsALayoutFindingOfItsLayer() {
        var outside = Self.timeline
        outside.segments[0].screen.display = .init(PixelRect(x: 300, y: 0, width: 100, height: 180))
        let found = Verifier.layoutFindings(in: outside)
        #expect(found.map(\.code) == [.layoutRule])
        #expect(found.map(\.subject) == [.layer(frame: 0, name: "the display")])
    }

    @Test func eachGoldenAspectHasItsCode() throws {
        let dir = try TemporaryDirectory()
        let area = Timeline.Layer.Area(scene: "main", rect: PixelRect(x: 0, y: 130, width: 320, height: 50))
        var output = Self.timeline, golden = Self.timeline
        output.segments[1].pip = .init(PixelRect(x: 200, y: 110, width: 100, height: 56))
        output.segments[0].screen.layers = [.banner(area, source: "banner.png")]
        golden.segments[0].screen.layers = [.banner(area, source: "other.png")]
        let started = SessionEvent(.ad(.started, AdReference(0, 0)), time: 2, frame: 60, contentTime: 2)
        let events = try dir.write("out.mp4.events.jsonl", Data())
        let goldenPath = try dir.write("golden.mp4.timeline.json", try golden.jsonData())
        _ = try dir.write("golden.mp4.events.jsonl", Data((String(decoding: try JSONEncoder().encode(started), as: UTF8.self) + "\n").utf8))
        let all = GoldenComparison.compare(output, eventsPath: events, golden: golden, goldenPath: goldenPath, scope: .all)
        #expect(all.problems.map(\.code) == [.goldenPictureInPicture, .goldenLayers, .goldenEvents], "\(all.problems)")
        #expect(all.problems.map(\.subject) == [.golden(.pip), .golden(.layers), .golden(.events)])
        let unavailable = GoldenComparison.compare(output, eventsPath: dir.file("none.jsonl"), golden: golden,
                                                   goldenPath: dir.file("golden.json"), scope: .only([.events]))
        #expect(unavailable.problems.map(\.code) == [.goldenEventsUnavailable], "\(unavailable.problems)")
    }

    static func markers(_ playlist: String) throws -> [VerifyFinding] {
        let reading = try HLSPlaylistReading(text: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + playlist + "#EXT-X-ENDLIST\n", file: "media.m3u8")
        return HLSVerifier.markerProblems(reading, timeline: Self.timeline, rate: FrameRate(30), ptsOffset: 0)
    }

    @Test func eachPlaylistMarkerProblemHasItsCode() throws {
        // No markers at all: the break's cue-out, cue-in and date range are missing, and the counts differ.
        let bare = try Self.markers("#EXTINF:2.000000,\ns0.ts\n#EXTINF:2.000000,\ns1.ts\n#EXTINF:2.000000,\ns2.ts\n")
        #expect(bare.map(\.code) == [.hlsCueOut, .hlsCueIn, .hlsDateRange, .hlsMarkerCount], "\(bare)")
        #expect(bare.map(\.subject) == [.adBreak(0), .adBreak(0), .adBreak(0), .render])
        #expect(bare.map(\.text) == ["break 0 (frames 60..<120): no EXT-X-CUE-OUT of 2.0 s before segment 1",
                                     "break 0 (frames 60..<120): no EXT-X-CUE-IN before segment 2",
                                     "break 0 (frames 60..<120): no EXT-X-DATERANGE break-0",
                                     "the playlist marks 0 date range(s) and 0 EXT-X-CUE-OUT(s) for 1 break(s)"])
        #expect(bare.first?.detail == .hlsCueOut(adBreak: .init(index: 0, startFrame: 60, endFrame: 120), seconds: 2, segment: 1))
        // A segment of 1.51 s: not whole frames, the playlist shorter than the render, and no segment where the break ends.
        let short = try Self.markers("#EXTINF:2.000000,\ns0.ts\n#EXT-X-CUE-OUT:2.000000\n#EXTINF:1.510000,\ns1.ts\n#EXTINF:2.000000,\ns2.ts\n")
        #expect(short.prefix(3).map(\.code) == [.hlsSegmentDuration, .hlsLength, .hlsBreakBoundary], "\(short)")
        #expect(short.first?.subject == .playlistSegment(1))
        #expect(short.prefix(3).map(\.text) == ["segment 1 (s1.ts) lasts 1.51 s, not a whole number of frames",
                                               "the playlist lasts 165 frames, the render 180",
                                               "break 0 (frames 60..<120): no segment starts where it ends"])
        // A date range a second late and a second long, without its SCTE-35 splices.
        let dated = try Self.markers("""
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXTINF:2.000000,
            s0.ts
            #EXT-X-CUE-OUT:2.000000
            #EXT-X-DATERANGE:ID="break-0",START-DATE="2026-01-01T00:00:03.000Z",DURATION=1.0
            #EXTINF:2.000000,
            s1.ts
            #EXT-X-CUE-IN
            #EXTINF:2.000000,
            s2.ts

            """)
        #expect(dated.map(\.code) == [.hlsDateRange, .hlsDateRange, .hlsSCTE35, .hlsSCTE35], "\(dated)")
        #expect(dated.map(\.text) == ["break 0 (frames 60..<120): START-DATE is 3.0 s after the program date-time, not 2.0",
                                      "break 0 (frames 60..<120): DURATION is 1.0, not 2.0",
                                      "break 0 (frames 60..<120): SCTE35-OUT is missing, not a splice_insert out of the network at PTS 180000 for 180000 ticks",
                                      "break 0 (frames 60..<120): SCTE35-IN is missing, not a splice_insert back in the network at PTS 360000 before segment 2"])
    }

    @Test func aFindingIsWrittenWithItsCodeSubjectSentenceAndDetailAndReadBack() throws {
        let findings = [VerifyFinding(.layerMismatch(frame: 7, layer: "banner of scene \"main\"",
                                                     rect: Timeline.Rect(PixelRect(x: 0, y: 130, width: 320, height: 50)),
                                                     differences: [.pastEdge(.top)], alsoAt: [])),
                        VerifyFinding(.hlsCueIn(adBreak: .init(index: 1, startFrame: 60, endFrame: 120), segment: 3)), VerifyFinding(.audioMissing),
                        VerifyFinding(.sourceShown(first: 3, last: 9, shown: nil, expected: "ad60", segment: .content, against: .timeline)),
                        VerifyFinding(.truePeak(ad: .linear(breakIndex: 0, adIndex: 0), outStartFrame: 90, outEndFrame: 210, truePeak: -0.5,
                                                ceiling: -1)),
                        VerifyFinding(.hlsSegmentDuration(segment: 2, uri: "s2.ts", seconds: 1.51)),
                        VerifyFinding(.goldenLayersChange(frame: 30, expected: 60))]
        #expect(findings.map(\.code) == [.layerMismatch, .hlsCueIn, .audioMissing, .framesSource, .loudnessTruePeak, .hlsSegmentDuration,
                                         .goldenLayers])
        #expect(findings.map(\.subject) == [.layer(frame: 7, name: "banner of scene \"main\""), .adBreak(1), .render, .frames(first: 3, last: 9),
                                            .ad("break 0 ad 0 (frames 90–210)"), .playlistSegment(2), .golden(.layers)])
        let data = try JSONEncoder().encode(findings)
        #expect(try JSONDecoder().decode([VerifyFinding].self, from: data) == findings)
        let first = try #require((try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first)
        #expect(first["code"] as? String == "layer.mismatch")
        #expect((first["subject"] as? [String: Any])?["kind"] as? String == "layer")
        #expect(first["text"] as? String == "frame 7: banner of scene \"main\" expected at x=0, y=130, 320x50, not found there (it goes on past its top edge)")
        #expect((first["detail"] as? [String: Any])?["kind"] as? String == "layerMismatch")
        #expect((first["detail"] as? [String: Any])?["frame"] as? Int == 7)
    }
}
