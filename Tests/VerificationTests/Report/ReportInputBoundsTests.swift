import AdPlayback
import AdScreen
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification
import VideoPipeline

/// What a report does with hostile numbers, sizes and strings from a render's files, and with a stop: no trap, work
/// linear in the input and bounded by documented limits, long values cut, invisible characters shown, stopping when
/// asked. No media.
@Suite struct ReportInputBoundsTests {
    typealias Page = ReportPageTests

    @Test func anEventTimePastInt64IsWrittenNotTrapped() {
        #expect(ReportFormat.time(1e16) == "1e+16 s")
        #expect(ReportFormat.time(1e300) == "1e+300 s")
        #expect(ReportFormat.time(.infinity) == "0:00.000" && ReportFormat.time(.nan) == "0:00.000" && ReportFormat.time(-5) == "0:00.000")
        #expect(ReportFormat.time(3723.5) == "1:02:03.500")
        #expect(ReportFormat.time(ReportFormat.longestClockTime) == "277777:46:40.000")
        let events = [1e16, 9.3e18, 1e300, -1e300].map {
            SessionEvent(.log(.session, reason: nil, message: "far"), time: $0, contentTime: $0)
        }
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Page.sample, events: events)).html
        #expect(Page.count("<tr id=\"ev-", in: html) == 4)
        #expect(html.contains("<td>1e+16 s</td>"))
        #expect(!html.contains(String(repeating: "0", count: 30)))
        #expect(ReportSVG.number(1e300) == "1000000000000")
    }

    /// 50,000 scenes, one a segment (once 76 s): the lanes are built in one pass, and only the first
    /// `maximumSceneLanes` scenes are lanes, the page saying how many more there were.
    @Test func fiftyThousandScenesAreLinearAndBoundedLanes() throws {
        let scenes = 50_000
        let segments = (0..<scenes).map { i in Page.segment(.content, Int64(i), Int64(i + 1), scenes: ["s\(i)"], layers: [(.banner, "s\(i)")]) }
        let timeline = Page.timeline(segments)
        var polls = 0
        let layout = try ReportLane.layout(of: timeline, isCancelled: { polls += 1; return false })
        #expect(layout.scenes == scenes)
        #expect(layout.lanes.filter { $0.kind == .scene }.count == ReportLane.maximumSceneLanes)
        #expect(layout.omittedScenes == scenes - ReportLane.maximumSceneLanes)
        #expect(layout.lanes.map(\.title).suffix(1) == ["banner"])
        // The banner's scene changes each segment, one frame each: one-frame runs are merged into one span.
        #expect(layout.lanes.last?.spans.map { [$0.start, $0.end] } == [[0, Int64(scenes)]])
        // 50,000 scenes in one segment: as linear.
        var one = timeline
        one.segments = [Page.segment(.content, 0, Int64(scenes))]
        one.segments[0].screen.scenes = (0..<scenes).map { timeline.segments[$0].screen.scenes![0] }
        let wide = try ReportLane.layout(of: one, isCancelled: { false })
        #expect(wide.scenes == scenes && wide.lanes.filter { $0.kind == .scene }.count == ReportLane.maximumSceneLanes)
        // The interrupt flag was looked at all along: once per 1024 segments in each pass.
        #expect(polls >= 4 * (scenes / ReportLane.cancelCheckInterval))
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: timeline, events: [])).html
        #expect(html.contains("50000 scenes (the first 24 drawn as lanes, 49976 more not drawn)"))
        #expect(Page.count("data-lane=\"scene\"", in: html) == ReportLane.maximumSceneLanes)
    }

    @Test func buildingTheLanesAndThePageStopsWhenAsked() throws {
        let segments = (0..<5000).map { i in Page.segment(.content, Int64(i), Int64(i + 1), scenes: ["s\(i % 3)"]) }
        let timeline = Page.timeline(segments)
        // Stopped at the third look: inside the loops, not after them.
        var polls = 0
        #expect(throws: ReportError.self) {
            try ReportLane.layout(of: timeline, isCancelled: { polls += 1; return polls >= 3 })
        }
        #expect(polls == 3)
        do {
            _ = try ReportLane.layout(of: timeline, isCancelled: { true })
            Issue.record("not stopped")
        } catch {
            #expect(error.description == "interrupted; nothing was written")
        }
        #expect(throws: ReportError.self) {
            try RenderReport(title: "out.mp4", timeline: timeline, events: [], isCancelled: { true })
        }
        let report = RenderReport(title: "out.mp4", timeline: timeline, events: Page.events)
        #expect(throws: ReportError.self) { try ReportPage(report: report).data(isCancelled: { true }) }
        #expect(try ReportPage(report: report).data(isCancelled: { false }) == ReportPage(report: report).data)
    }

    /// A stop asked for while the timeline is read is seen before the output is even opened.
    @Test func readingStopsBetweenItsSteps() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("report-stop-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Fuzz/Seeds/timeline/content-ad-content.json")
        try FileManager.default.copyItem(atPath: seed.path, toPath: dir + "/out.mp4.timeline.json")
        // Not a video: had the reader gone on, it would have failed on this file instead.
        _ = FileManager.default.createFile(atPath: dir + "/out.mp4", contents: Data("not a video".utf8))
        var polls = 0
        do {
            _ = try RenderReportReader.read(RenderFiles(output: dir + "/out.mp4"), verify: false,
                                            control: JobControl(isCancelled: { polls += 1; return true }))
            Issue.record("not stopped")
        } catch {
            #expect(error.description == "interrupted; nothing was written")
        }
        #expect(polls == 1)
    }

    @Test func aLongValueIsCutAsAnErrorExcerptIs() {
        let huge = String(repeating: "x", count: 1 << 20)
        var segments = Page.sample.segments
        segments[0].screen.scenes![0].id = SceneID(huge)
        segments[1].source = "/ads/" + huge + ".mp4"
        var timeline = Page.timeline(segments)
        timeline.content.path = huge
        let events = [
            SessionEvent(.adError(.ad(AdReference(0, 0)), code: 403, message: huge), time: 1, frame: 30, contentTime: 1),
            SessionEvent(.click(AdReference(0, 0), clickThrough: "https://x.example/" + huge), time: 1, frame: 30, contentTime: 1),
        ]
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: timeline, events: events)).html
        // Each value is shown as its first 200 characters and its length; the page is small.
        #expect(html.utf8.count < 200_000, "\(html.utf8.count) bytes")
        #expect(!html.contains(String(repeating: "x", count: excerptLimit + 1)))
        #expect(html.contains(String(repeating: "x", count: excerptLimit) + "… (1048576 bytes in all)"))
    }

    /// `…/\u{202E}gpj.exe` would show as `exe.jpg`: every bidirectional control and invisible character is written
    /// as `\u{…}`, on the page and on the contact sheet.
    @Test func bidiAndInvisibleCharactersAreShownEscaped() {
        let hidden: [Unicode.Scalar] = [
            "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{FEFF}",
            "\u{200B}", "\u{200E}", "\u{200F}", "\u{061C}", "\u{00AD}", "\u{2060}", "\u{E0041}", "\u{1}", "\u{85}",
        ]
        let url = "https://x.example/invoice/\u{202E}gpj.exe"
        var segments = Page.sample.segments
        segments[0].screen.scenes![0].id = SceneID("ma\u{200B}in\u{2066}")
        let events = [SessionEvent(.click(AdReference(0, 0), clickThrough: url), time: 1, frame: 30, contentTime: 1),
                      SessionEvent(.log(.session, reason: nil, message: String(String.UnicodeScalarView(hidden))), time: 2, contentTime: 2)]
        let html = ReportPage(report: RenderReport(title: "out\u{202E}4pm.mp4", timeline: Page.timeline(segments), events: events)).html
        for scalar in hidden {
            #expect(!html.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) reached the page")
        }
        #expect(html.contains("invoice/\\u{202e}gpj.exe"))
        #expect(html.contains("ma\\u{200b}in\\u{2066}"))
        #expect(html.contains("out\\u{202e}4pm.mp4"))
        // The sheet's text goes through the same escape (what SheetText draws), after the same cut.
        #expect(VisibleText.shown(ReportFormat.value(url)) == "https://x.example/invoice/\\u{202e}gpj.exe")
        #expect(VisibleText.shown("a\tb\u{7F}é") == "a\\u{9}b\\u{7f}é")
        // Ordinary text, emoji and their variation selectors are shown as they are.
        #expect(VisibleText.shown("Café ❤️ 日本 שלום") == "Café ❤️ 日本 שלום")
    }

    @Test func aVerifyThatCouldNotRunIsNotCheckedInEveryRun() {
        // No such render: verify cannot run, so no run is OK.
        let files = RenderFiles(output: "/nonexistent/out-\(UUID().uuidString).mp4")
        let verdict = RenderReportReader.runVerify(files, timeline: Page.sample)
        #expect(verdict.notChecked != nil && !verdict.passed)
        #expect(verdict.summary.hasPrefix("verify could not check this render: "))
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Page.sample, events: [], verdict: verdict)).html
        #expect(html.contains("data-verdict=\"not-checked\""))
        #expect(Page.count("data-run-verdict=\"not-checked\"", in: html) == Page.sample.segments.count)
        #expect(!html.contains(">OK</td>"))
        #expect(!html.contains("data-run-verdict=\"ok"))
    }

    @Test func joinedFilesOfDeadRunsAreRemovedAndNoOthers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("report-joins-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A process that has ended (and been waited for): its pid is free.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        let names = ["pipctl-report-\(dead)-A.mp4", "pipctl-report-\(getpid())-B.mp4", "pipctl-report-1-C.mp4",
                     "pipctl-report-\(dead)-D.txt", "pipctl-report-x-E.mp4", "other-\(dead).mp4"]
        for name in names { _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1])) }
        // A directory named as a dead run's file is not a file the report made: left alone.
        let directory = "pipctl-report-\(dead)-F.mp4"
        try FileManager.default.createDirectory(atPath: dir + "/" + directory + "/inside", withIntermediateDirectories: true)
        RenderReportReader.removeAbandonedJoins(in: dir)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == (names.dropFirst() + [directory]).sorted())
    }
}
