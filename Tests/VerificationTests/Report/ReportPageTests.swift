import AdPlayback
import AdScreen
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification

/// The report's page and strip, built from constructed timelines: no media, no browser.
@Suite struct ReportPageTests {
    static func segment(_ kind: Timeline.Segment.Kind, _ start: Int64, _ end: Int64, breakIndex: Int? = nil, adIndex: Int? = nil,
                        pip: Bool = false, scenes: [String] = [], layers: [(ScreenLayer.Kind, String)] = [],
                        source: String = "content.mp4") -> Timeline.Segment {
        var s = Timeline.Segment(kind: kind, source: source, sourceFps: "30/1", breakIndex: breakIndex, adIndex: adIndex,
                                 outStartFrame: start, outEndFrame: end, srcStartTick: 0, srcEndTick: end - start, srcStart: 0,
                                 srcEnd: 0, paused: false, pip: pip ? Timeline.Rect(PixelRect(x: 200, y: 100, width: 96, height: 54)) : nil,
                                 picture: Timeline.Rect(PixelRect(x: 0, y: 0, width: 320, height: 180)), audioStart: start * 1600,
                                 sourceAudioStart: 0, audioPadded: 0, audioDrift: 0)
        let rect = Timeline.Rect(PixelRect(x: 0, y: 0, width: 160, height: 180))
        if !scenes.isEmpty {
            s.screen.scenes = scenes.map { Timeline.Scene(id: SceneID($0), rect: rect, safeArea: rect, state: .foregroundActive) }
            s.screen.layers = layers.map { Self.layer($0.0, Timeline.Layer.Area(scene: SceneID($0.1), rect: rect)) }
        }
        return s
    }

    /// A layer of `kind` with no creative: what the report draws of it is its kind, scene and frames.
    static func layer(_ kind: ScreenLayer.Kind, _ area: Timeline.Layer.Area) -> Timeline.Layer {
        switch kind {
        case .banner: .banner(area, source: nil)
        case .card: .card(area, .init(index: nil, adID: nil, placement: nil, clip: nil, radius: nil))
        case .slider: .slider(area, .init(placement: nil, placeholder: false))
        case .overlay: .overlay(area)
        case .fullscreen: .fullScreen(area, .placeholder)
        default: .player(.init(.content, area, source: nil))
        }
    }

    static func timeline(_ segments: [Timeline.Segment]) -> Timeline {
        let frames = segments.last?.outEndFrame ?? 0
        return Timeline(output: .init(path: "out.mp4", fps: "30/1", width: 320, height: 180, frames: frames, duration: Double(frames) / 30,
                                      sampleRate: 48000, channels: 2, audioSamples: frames * 1600, profile: "delivery"),
                        content: .init(path: "content.mp4", fps: "30/1", frames: 180, duration: 6), segments: segments)
    }

    /// Content, a break of two ads, content in PiP over two segments (one window), content; two scenes, a banner in
    /// one and cards in the other.
    static let sample = timeline([
        segment(.content, 0, 60, scenes: ["left", "right"], layers: [(.banner, "left")]),
        segment(.ad, 60, 90, breakIndex: 0, adIndex: 0, scenes: ["left", "right"], layers: [(.banner, "left")], source: "ada.mp4"),
        segment(.ad, 90, 120, breakIndex: 0, adIndex: 1, scenes: ["left", "right"], layers: [(.card, "right"), (.card, "right")], source: "adb.mp4"),
        segment(.content, 120, 150, pip: true, scenes: ["left"]),
        segment(.content, 150, 170, pip: true, scenes: ["left"]),
        segment(.content, 170, 240, scenes: ["left"]),
    ])

    static let events = [
        SessionEvent(.adBreakStarted(breakIndex: 0, cueTime: nil), time: 2, frame: 60, contentTime: 2),
        SessionEvent(.ad(.started, AdReference(0, 0)), time: 2, frame: 60, contentTime: 2),
        SessionEvent(.ad(.started, AdReference(0, 1)), time: 3, frame: 90, contentTime: 2),
        SessionEvent(.log(.session, reason: nil, message: "a note"), time: 5, frame: 150, contentTime: 3),
    ]

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func lanesShowTheProgramPictureInPictureEachSceneAndEachLayerKind() {
        let lanes = ReportLane.lanes(of: Self.sample)
        #expect(lanes.map(\.title) == ["content / ads", "picture in picture", "scene left", "scene right", "banner", "cards"])
        #expect(lanes[0].spans.map(\.label) == ["content", "break 0 · ad 0", "break 0 · ad 1", "content", "content", "content"])
        // Two PiP segments that touch are one window.
        #expect(lanes[1].spans.map { [$0.start, $0.end] } == [[120, 170]])
        #expect(lanes[2].spans.map { [$0.start, $0.end] } == [[0, 240]])
        #expect(lanes[3].spans.map { [$0.start, $0.end] } == [[0, 120]])
        #expect(lanes[4].spans.map { [$0.start, $0.end] } == [[0, 90]])
        #expect(lanes[5].spans.map(\.label) == ["2 in right"])
    }

    @Test func thePageCountsWhatItDraws() {
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Self.sample, events: Self.events)).html
        #expect(Self.count("data-kind=\"ad\"", in: html) == 2)
        #expect(Self.count("data-kind=\"content\"", in: html) == 4)
        #expect(Self.count("data-pip=\"1\"", in: html) == 1)
        #expect(Self.count("data-lane=\"scene\"", in: html) == 2)
        #expect(Self.count("data-layer=\"banner\"", in: html) == 1)
        #expect(Self.count("data-event=\"", in: html) == 4)
        #expect(Self.count("<tr id=\"ev-", in: html) == 4)
        #expect(Self.count("data-run-kind=\"ad\"", in: html) == 2)
        #expect(html.contains("data-break=\"0\" data-ad=\"1\""))
        #expect(html.contains("<option value=\"STARTED\">STARTED (2)</option>"))
    }

    @Test func thePageReferencesNothingOutsideItself() {
        let picture = RenderReport.Picture(frame: 0, jpeg: Data([0xFF, 0xD8, 0xFF, 0xD9]), width: 192, height: 108)
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Self.sample, events: Self.events, thumbnails: [picture])).html
        for reference in ["http:", "https:", "//", "<link", "@import", "url("] where reference != "//" {
            #expect(!html.contains(reference), "\(reference)")
        }
        #expect(!html.contains("src=\"/") && !html.contains("href="))
        #expect(html.contains("src=\"data:image/jpeg;base64,/9j/2Q==\""))
    }

    @Test func hostileStringsAreEscapedEverywhere() {
        let evil = "<script>alert(1)</script>\"'&\u{1}\u{7F}"
        var segments = Self.sample.segments
        segments[0].screen.scenes![0].id = SceneID(evil)
        segments[0].screen.layers![0].scene = SceneID(evil)
        segments[1].source = "/x/\"><img src=x onerror=alert(2)>.mp4"
        var t = Self.timeline(segments)
        t.content.path = evil
        let events = [
            SessionEvent(.adError(.ad(AdReference(0, 0)), code: 403, message: "</td></tr></table><svg onload=alert(4)>\u{0}"),
                         time: 1, frame: 30, contentTime: 1),
            SessionEvent(.click(AdReference(0, 0), clickThrough: "javascript:alert(3)\""), time: 1, frame: 30, contentTime: 1),
        ]
        let rect = Timeline.Rect(PixelRect(x: 0, y: 0, width: 10, height: 10))
        let verdict = RunVerdicts(summary: evil, passed: false, findings: [
            VerifyFinding(.layoutRule(frame: 61, layer: evil, rect: rect, rule: evil, bound: rect)),
            VerifyFinding(.goldenEventsUnavailable(reason: evil)),
        ], timeline: t)
        let html = ReportPage(report: RenderReport(title: evil, timeline: t, events: events, verdict: verdict)).html
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<svg onload"))
        #expect(!html.contains("\"javascript:"))
        #expect(!html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F })
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;\\u{1}\\u{7f}"))
        #expect(html.contains("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;svg onload=alert(4)&gt;\\u{0}"))
        // Exactly the page's own two scripts.
        #expect(Self.count("<script>", in: html) == 2)
    }

    @Test func thumbnailsAreBoundedWithAdRunsFirst() {
        // 400 segments: an ad every fifth, 800 candidate frames.
        let segments = (0..<400).map { i in
            Self.segment(i % 5 == 4 ? .ad : .content, Int64(i) * 30, Int64(i + 1) * 30, breakIndex: i % 5 == 4 ? i / 5 : nil,
                         adIndex: i % 5 == 4 ? 0 : nil)
        }
        let t = Self.timeline(segments)
        let frames = ThumbnailPlan.frames(t)
        #expect(frames.count == ThumbnailPlan.limit)
        #expect(frames == frames.sorted() && Set(frames).count == frames.count)
        // 80 ad segments, 160 ad frames: more than the limit, so every thumbnail is an ad's, spread to both ends.
        #expect(frames.allSatisfy { f in segments.contains { $0.kind == .ad && ($0.outStartFrame == f || $0.outEndFrame - 1 == f) } })
        #expect(frames.first == 120 && frames.last == 11999)
        // A short render keeps all of them.
        #expect(ThumbnailPlan.frames(Self.sample) == [0, 59, 60, 89, 90, 119, 120, 149, 150, 169, 170, 239])
    }

    @Test func theRunsTableShowsOnlyTheThumbnailsItHas() {
        let pictures = [0, 59, 239].map { RenderReport.Picture(frame: $0, jpeg: Data([1, 2, 3]), width: 192, height: 108) }
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Self.sample, events: [], thumbnails: pictures)).html
        #expect(Self.count("data-thumb=", in: html) == 3)
        #expect(Self.count("<td class=\"none\">—</td>", in: html) == 9)
    }

    @Test func verifyFindingsGoToTheRunsWhoseFramesTheyAreAbout() {
        let findings = [
            VerifyFinding(.frameShifted(frame: 61, shown: .init(source: "ada", frame: 2), expected: 1, against: .timeline)),
            VerifyFinding(.audioSource(first: 100, last: 130, segment: .init(breakIndex: nil, adIndex: nil), heard: .silence, expected: .tone(440))),
            VerifyFinding(.audioMissing),
        ]
        let verdict = RunVerdicts(summary: "verify out.mp4: FAILED — 3 problems", passed: false, findings: findings, timeline: Self.sample)
        #expect(verdict.segments.map(\.count) == [0, 1, 1, 1, 0, 0])
        #expect(verdict.segments[1] == [findings[0].description])
        #expect(verdict.segments[2] == [findings[1].description] && verdict.segments[3] == [findings[1].description])
        #expect(verdict.general == ["the output has no audio"])
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Self.sample, events: [], verdict: verdict)).html
        #expect(Self.count("data-run-verdict=\"failed\"", in: html) == 3)
        #expect(html.contains("data-verdict=\"failed\""))
    }

    @Test func aLongLoudnessSeriesIsThinnedForThePlot() {
        let series: [Double?] = (0..<72_000).map { $0 % 100 == 0 ? nil : -23 }
        let thinned = ReportSVG.decimated(series, to: ReportSVG.maximumPlotPoints)
        #expect(thinned.values.count <= ReportSVG.maximumPlotPoints && thinned.stride == 48)
        #expect(thinned.values.allSatisfy { $0.map { abs($0 + 23) < 1e-9 } ?? false })
        let track = RenderReport.LoudnessTrack(step: 0.1, shortTerm: series, segments: [-23, nil, -14, -23, -23, -23], integrated: -22)
        let html = ReportPage(report: RenderReport(title: "out.mp4", timeline: Self.sample, events: [], loudness: track)).html
        #expect(Self.count("data-segment-loudness=", in: html) == 5)
        #expect(html.contains("-14.0 LUFS"))
    }
}
