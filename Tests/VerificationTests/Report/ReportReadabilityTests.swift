import AdPlayback
import AdScreen
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification

/// What a QA engineer reads first: the event marks labelled, each banner request shown, what changed at each run,
/// one-frame runs merged, thumbnails cropped to the display, lane names and the verdict never cut. No media.
@Suite struct ReportReadabilityTests {
    typealias Page = ReportPageTests

    static func command(_ words: String, frame: Int64) -> SessionEvent {
        SessionEvent(.command(words), time: Double(frame) / 30, frame: frame, contentTime: 0)
    }

    @Test func eventMarksAreLabelledWithoutOverlapping() {
        let events = Page.events + [
            Self.command("rotate portrait", frame: 120),
            SessionEvent(.screenAd(.bannerViewDidReceiveAd, .init(message: "banner.png 320x50", url: "https://ads.example/banner?x=1")),
                         time: 4, frame: 121, contentTime: 3, scene: SceneID("left")),
            SessionEvent(.screenAd(.bannerViewDidFailToReceiveAd, .init(message: "no fill", url: "https://ads.example/banner?x=2")),
                         time: 6, frame: 180, contentTime: 3, scene: SceneID("left")),
        ]
        #expect(EventLabels.label(events[0]) == "break 0")
        #expect(EventLabels.label(events[1]) == "ad 0·0")
        #expect(EventLabels.label(events[3]) == nil)
        #expect(events.suffix(3).map(EventLabels.label) == ["rotate portrait", "banner filled", "banner failed"])
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Page.sample, events: events)).html
        for text in ["break 0", "rotate portrait", "banner filled", "banner failed"] {
            #expect(html.contains(">\(text)</text>"), "\(text)")
        }
        // Two labels at one frame take two rows; one that would overlap a label on each row is left out (its mark
        // and tooltip kept): "ad 0·1" at 90 and "banner failed" at 180.
        let placed = EventLabels.place(events, rows: 2, x: { Double($0.frame ?? 0) }, width: { Double($0.count) * 6 }, maxX: 1000)
        #expect(placed.map(\.text) == ["break 0", "ad 0·0", "rotate portrait", "banner filled"])
        #expect(placed.map(\.row) == [0, 1, 0, 1])
        for row in 0..<2 {
            let labels = placed.filter { $0.row == row }
            #expect(zip(labels, labels.dropFirst()).allSatisfy { $0.x + Double($0.text.count) * 6 + 4 <= $1.x })
        }
        // Near the right edge a label is moved left to end inside the strip.
        let late = EventLabels.place([SessionEvent(.sessionEnded(.contentEnded), time: 8, frame: 239, contentTime: 8)], rows: 1,
                                     x: { _ in 998 }, width: { _ in 18 }, maxX: 1000)
        #expect(late.map(\.x) == [982])
    }

    @Test func eachRunSaysWhatChanged() {
        var segments = Page.sample.segments
        let landscape = Timeline.Rect(PixelRect(x: 0, y: 0, width: 320, height: 180)), portrait = Timeline.Rect(PixelRect(x: 0, y: 0, width: 180, height: 320))
        for i in segments.indices { segments[i].screen.display = i < 4 ? landscape : portrait }
        segments[2].screen.layers!.append(ReportPageTests.layer(.fullscreen, .init(scene: SceneID("left"), rect: landscape)))
        let events = [Self.command("present interstitial left", frame: 90), Self.command("rotate portrait", frame: 150)]
        let changes = RunChanges.describe(Page.timeline(segments), events: events)
        #expect(changes[0] == "start")
        #expect(changes[1] == "break 0 starts")
        #expect(changes[2] == "command: present interstitial left; full-screen ad presented; banner hidden")
        #expect(changes[3] == "back to content; PiP on; scene right leaves; full-screen ad dismissed")
        #expect(changes[4] == "command: rotate portrait; rotated to portrait")
        #expect(changes[5] == "PiP off")
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Page.timeline(segments), events: events)).html
        #expect(html.contains("<td class=\"change\" data-change=\"4\">command: rotate portrait; rotated to portrait</td>"))
    }

    @Test func aOneFrameRunIsMergedIntoTheRunBeforeIt() {
        // Scene "left" is 160 wide, then for one frame 170 (a transition), then 160 again: one span.
        var segments = [Page.segment(.content, 0, 60, scenes: ["left"]), Page.segment(.content, 60, 61, scenes: ["left"]),
                        Page.segment(.content, 61, 120, scenes: ["left"])]
        segments[1].screen.scenes![0].rect.width = 170
        let lanes = ReportLane.lanes(of: Page.timeline(segments))
        #expect(lanes.first { $0.kind == .scene }?.spans.map { [$0.start, $0.end] } == [[0, 120]])
        // A run of two frames stays.
        segments[1].outEndFrame = 62
        segments[2].outStartFrame = 62
        #expect(ReportLane.lanes(of: Page.timeline(segments)).first { $0.kind == .scene }?.spans.count == 3)
    }

    /// A swipe animated over three frames (three one-frame segments) is one row of the runs table, with its first and
    /// last frame, and says the cards were swiped three times.
    @Test func oneFrameRunsJoinTheirRowInTheRunsTable() {
        var segments = [Page.segment(.content, 0, 60, scenes: ["left"], layers: [(.card, "left")])]
        for f in 60..<63 { segments.append(Page.segment(.content, Int64(f), Int64(f + 1), scenes: ["left"], layers: [(.card, "left")])) }
        segments.append(Page.segment(.ad, 63, 120, breakIndex: 0, adIndex: 0, scenes: ["left"], layers: [(.card, "left")]))
        for i in 1..<4 { segments[i].screen.layers![0] = Page.layer(.card, .init(scene: SceneID("left"), rect: .init(PixelRect(x: -10 * i, y: 0, width: 160, height: 180)))) }
        let timeline = Page.timeline(segments)
        #expect(RunRows.rows(segments) == [0..<4, 4..<5])
        #expect(ThumbnailPlan.frames(timeline) == [0, 62, 63, 119])
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: timeline, events: [])).html
        #expect(Page.count("data-run-kind=", in: html) == 2)
        #expect(html.contains("data-segments=\"0–3\""))
        #expect(html.contains("<td>0–62 (4 runs: 3 of one frame merged)</td>"))
        #expect(html.contains(">start; cards swiped ×3</td>"))
    }

    @Test func laneNamesAndTheVerdictAreNeverCut() {
        let id = "checkout-flow-secondary-window-" + String(repeating: "w", count: 30)
        var segments = Page.sample.segments
        for i in segments.indices { segments[i].screen.scenes?[0].id = SceneID(id) }
        for i in segments.indices { segments[i].screen.layers = segments[i].screen.layers?.map { var l = $0; l.scene = SceneID(id); return l } }
        let timeline = Page.timeline(segments)
        let summary = "verify /a/very/long/path/" + String(repeating: "x", count: 300) + ".mp4: FAILED — 3 problems"
        let verdict = RunVerdicts(summary: summary, passed: false, findings: [], timeline: timeline)
        let report = RenderReport(title: "out.mp4", timeline: timeline, events: [], verdict: verdict)
        let html = ReportPage(report: report).html
        #expect(html.contains("text-anchor=\"end\">scene \(id)</text>"))
        #expect(html.contains(">\(summary)</p>"))
        let sheet = ContactSheet(report: report, thumbnails: [])
        #expect(sheet.gutter >= 24 + Int(7.5 * Double("scene \(id)".count)))
        #expect(sheet.verdictLines == 2)
    }

    @Test func thumbnailsShowTheDisplayOfTheirSegment() {
        var segments = Page.sample.segments
        let display = Timeline.Rect(PixelRect(x: 10, y: 20, width: 300, height: 140))
        for i in 2..<segments.count { segments[i].screen.display = display }
        let timeline = Page.timeline(segments)
        let crops = ThumbnailPlan.displays(timeline, frames: ThumbnailPlan.frames(timeline))
        #expect(crops.keys.sorted() == [90, 119, 120, 149, 150, 169, 170, 239])
        #expect(Set(crops.values) == [display.pixelRect])
    }
}
