import AdPlayback
import Foundation

/// The one place a report's SVG is written: the time strip (`strip`) and the loudness plot (`loudness`).
///
/// Coordinates are in a fixed view box (`width` wide) that the page scales to its width; time runs left to right
/// over `plotWidth` after a gutter for the lanes' names. Every span, mark and lane carries `data-*` attributes, so a
/// test (or a script) can count what was drawn, and a `<title>` that the browser shows on hover. Every string goes
/// through `HTMLText.escape`.
struct ReportSVG {
    static let width = 1200.0
    static let gutter = 170.0
    static let rightMargin = 16.0
    static let laneHeight = 22.0
    static let laneGap = 6.0
    static let axisHeight = 22.0
    /// Rows of event labels under the events lane, and their height.
    static let labelRows = 2
    static let labelRowHeight = 13.0
    /// At most this many points of the short-term loudness are drawn (a 2-hour render has 72,000); each is the
    /// mean of the loudness (in power) of the values it stands for.
    static let maximumPlotPoints = 1500

    let report: RenderReport
    let lanes: [ReportLane]
    /// Looked at in the loops over spans and events: once it says stop, the rest is left out (the page, which
    /// looks at it too, then throws).
    var isCancelled: () -> Bool = { false }

    init(report: RenderReport) {
        self.report = report
        lanes = report.lanes
    }

    /// The lanes' names' column: wide enough for the longest name (about 6.5 px a character at 11 px), so that no
    /// name is cut, from 170 up to half the strip; a longer name (a scene id of 90 characters or more) is written
    /// smaller to fit.
    var gutter: Double {
        let longest = lanes.map { $0.title.count }.max() ?? 0
        return min(Self.width / 2, max(Self.gutter, 16 + 6.5 * Double(longest)))
    }

    var plotWidth: Double { Self.width - gutter - Self.rightMargin }

    /// The x of output frame `frame`.
    func x(_ frame: Int64) -> Double {
        gutter + plotWidth * Double(max(0, min(frame, max(1, report.timeline.output.frames)))) / Double(max(1, report.timeline.output.frames))
    }

    // MARK: - The strip

    /// The time strip: an axis, one lane per `ReportLane`, then the event marks.
    var strip: String {
        let height = Self.axisHeight + Double(lanes.count + 1) * (Self.laneHeight + Self.laneGap) + Double(Self.labelRows) * Self.labelRowHeight + 4
        var svg = "<svg class=\"strip\" viewBox=\"0 0 \(n(Self.width)) \(n(height))\" width=\"100%\" role=\"img\" aria-label=\"time strip\">\n"
        svg += axis(height: height)
        var y = Self.axisHeight
        for lane in lanes {
            if isCancelled() { break }
            svg += laneGroup(lane, y: y)
            y += Self.laneHeight + Self.laneGap
        }
        svg += eventMarks(y: y)
        svg += "</svg>\n"
        return svg
    }

    private func axis(height: Double) -> String {
        let seconds = report.duration
        let step = Self.niceStep(seconds / 10)
        var svg = "<g class=\"axis\">"
        var t = 0.0
        while t <= seconds + 1e-9 {
            let frame = Int64((t / report.secondsPerFrame).rounded())
            let px = x(frame)
            svg += "<line x1=\"\(n(px))\" y1=\"\(n(Self.axisHeight - 6))\" x2=\"\(n(px))\" y2=\"\(n(height))\" class=\"grid\"/>"
            let anchor = px > Self.width - Self.rightMargin - 30 ? "end" : "middle"
            svg += "<text x=\"\(n(px))\" y=\"12\" text-anchor=\"\(anchor)\">\(HTMLText.escape(ReportFormat.axisTime(t, step: step)))</text>"
            t += step
        }
        return svg + "</g>\n"
    }

    private func laneGroup(_ lane: ReportLane, y: Double) -> String {
        var attributes = "data-lane=\"\(lane.kind.rawValue)\""
        if let key = lane.key { attributes += " data-\(lane.kind == .scene ? "scene" : "layer")=\"\(HTMLText.escape(key))\"" }
        var svg = "<g class=\"lane\" \(attributes)>"
        // The whole name: squeezed into the gutter when it is longer than the gutter holds, never cut.
        let fits = Double(lane.title.count) * 6.5 <= gutter - 16
        let squeeze = fits ? "" : " textLength=\"\(n(gutter - 16))\" lengthAdjust=\"spacingAndGlyphs\""
        svg += "<text class=\"lane-title\" x=\"\(n(gutter - 8))\" y=\"\(n(y + Self.laneHeight * 0.68))\" text-anchor=\"end\"\(squeeze)>\(HTMLText.escape(lane.title))</text>"
        svg += "<rect class=\"lane-bg\" x=\"\(n(gutter))\" y=\"\(n(y))\" width=\"\(n(plotWidth))\" height=\"\(n(Self.laneHeight))\"/>"
        for span in lane.spans {
            let x0 = x(span.start), w = max(1, x(span.end) - x0)
            let data = span.attributes.map { " data-\($0.0)=\"\(HTMLText.escape($0.1))\"" }.joined()
            let seconds = report.secondsPerFrame
            let tip = "\(span.label)\nframes \(span.start)–\(span.end - 1) · \(ReportFormat.time(Double(span.start) * seconds))–\(ReportFormat.time(Double(span.end) * seconds))"
            svg += "<g class=\"span s-\(HTMLText.escape(Self.styleName(span.style)))\"\(data)><title>\(HTMLText.escape(tip))</title>"
            svg += "<rect x=\"\(n(x0))\" y=\"\(n(y + 1))\" width=\"\(n(w))\" height=\"\(n(Self.laneHeight - 2))\" rx=\"3\"/>"
            let fits = Int((w - 6) / 6.2)
            if fits >= 3 {
                svg += "<text x=\"\(n(x0 + 4))\" y=\"\(n(y + Self.laneHeight * 0.68))\">\(HTMLText.escape(Self.clipped(span.label, to: fits)))</text>"
            }
            svg += "</g>"
        }
        return svg + "</g>\n"
    }

    private func eventMarks(y: Double) -> String {
        var svg = "<g class=\"lane\" data-lane=\"events\">"
        svg += "<text class=\"lane-title\" x=\"\(n(gutter - 8))\" y=\"\(n(y + Self.laneHeight * 0.68))\" text-anchor=\"end\">events</text>"
        svg += "<rect class=\"lane-bg\" x=\"\(n(gutter))\" y=\"\(n(y))\" width=\"\(n(plotWidth))\" height=\"\(n(Self.laneHeight))\"/>"
        for (i, event) in report.events.enumerated() {
            if i % ReportLane.cancelCheckInterval == 0, isCancelled() { break }
            let frame = ReportFormat.frame(of: event, secondsPerFrame: report.secondsPerFrame)
            let tip = ReportFormat.fields(event).map { "\($0.0): \($0.1)" }.joined(separator: "\n")
            svg += "<line class=\"mark m-\(Self.eventClass(event.type))\" data-event=\"\(HTMLText.escape(event.type.rawValue))\" data-row=\"\(i)\" x1=\"\(n(x(frame)))\" x2=\"\(n(x(frame)))\" y1=\"\(n(y + 2))\" y2=\"\(n(y + Self.laneHeight - 2))\"><title>\(HTMLText.escape(tip))</title></line>"
        }
        svg += "</g>\n<g class=\"event-labels\">"
        // The notable events' words under their marks (EventLabels), each with a tick up to its mark.
        let placed = EventLabels.place(report.events, rows: Self.labelRows, x: { x(ReportFormat.frame(of: $0, secondsPerFrame: report.secondsPerFrame)) },
                                       width: { Double($0.count) * 5.6 }, maxX: Self.width - Self.rightMargin, isCancelled: isCancelled)
        for label in placed {
            let top = y + Self.laneHeight + Double(label.row) * Self.labelRowHeight
            let event = report.events[label.index]
            svg += "<text class=\"event-label m-\(Self.eventClass(event.type))\" data-event-label=\"\(label.index)\" data-row=\"\(label.index)\" x=\"\(n(label.x))\" y=\"\(n(top + 10))\">\(HTMLText.escape(label.text))</text>"
        }
        return svg + "</g>\n"
    }

    // MARK: - Loudness

    /// Short-term loudness over time (a line, gaps for silence) and each segment's integrated loudness (a bar
    /// across its frames), from −60 to 0 LUFS, with the EBU R128 target (−23) marked.
    var loudness: String {
        guard let track = report.loudness else { return "" }
        let height = 200.0, top = 10.0, bottom = height - 24
        func y(_ lufs: Double) -> Double { top + (bottom - top) * (0 - max(-60, min(0, lufs))) / 60 }
        var svg = "<svg class=\"loudness\" viewBox=\"0 0 \(n(Self.width)) \(n(height))\" width=\"100%\" role=\"img\" aria-label=\"loudness\">\n<g class=\"axis\">"
        for lufs in stride(from: 0.0, through: -60, by: -10) {
            svg += "<line class=\"grid\" x1=\"\(n(gutter))\" x2=\"\(n(Self.width - Self.rightMargin))\" y1=\"\(n(y(lufs)))\" y2=\"\(n(y(lufs)))\"/>"
            svg += "<text x=\"\(n(gutter - 8))\" y=\"\(n(y(lufs) + 4))\" text-anchor=\"end\">\(Int(lufs)) LUFS</text>"
        }
        svg += "<line class=\"target\" x1=\"\(n(gutter))\" x2=\"\(n(Self.width - Self.rightMargin))\" y1=\"\(n(y(-23)))\" y2=\"\(n(y(-23)))\"><title>EBU R128 target: −23 LUFS</title></line>"
        svg += "<text x=\"\(n(gutter + 4))\" y=\"\(n(height - 6))\">short-term (3 s) loudness, line; each segment's integrated loudness, bar</text></g>\n"
        for (i, segment) in report.timeline.segments.enumerated() where i < track.segments.count {
            guard let value = track.segments[i], value.isFinite else { continue }
            let x0 = x(segment.outStartFrame), x1 = x(segment.outEndFrame)
            svg += "<line class=\"integrated s-\(segment.kind.rawValue)\" data-segment-loudness=\"\(i)\" x1=\"\(n(x0))\" x2=\"\(n(max(x0 + 1, x1)))\" y1=\"\(n(y(value)))\" y2=\"\(n(y(value)))\"><title>\(HTMLText.escape(ReportLane.label(segment) + ": " + ReportFormat.loudness(value)))</title></line>"
        }
        let points = Self.decimated(track.shortTerm, to: Self.maximumPlotPoints)
        let framesPerStep = track.step / report.secondsPerFrame * Double(points.stride)
        var path = "", pen = false
        for (i, value) in points.values.enumerated() {
            guard let value, value.isFinite else { pen = false; continue }
            let px = x(Int64((Double(i) * framesPerStep).rounded()))
            path += (pen ? "L" : "M") + n(px) + " " + n(y(value))
            pen = true
        }
        if !path.isEmpty { svg += "<path class=\"short-term\" d=\"\(path)\"/>" }
        return svg + "</svg>\n"
    }

    /// `values` thinned to at most `count`, each point the power mean of `stride` consecutive values (nil when all
    /// of them are nil).
    static func decimated(_ values: [Double?], to count: Int) -> (values: [Double?], stride: Int) {
        let stride = max(1, (values.count + count - 1) / max(1, count))
        guard stride > 1 else { return (values, 1) }
        var out: [Double?] = []
        out.reserveCapacity(values.count / stride + 1)
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(values.count, i + stride)].compactMap { $0 }.filter(\.isFinite)
            out.append(chunk.isEmpty ? nil : 10 * log10(chunk.map { pow(10, $0 / 10) }.reduce(0, +) / Double(chunk.count)))
            i += stride
        }
        return (out, stride)
    }

    // MARK: - Helpers

    /// A number for an attribute: at most two decimals, no exponent.
    private func n(_ value: Double) -> String { Self.number(value) }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        // Coordinates are within the view box; anything else is pinned well inside Int64 rather than trapping.
        let r = (max(-1e12, min(1e12, value)) * 100).rounded() / 100
        return r == r.rounded() ? String(Int64(r)) : String(format: "%.2f", r)
    }

    /// A step of 1, 2 or 5 times a power of ten seconds near `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough.isFinite, rough > 0 else { return 1 }
        let power = pow(10, floor(log10(rough)))
        for m in [1.0, 2, 5, 10] where m * power >= rough { return m * power }
        return 10 * power
    }

    /// `text` cut to `count` characters, with an ellipsis when cut.
    static func clipped(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(max(1, count - 1))) + "…"
    }

    /// A class name for a style: only letters (styles come from the timeline's layer kinds, which are known words).
    static func styleName(_ style: String) -> String { String(style.filter { $0.isASCII && $0.isLetter }) }

    static func eventClass(_ type: SessionEventType) -> String {
        switch type {
        case .adError: "error"
        case .log: "log"
        default: type.rawValue.hasPrefix("PIP") ? "pip" : type.rawValue.hasPrefix("AD_BREAK") ? "break" : "other"
        }
    }
}
