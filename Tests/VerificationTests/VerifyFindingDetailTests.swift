import AdPlayback
import Foundation
import MediaCore
import Testing
@testable import Verification

/// A finding is its typed facts (`VerifyFinding.Detail`): its code and subject follow from them, its sentence is
/// written from them at the edge, and `--json` writes them as `detail` beside the code, subject and sentence.
@Suite struct VerifyFindingDetailTests {
    static let break0ad0 = VerifyFinding.Segment(breakIndex: 0, adIndex: 0)
    static let break1 = VerifyFinding.Segment(breakIndex: 1, adIndex: 0)
    static let at60 = VerifyFinding.FrameTime(frame: 60, milliseconds: 2000)
    static let bannerRect = Timeline.Rect(PixelRect(x: 0, y: 130, width: 320, height: 50))
    static let pip = Timeline.Rect(PixelRect(x: 200, y: 110, width: 100, height: 56))
    static let adBreak = VerifyFinding.Break(index: 0, startFrame: 60, endFrame: 120)
    static let banner = VerifyFinding.LayerName(kind: .banner, scene: "main")
    static let complete = VerifyFinding.Event(type: "COMPLETE", breakIndex: 0, adIndex: 1, frame: 412)
    static let cueOut = SpliceInfoSection(command: .spliceInsert(.init(eventID: 1, outOfNetwork: true, pts: 180_000,
                                                                       breakDuration: .init(autoReturn: true, duration: 180_000))))

    /// One finding of every kind (and of some more than once, with their optional values absent).
    static let samples: [VerifyFinding.Detail] = [
        .frameCount(found: 390, expected: 60000, against: .golden),
        .format(found: .init(width: 320, height: 180, fps: "30/1"), expected: .init(width: 640, height: 360, fps: "25/1")),
        .segmentStarted(frame: 180, segment: break1, resumes: false, expectedFrame: 192, against: .timeline),
        .segmentStartedAtFrame(frame: 240, segment: .content, resumes: true, shown: .init(source: "content", frame: 150), expected: 151,
                               against: .golden),
        .frameShifted(frame: 100, shown: .init(source: "content", frame: 71), expected: 70, against: .timeline),
        .sourceShown(first: 180, last: 209, shown: "ad24", expected: "ad60", segment: break1, against: .timeline),
        .sourceShown(first: 3, last: 9, shown: nil, expected: "content", segment: .content, against: .golden),
        .startsLate(at: .init(frame: 62, milliseconds: 2067), segment: break0ad0, resumes: false, frames: 2, expectedFrame: 60,
                    against: .timeline),
        .startsEarly(at: .init(frame: 179, milliseconds: 5967), segment: .content, resumes: true, frames: 1, expectedFrame: 180,
                     against: .timeline),
        .startsAtFrame(at: at60, segment: break0ad0, resumes: false, shown: 1, expected: 0, offset: 1, against: .timeline),
        .sourceNotShown(at: at60, last: 89, segment: .content, source: "content.mp4", expectedFirst: 60, expectedLast: 89, against: .golden),
        .frameNotOnTick(at: at60, segment: break0ad0, shown: 3, expected: 2, against: .timeline),
        .jumpsAhead(at: at60, segment: break0ad0, frames: 2, shown: 4, expected: 2, against: .golden),
        .framesLost(at: .init(frame: 200, milliseconds: 6667), segment: break0ad0, lost: [100], shown: 102, previous: 98),
        .shownTwice(at: .init(frame: 31, milliseconds: 1033), segment: .content, shown: 30),
        .fallsBehind(at: at60, segment: break0ad0, frames: 1, shown: 1, expected: 2, against: .timeline),
        .contentDiscontinuity(frame: 240, tick: 151, expectedTick: 150),
        .layoutRule(frame: 0, layer: "the display", rect: Timeline.Rect(PixelRect(x: 300, y: 0, width: 100, height: 180)),
                    rule: "inside the canvas", bound: Timeline.Rect(PixelRect(x: 0, y: 0, width: 320, height: 180))),
        .layerMismatch(frame: 0, layer: "banner of scene \"left\"", rect: Timeline.Rect(PixelRect(x: 0, y: 732, width: 592, height: 90)),
                       differences: [.pastEdge(.top), .edgeInside(.bottom)], alsoAt: [7, 14]),
        .layerMismatch(frame: 3, layer: "banner of scene \"main\"", rect: bannerRect,
                       differences: [.inside(x: 8, y: 140, found: .init(y: 16, u: 128, v: 128), expected: .init(y: 235, u: 128, v: 128))],
                       alsoAt: []),
        .playerStamp(frame: 30, scene: "right", kind: .fullscreen, shown: nil, expected: .init(source: "ad60", frame: 0)),
        .playerStamp(frame: 31, scene: "right", kind: .content, shown: .init(source: "side", frame: 3), expected: .init(source: "side", frame: 13)),
        .playerFrame(frame: 0, scene: "right", kind: .content, shown: 0, expected: 10, source: "side.mp4"),
        .playerNotShown(frame: 0, scene: "right", kind: .content, source: "side.mp4", expected: 10, picture: pip),
        .audioMissing,
        .audioChange(frame: 180, segment: break1, offsetFrames: -1.5),
        .audioChangeNotFound(frame: 180, segment: break1),
        .audioSource(first: 180, last: 209, segment: break1, heard: .tone(600), expected: .tone(1150)),
        .audioSource(first: 0, last: 29, segment: .content, heard: nil, expected: .silence),
        .soundOffset(at: at60, place: .start, segment: break0ad0, milliseconds: 40, tolerance: 100.0 / 3),
        .loudnessLevel(ad: .linear(breakIndex: 0, adIndex: 0), outStartFrame: 90, outEndFrame: 210, measure: "integrated",
                       measured: -12.6, target: -12.6, reached: -28.1),
        .loudnessLevel(ad: .linear(breakIndex: 0, adIndex: 1), outStartFrame: 210, outEndFrame: 240, measure: "momentary",
                       measured: -20.5, target: -23, reached: nil),
        .truePeak(ad: .fullScreen(.init(request: 2, scene: "main")), outStartFrame: 90, outEndFrame: 210, truePeak: -0.97, ceiling: -1),
        .hlsSegmentDuration(segment: 1, uri: "s1.ts", seconds: 1.51),
        .hlsLength(frames: 165, expected: 180),
        .hlsBreakStart(adBreak: adBreak),
        .hlsBreakEnd(adBreak: adBreak),
        .hlsCueOut(adBreak: adBreak, seconds: 2, segment: 1),
        .hlsCueIn(adBreak: adBreak, segment: 2),
        .hlsDateRangeMissing(adBreak: adBreak),
        .hlsStartDate(adBreak: adBreak, seconds: 3, expected: 2),
        .hlsDateRangeSegment(adBreak: adBreak, segment: 2, expected: 1),
        .hlsDateRangeDuration(adBreak: adBreak, seconds: nil, expected: 2),
        .hlsDateRangeDuration(adBreak: adBreak, seconds: 1, expected: 2),
        .hlsSCTE35Out(adBreak: adBreak, found: cueOut, pts: 180_000, ticks: 180_000),
        .hlsSCTE35In(adBreak: adBreak, found: nil, pts: 360_000, segment: 2),
        .hlsMarkerCount(dateRanges: 0, cueOuts: 0, breaks: 1),
        .goldenPipStart(window: 1, rect: pip, frame: 30, expected: 45),
        .goldenPipEnd(window: 1, rect: Timeline.Rect(PixelRect(x: 220, y: 120, width: 80, height: 45)), frame: 90, expected: 105),
        .goldenPipRect(window: 1, frame: 30, rect: pip, expected: bannerRect),
        .goldenPipExtra(window: 2, rect: pip, first: 90, last: 119, goldenCount: 1),
        .goldenPipMissing(window: 2, rect: pip, first: 90, last: 119, count: 1),
        .goldenLayersChange(frame: 30, expected: 60),
        .goldenLayerKind(number: 2, frame: 30, layer: banner, expected: .init(kind: .divider, scene: "")),
        .goldenLayerRect(number: 2, frame: 30, layer: banner, rect: bannerRect, expected: pip),
        .goldenLayerShadow(number: 1, frame: 0, layer: .init(kind: .shadow, scene: "side"),
                           shadow: .init(caster: Timeline.Rect(PixelRect(x: 200, y: 0, width: 120, height: 180)), reach: 24), expected: nil),
        .goldenLayerSource(number: 2, frame: 30, layer: banner, source: "banner.png", expected: nil),
        .goldenLayersExtra(frame: 30, count: 2, goldenCount: 1, layers: [banner]),
        .goldenLayersMissing(frame: 0, count: 1, goldenCount: 3, layers: [banner, .init(kind: .divider, scene: "")]),
        .goldenLayerChanges(changes: 1, expected: 0, frame: 30),
        .goldenEvent(number: 1, event: complete, expected: .init(type: "COMMAND", command: "pip off", frame: 30)),
        .goldenEventExtra(number: 2, event: complete, goldenCount: 1),
        .goldenEventMissing(number: 2, expected: .init(type: "LOADED", placement: "feed", card: 1, adID: "a1", scene: "main", frame: nil),
                            count: 1),
        .goldenEventsUnavailable(reason: "the golden is not named NAME.timeline.json, so it has no NAME.events.jsonl beside it"),
    ]

    static let verifyMD = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/VERIFY.md").path

    @Test func everyKindHasADocumentedCodeAndEveryCodeHasAKind() throws {
        let doc = try String(contentsOfFile: Self.verifyMD, encoding: .utf8)
        for kind in VerifyFinding.Detail.Kind.allCases {
            #expect(doc.contains("| `\(kind.code.rawValue)` |"), "\(kind): \(kind.code.rawValue)")
            // Its row names the kind among the code's details.
            let row = doc.split(separator: "\n").first { $0.hasPrefix("| `\(kind.code.rawValue)` |") }
            #expect(row?.contains("`\(kind.rawValue)`") == true, "\(kind) is not in the row of \(kind.code.rawValue)")
        }
        #expect(Set(VerifyFinding.Detail.Kind.allCases.map(\.code)) == Set(VerifyFinding.Code.allCases))
        #expect(Set(VerifyFinding.Detail.Kind.allCases.map(\.rawValue)).count == VerifyFinding.Detail.Kind.allCases.count)
    }

    /// What `--json` writes of a finding, read back as plain values.
    struct Written: Decodable {
        var code: VerifyFinding.Code
        var subject: VerifyFinding.Subject
        var text: String
    }

    @Test func everyKindIsWrittenWithItsCodeSubjectSentenceAndDetailAndReadBackEqual() throws {
        #expect(Set(Self.samples.map(\.kind)) == Set(VerifyFinding.Detail.Kind.allCases), "a kind has no sample")
        let findings = Self.samples.map(VerifyFinding.init)
        let data = try JSONEncoder().encode(findings)
        #expect(try JSONDecoder().decode([VerifyFinding].self, from: data) == findings)
        let written = try JSONDecoder().decode([Written].self, from: data)
        #expect(written.map(\.code) == findings.map(\.code))
        #expect(written.map(\.subject) == findings.map(\.subject))
        #expect(written.map(\.text) == findings.map(\.description))
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.map { ($0["detail"] as? [String: Any])?["kind"] as? String } == Self.samples.map(\.kind.rawValue))
        #expect(objects.allSatisfy { Set($0.keys) == ["code", "subject", "text", "detail"] })
    }

    @Test func aDetailsValuesAreReadByTheirNames() throws {
        func detail(_ d: VerifyFinding.Detail) throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(VerifyFinding(d))) as? [String: Any]
            return try #require(object?["detail"] as? [String: Any])
        }
        let lost = try detail(Self.samples.first { $0.kind == .framesLost }!)
        #expect(lost["kind"] as? String == "framesLost")
        #expect((lost["at"] as? [String: Any])?["frame"] as? Int == 200)
        #expect((lost["at"] as? [String: Any])?["milliseconds"] as? Int == 6667)
        #expect(lost["lost"] as? [Int] == [100])
        #expect(lost["shown"] as? Int == 102 && lost["previous"] as? Int == 98)
        #expect((lost["segment"] as? [String: Any])?["breakIndex"] as? Int == 0)
        let started = try detail(.segmentStarted(frame: 180, segment: Self.break1, resumes: false, expectedFrame: 192, against: .timeline))
        #expect(started["frame"] as? Int == 180 && started["expectedFrame"] as? Int == 192 && started["against"] as? String == "timeline")
        // An absent value is left out, not written as null.
        let duration = try detail(.hlsDateRangeDuration(adBreak: Self.adBreak, seconds: nil, expected: 2))
        #expect(duration["seconds"] == nil && duration["expected"] as? Double == 2)
        #expect((duration["adBreak"] as? [String: Any])?["endFrame"] as? Int == 120)
        // A cue message as the playlist carries it, in base64.
        let scte35 = try detail(.hlsSCTE35Out(adBreak: Self.adBreak, found: Self.cueOut, pts: 180_000, ticks: 180_000))
        #expect(scte35["found"] as? String == Self.cueOut.base64)
        let sound = try detail(.audioSource(first: 180, last: 209, segment: Self.break1, heard: .tone(600), expected: .silence))
        #expect((sound["heard"] as? [String: Any])?["hertz"] as? Double == 600)
        #expect((sound["expected"] as? [String: Any])?["kind"] as? String == "silence")
        let layer = try detail(.layerMismatch(frame: 0, layer: "banner", rect: Self.bannerRect, differences: [.pastEdge(.top)], alsoAt: []))
        #expect((layer["differences"] as? [[String: Any]])?.first?["edge"] as? String == "top")
        #expect((layer["rect"] as? [String: Any])?["height"] as? Int == 50)
    }

    @Test func aCodeThatIsNotTheDetailsIsRefused() throws {
        let data = try JSONEncoder().encode(VerifyFinding(.hlsLength(frames: 165, expected: 180)))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["code"] as? String == "hls.length")
        #expect(try JSONDecoder().decode(VerifyFinding.self, from: data) == VerifyFinding(.hlsLength(frames: 165, expected: 180)))
        object["code"] = "audio.missing"
        let wrong = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(VerifyFinding.self, from: wrong) }
    }

    /// Sentences other tests compare whole renders' reports with, and docs/VERIFY.md quotes, made from their facts.
    @Test func theSentencesAreTheOnesTheReportsAndDocsSay() {
        func text(_ d: VerifyFinding.Detail) -> String { VerifyFinding(d).text }
        // VerifierDetectionTests, VerifierInputTests, TimelineBoundsTests.
        #expect(text(.segmentStarted(frame: 180, segment: Self.break1, resumes: false, expectedFrame: 192, against: .timeline))
                == "break 1 started at output frame 180, the timeline says 192")
        #expect(text(.frameShifted(frame: 100, shown: .init(source: "content", frame: 71), expected: 70, against: .timeline))
                == "output frame 100 shows content frame 71, the timeline says frame 70 (1 frame ahead: frames lost)")
        #expect(text(.segmentStartedAtFrame(frame: 240, segment: .content, resumes: true, shown: .init(source: "content", frame: 150),
                                            expected: 151, against: .timeline))
                == "content resumed at content frame 150 at output frame 240, the timeline says frame 151 (1 frame behind)")
        #expect(text(.sourceShown(first: 180, last: 209, shown: "ad24", expected: "ad60", segment: Self.break1, against: .timeline))
                == "output frames 180–209 show ad24, the timeline says ad60 (ad 0 of break 1)")
        #expect(text(.contentDiscontinuity(frame: 240, tick: 150, expectedTick: 162))
                == "content resumed at tick 150 at output frame 240: ticks 150–161 were shown twice")
        #expect(text(.contentDiscontinuity(frame: 240, tick: 151, expectedTick: 150)) == "content resumed at tick 151 at output frame 240: tick 150 was lost")
        #expect(text(.audioSource(first: 180, last: 209, segment: Self.break1, heard: .tone(600), expected: .tone(1150)))
                == "output frames 180–209 (ad 0 of break 1) sound like a 600 Hz tone, expected a 1150 Hz tone")
        #expect(text(.format(found: .init(width: 320, height: 180, fps: "30/1"), expected: .init(width: 640, height: 360, fps: "25/1")))
                == "the output is 320x180 at 30/1 fps, expected 640x360 at 25/1 fps")
        #expect(text(.frameCount(found: 390, expected: 60000, against: .golden)) == "the output has 390 frames, expected 60000")
        // LoudnessCheckTests.
        #expect(text(.loudnessLevel(ad: .linear(breakIndex: 0, adIndex: 0), outStartFrame: 90, outEndFrame: 210, measure: "integrated",
                                    measured: -12.6, target: -12.6, reached: -28.1))
                == "loudness: break 0 ad 0 (frames 90–210): integrated -12.6 LUFS, target -12.6 LUFS, limited to -28.1 LUFS: 15.5 LU off (±1 LU allowed)")
        // VerifySourcesEndToEndTests (`--sources`), with the frames' times as the frame rate gives them.
        let rate = FrameRate(30)
        #expect(text(.startsAtFrame(at: .init(60, rate: rate), segment: Self.break0ad0, resumes: false, shown: 1, expected: 0, offset: 1,
                                    against: .timeline))
                == "break 0 starts at its frame 1 at output frame 60 (0:02.000), expected frame 0 (1 frame lost)")
        #expect(text(.startsEarly(at: .init(179, rate: rate), segment: .content, resumes: true, frames: 1, expectedFrame: 180, against: .timeline))
                == "content resumes 1 frame early, at output frame 179 (0:05.967); expected output frame 180")
        #expect(text(.startsLate(at: .init(62, rate: rate), segment: Self.break0ad0, resumes: false, frames: 2, expectedFrame: 60,
                                 against: .timeline))
                == "break 0 starts 2 frames late, at output frame 62 (0:02.067); expected output frame 60")
        #expect(text(.framesLost(at: .init(200, rate: rate), segment: Self.break0ad0, lost: [100], shown: 102, previous: 98))
                == "at output frame 200 (0:06.667), ad 0 of break 0 frame 100 is lost (frame 102 follows frame 98)")
        #expect(text(.soundOffset(at: .init(60, rate: rate), place: .start, segment: Self.break0ad0, milliseconds: 40, tolerance: 100.0 / 3))
                == "the sound of ad 0 of break 0 is 40 ms late after output frame 60 (0:02.000) (tolerance 33.3 ms, one frame)")
        #expect(text(.sourceNotShown(at: .init(60, rate: rate), last: 89, segment: .content, source: "content.mp4", expectedFirst: 60,
                                     expectedLast: 89, against: .golden))
                == "output frames 60–89 (0:02.000) do not show content: the golden timeline says content.mp4 frames 60–89")
        // docs/VERIFY.md.
        #expect(text(.shownTwice(at: .init(31, rate: rate), segment: .content, shown: 30))
                == "at output frame 31 (0:01.033), content frame 30 is shown twice")
        #expect(text(.goldenPipEnd(window: 1, rect: Timeline.Rect(PixelRect(x: 220, y: 120, width: 80, height: 45)), frame: 90, expected: 105))
                == "picture in picture window 1 at (220,120 80x45) ended at output frame 90, the golden says 105")
        #expect(text(.playerFrame(frame: 0, scene: "right", kind: .content, shown: 0, expected: 10, source: "side.mp4"))
                == "output frame 0: scene right's player (content layer) shows its frame 0, the timeline says 10 of side.mp4")
        #expect(text(.layerMismatch(frame: 0, layer: "banner of scene \"left\"", rect: Timeline.Rect(PixelRect(x: 0, y: 732, width: 592, height: 90)),
                                    differences: [.pastEdge(.top), .edgeInside(.bottom)], alsoAt: [7, 14]))
                == "frame 0: banner of scene \"left\" expected at x=0, y=732, 592x90, not found there (it goes on past its top edge; its bottom edge differs inside); the same at frames 7, 14")
        // GoldenComparisonTests.
        #expect(text(.goldenLayersMissing(frame: 0, count: 1, goldenCount: 2, layers: [Self.banner]))
                == "from output frame 0 the screen has 1 layers, the golden 2: missing: banner of scene \"main\"")
        #expect(text(.goldenEventMissing(number: 2, expected: .init(type: "COMMAND", command: "pip off", frame: 30), count: 1))
                == "event 2: the golden has COMMAND \"pip off\" at output frame 30; the output's log ends after 1 events")
    }

    @Test func theSubjectFollowsTheFacts() {
        func subject(_ d: VerifyFinding.Detail) -> VerifyFinding.Subject { VerifyFinding(d).subject }
        #expect(subject(.sourceNotShown(at: Self.at60, last: 89, segment: .content, source: "c.mp4", expectedFirst: 60, expectedLast: 89,
                                        against: .timeline)) == .frames(first: 60, last: 89))
        #expect(subject(.startsLate(at: .init(frame: 62, milliseconds: 2067), segment: Self.break0ad0, resumes: false, frames: 2,
                                    expectedFrame: 60, against: .timeline)) == .frame(62))
        #expect(subject(.truePeak(ad: .fullScreen(.init(request: 2, scene: "main")), outStartFrame: 90, outEndFrame: 210, truePeak: -0.5,
                                  ceiling: -1)) == .ad("the full-screen ad of request 2 over scene \"main\" (frames 90–210)"))
        #expect(subject(.hlsSegmentDuration(segment: 1, uri: "s1.ts", seconds: 1.51)) == .playlistSegment(1))
        #expect(subject(.hlsCueIn(adBreak: .init(index: 3, startFrame: 0, endFrame: 30), segment: 1)) == .adBreak(3))
        #expect(subject(.layoutRule(frame: 12, layer: "the display", rect: Self.pip, rule: "inside the canvas", bound: Self.bannerRect))
                == .layer(frame: 12, name: "the display"))
        #expect(subject(.goldenEventsUnavailable(reason: "no log")) == .golden(.events))
        #expect(subject(.audioMissing) == .render)
    }

    /// The frames' times `--sources` names them by are the frame rate's, rounded to the millisecond.
    @Test func aFrameTimeIsItsFrameAtTheRate() {
        #expect(VerifyFinding.FrameTime(179, rate: FrameRate(30)) == .init(frame: 179, milliseconds: 5967))
        #expect(VerifyFinding.FrameTime(179, rate: FrameRate(30)).clock == "0:05.967")
        #expect(VerifyFinding.FrameTime(3600, rate: FrameRate(30)).clock == "2:00.000")
        #expect(SourceVerifier.clock(31, rate: FrameRate(30)) == "0:01.033")
    }
}
