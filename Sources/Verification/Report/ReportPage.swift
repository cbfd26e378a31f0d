import AdPlayback
import AdScreen
import Foundation

/// Writes a report as one self-contained HTML page: inline CSS, inline SVG (`ReportSVG`), thumbnails as `data:`
/// URIs and a little inline script (the event table's filter), with no reference to anything outside the file, so
/// it opens offline and can be mailed or attached to a ticket.
///
/// The page records script errors in `body[data-errors]`, sets `body[data-ready]` once its script ran and
/// `body[data-load-ms]` at its load event (milliseconds from navigation start), so that a headless browser's dumped
/// DOM says whether it worked and how long it took.
public struct ReportPage {
    public let report: RenderReport

    public init(report: RenderReport) {
        self.report = report
    }

    /// The page's bytes (UTF-8).
    public var data: Data { Data(html.utf8) }

    /// The page's bytes, stopping with `ReportError.interrupted` when `isCancelled` says (looked at in every loop
    /// over the timeline's segments or the events).
    public func data(isCancelled: @escaping () -> Bool) throws(ReportError) -> Data {
        Data(try html(isCancelled: isCancelled).utf8)
    }

    public var html: String { (try? html(isCancelled: { false })) ?? "" }

    func html(isCancelled: @escaping () -> Bool) throws(ReportError) -> String {
        func check() throws(ReportError) { if isCancelled() { throw .interrupted } }
        var svg = ReportSVG(report: report)
        svg.isCancelled = isCancelled
        var page = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        // No network at all, even by accident: a page that only ever uses what it carries.
        page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        page += "<title>pipctl report: \(HTMLText.escape(report.title))</title>\n"
        page += "<style>\(Self.css)</style>\n"
        page += "<script>\(Self.errorScript)</script>\n</head>\n<body data-ready=\"0\" data-errors=\"0\">\n"
        page += header
        page += "<section id=\"strip\"><h2>Time strip</h2>\n" + svg.strip + legend + "</section>\n"
        try check()
        page += try runs(isCancelled)
        if report.loudness != nil { page += "<section id=\"loudness\"><h2>Loudness</h2>\n\(loudnessSummary)" + svg.loudness + "</section>\n" }
        page += try events(isCancelled)
        page += "<pre id=\"js-errors\" hidden></pre>\n"
        page += "<script>\(Self.script)</script>\n</body></html>\n"
        return page
    }

    // MARK: - Sections

    private var header: String {
        let t = report.timeline, out = t.output
        let ads = t.segments.filter { $0.kind == .ad }
        let breaks = Set(ads.compactMap(\.breakIndex)).count
        let lanes = report.lanes
        let pip = lanes.first { $0.kind == .pip }?.spans.count ?? 0
        let scenes = report.layout.scenes, omitted = report.layout.omittedScenes
        var html = "<header><h1>pipctl report</h1><p class=\"path\">\(HTMLText.escape(report.title))</p>\n<dl class=\"facts\">"
        let facts: [(String, String)] = [
            ("length", "\(ReportFormat.time(report.duration)) · \(out.frames) frames at \(out.fps) fps"),
            ("picture", "\(out.width)x\(out.height), \(out.profile)"),
            ("sound", "\(out.sampleRate) Hz, \(out.channels) channel\(out.channels == 1 ? "" : "s")"),
            ("content", ReportFormat.value(t.content.path)),
            ("runs", "\(t.segments.count) segments: \(t.segments.count - ads.count) content, \(ads.count) ad in \(breaks) break\(breaks == 1 ? "" : "s")"),
            ("screen", "\(pip) picture-in-picture span\(pip == 1 ? "" : "s"), \(scenes) scene\(scenes == 1 ? "" : "s")"
                + (omitted > 0 ? " (the first \(ReportLane.maximumSceneLanes) drawn as lanes, \(omitted) more not drawn)" : "")),
            ("events", "\(report.events.count)"),
        ]
        for (name, value) in facts { html += "<dt>\(name)</dt><dd>\(HTMLText.escape(value))</dd>" }
        html += "</dl>\n"
        if let verdict = report.verdict {
            let (style, word) = verdict.notChecked != nil ? ("unchecked", "not-checked") : verdict.passed ? ("ok", "passed") : ("bad", "failed")
            html += "<p class=\"verdict \(style)\" data-verdict=\"\(word)\">\(HTMLText.escape(verdict.summary))</p>\n"
            if !verdict.general.isEmpty {
                html += "<ul class=\"problems\">" + verdict.general.prefix(50).map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>\n"
            }
        }
        return html + "</header>\n"
    }

    private var legend: String {
        let styles = [("content", "content"), ("ad", "ad"), ("pip", "picture in picture"), ("scene", "scene")]
            + ScreenLayer.Kind.allCases.filter { ![.content, .ad, .pip].contains($0) }.map { ($0.rawValue, ReportLane.layerTitle($0)) }
        let used = Set(report.lanes.flatMap { $0.spans.map(\.style) })
        return "<p class=\"legend\">" + styles.filter { used.contains($0.0) }.map {
            "<span><i class=\"s-\($0.0)\"></i>\(HTMLText.escape($0.1))</span>"
        }.joined() + "<span><i class=\"m\"></i>event (hover for details, click for its row)</span></p>\n"
    }

    private func runs(_ isCancelled: () -> Bool) throws(ReportError) -> String {
        let t = report.timeline
        let pictures = Dictionary(report.thumbnails.map { ($0.frame, $0) }, uniquingKeysWith: { a, _ in a })
        let seconds = report.secondsPerFrame
        var html = "<section id=\"runs\"><h2>Runs</h2>\n<p class=\"note\">The first and last frame of every run (a run of one frame joins the run before it), decoded from the output (at most \(ThumbnailPlan.limit) pictures; past that, ad runs first, the rest thinned evenly).</p>\n"
        let changes = RunChanges.describe(t, events: report.events, isCancelled: isCancelled)
        html += "<table class=\"runs\"><thead><tr><th>#</th><th>shows</th><th>what changed</th><th>frames</th><th>time</th><th>source</th><th>window</th><th>first frame</th><th>last frame</th>"
        html += report.loudness == nil ? "" : "<th>loudness</th>"
        html += report.verdict == nil ? "" : "<th>verify</th>"
        html += "</tr></thead><tbody>\n"
        for (n, row) in RunRows.rows(t.segments).enumerated() {
            if n % ReportLane.cancelCheckInterval == 0, isCancelled() { throw .interrupted }
            let i = row.lowerBound, segment = t.segments[i], last = t.segments[row.upperBound - 1]
            let number = row.count == 1 ? "\(i)" : "\(i)–\(row.upperBound - 1)"
            html += "<tr data-run-kind=\"\(segment.kind.rawValue)\" data-segments=\"\(number)\" class=\"r-\(segment.kind.rawValue)\"><td>\(number)</td><td>\(HTMLText.escape(ReportLane.label(segment)))</td>"
            html += "<td class=\"change\" data-change=\"\(i)\">\(HTMLText.escape(RunRows.changes(row, changes)))</td>"
            let oneFrame = row.dropFirst().count
            let merged = row.count > 1 ? " (\(row.count) runs: \(oneFrame) of one frame merged)" : last.outEndFrame - segment.outStartFrame == 1 ? " (1 frame)" : ""
            html += "<td>\(segment.outStartFrame)–\(last.outEndFrame - 1)\(merged)</td>"
            html += "<td>\(ReportFormat.time(Double(segment.outStartFrame) * seconds))–\(ReportFormat.time(Double(last.outEndFrame) * seconds))</td>"
            let source = ReportFormat.value(segment.source)
            html += "<td class=\"source\" title=\"\(HTMLText.escape(source))\">\(HTMLText.escape(ReportFormat.value(URL(fileURLWithPath: segment.source).lastPathComponent)))</td>"
            let window = segment.pip.map { "PiP \($0.width)x\($0.height) at \($0.x),\($0.y)" } ?? (segment.screen.scenes.map { "\($0.count) scene\($0.count == 1 ? "" : "s")" } ?? "full screen")
            html += "<td>\(HTMLText.escape(window))</td>"
            for frame in [segment.outStartFrame, last.outEndFrame - 1] {
                if let picture = pictures[frame] {
                    html += "<td><img class=\"thumb\" data-thumb=\"\(frame)\" width=\"\(picture.width)\" height=\"\(picture.height)\" alt=\"frame \(frame)\" title=\"frame \(frame) · \(ReportFormat.time(Double(frame) * seconds))\" src=\"data:image/jpeg;base64,\(picture.jpeg.base64EncodedString())\"></td>"
                } else {
                    html += "<td class=\"none\">—</td>"
                }
            }
            if let loudness = report.loudness {
                // A merged row's loudness is its first run's: the one-frame runs after it are too short to gate.
                html += "<td>\(ReportFormat.loudness(i < loudness.segments.count ? loudness.segments[i] : nil))</td>"
            }
            if let verdict = report.verdict {
                var problems: [String] = [], seen: Set<String> = []
                for j in row where j < verdict.segments.count {
                    for problem in verdict.segments[j] where seen.insert(problem).inserted { problems.append(problem) }
                }
                if verdict.notChecked != nil {
                    html += "<td class=\"unchecked\" data-run-verdict=\"not-checked\" title=\"\(HTMLText.escape(verdict.summary))\">not checked</td>"
                } else if problems.isEmpty {
                    html += "<td class=\"ok\" data-run-verdict=\"\(verdict.passed || verdict.general.isEmpty ? "ok" : "ok-run")\">OK</td>"
                } else {
                    html += "<td class=\"bad\" data-run-verdict=\"failed\"><details><summary>\(problems.count) problem\(problems.count == 1 ? "" : "s")</summary><ul>"
                        + problems.prefix(20).map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul></details></td>"
                }
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    private var loudnessSummary: String {
        guard let track = report.loudness else { return "" }
        return "<p class=\"note\">Measured from the output by ITU-R BS.1770-4 with EBU R128 gating (libebur128): integrated \(ReportFormat.loudness(track.integrated)) over the whole render.</p>\n"
    }

    private func events(_ isCancelled: () -> Bool) throws(ReportError) -> String {
        var counts: [String: Int] = [:]
        for event in report.events { counts[event.type.rawValue, default: 0] += 1 }
        var html = "<section id=\"events\"><h2>Events</h2>\n<p><label>type <select id=\"event-type\"><option value=\"\">all (\(report.events.count))</option>"
        for (type, count) in counts.sorted(by: { $0.key < $1.key }) {
            html += "<option value=\"\(HTMLText.escape(type))\">\(HTMLText.escape(type)) (\(count))</option>"
        }
        html += "</select></label> <span id=\"event-count\"></span></p>\n"
        html += "<table class=\"events\"><thead><tr><th>time</th><th>frame</th><th>type</th><th>break</th><th>ad</th><th>details</th></tr></thead><tbody>\n"
        let seconds = report.secondsPerFrame
        for (i, event) in report.events.enumerated() {
            if i % ReportLane.cancelCheckInterval == 0, isCancelled() { throw .interrupted }
            let frame = ReportFormat.frame(of: event, secondsPerFrame: seconds)
            let details = ReportFormat.fields(event).filter { !["type", "time", "frame", "break", "ad"].contains($0.0) }
                .map { "<b>\(HTMLText.escape($0.0))</b> \(HTMLText.escape($0.1))" }.joined(separator: " · ")
            html += "<tr id=\"ev-\(i)\" data-type=\"\(HTMLText.escape(event.type.rawValue))\"><td>\(ReportFormat.time(event.time.isFinite ? event.time : 0))</td><td>\(frame)</td>"
            html += "<td class=\"m-\(ReportSVG.eventClass(event.type))\">\(HTMLText.escape(event.type.rawValue))</td>"
            html += "<td>\(event.columns.breakIndex.map(String.init) ?? "")</td><td>\(event.columns.adIndex.map(String.init) ?? "")</td><td>\(details)</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    // MARK: - Style and script

    static let css = """
    :root{--content:#3f7fd0;--ad:#e07b39;--pip:#8a63d2;--scene:#4e9f57;--banner:#c9a227;--fullscreen:#d04f4f;--overlay:#b0558f;--slider:#2b9a9a;--card:#6e9e2e;--native:#5c7f9e;--divider:#666;--edge:#888}
    body{font:14px/1.4 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:0 auto;padding:16px 24px;max-width:1400px;color:#1d232b;background:#f7f8fa}
    h1{font-size:22px;margin:0}h2{font-size:17px;margin:22px 0 8px;border-bottom:1px solid #d8dde3;padding-bottom:4px}
    .path{font-family:monospace;color:#445;margin:2px 0 8px;word-break:break-all}
    .facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}.facts dt{color:#667}.facts dd{margin:0}
    .verdict{padding:6px 10px;border-radius:4px;font-weight:600}.verdict.ok{background:#e3f4e5;color:#1f6b2a}.verdict.bad{background:#fbe4e4;color:#9b1c1c}.verdict.unchecked{background:#eef1f4;color:#445}
    svg{display:block;background:#fff;border:1px solid #d8dde3;border-radius:4px}
    svg text{font:11px system-ui,"DejaVu Sans",sans-serif;fill:#1d232b}.span text{fill:#fff;pointer-events:none}
    .lane-bg{fill:#eef1f4}.grid{stroke:#e2e6ea;stroke-width:1}.lane-title{fill:#445}
    .span:hover rect{stroke:#111;stroke-width:1.5}
    .s-content rect,i.s-content{fill:var(--content);background:var(--content)}.s-ad rect,i.s-ad{fill:var(--ad);background:var(--ad)}
    .s-pip rect,i.s-pip{fill:var(--pip);background:var(--pip)}.s-scene rect,i.s-scene{fill:var(--scene);background:var(--scene)}
    .s-banner rect,i.s-banner{fill:var(--banner);background:var(--banner)}.s-fullscreen rect,i.s-fullscreen{fill:var(--fullscreen);background:var(--fullscreen)}
    .s-overlay rect,i.s-overlay{fill:var(--overlay);background:var(--overlay)}.s-slider rect,i.s-slider{fill:var(--slider);background:var(--slider)}
    .s-card rect,i.s-card{fill:var(--card);background:var(--card)}.s-native rect,i.s-native{fill:var(--native);background:var(--native)}
    .s-divider rect,i.s-divider{fill:var(--divider);background:var(--divider)}.s-edge rect,i.s-edge{fill:var(--edge);background:var(--edge)}
    .mark{stroke:#334;stroke-width:1.5;cursor:pointer}.mark:hover{stroke-width:4}.mark.m-error{stroke:#d02020}.mark.m-break{stroke:#e07b39}.mark.m-pip{stroke:#8a63d2}.mark.m-log{stroke:#999}
    .legend span{margin-right:14px;white-space:nowrap;font-size:12px}.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-1px}.legend i.m{width:2px;background:#334}
    table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}th,td{border-bottom:1px solid #e5e8ec;padding:3px 6px;text-align:left;vertical-align:middle}
    th{background:#eef1f4;position:sticky;top:0}.runs tr.r-ad td:nth-child(2){color:#b85a1c;font-weight:600}
    .thumb{display:block;border-radius:3px;width:auto;height:auto;max-width:160px;max-height:96px}.none{color:#99a}.source{font-family:monospace;font-size:12px}
    td.ok{color:#1f6b2a;font-weight:600}td.bad{color:#9b1c1c}td.unchecked{color:#667;font-style:italic}.note{color:#556;font-size:12px}
    .short-term{fill:none;stroke:#1d232b;stroke-width:1.2}.integrated{stroke-width:4;stroke-linecap:butt}.integrated.s-content{stroke:var(--content)}.integrated.s-ad{stroke:var(--ad)}
    .target{stroke:#2e7d32;stroke-dasharray:6 4}
    .events td:nth-child(6){word-break:break-all;font-size:12px}.events tr.hit{background:#fff3c4}
    .m-error{color:#b01818;font-weight:600}
    svg text.event-label{font-size:10px;fill:#334;cursor:pointer}svg text.event-label.m-error{fill:#d02020}svg text.event-label.m-break{fill:#b85a1c}svg text.event-label.m-pip{fill:#6a43b2}
    .change{font-size:12px;color:#445}
    """

    /// Registered first, so that an error anywhere later is counted.
    static let errorScript = """
    window.addEventListener("error",function(e){var b=document.body;if(!b)return;b.setAttribute("data-errors",String(Number(b.getAttribute("data-errors")||0)+1));var p=document.getElementById("js-errors");if(p){p.hidden=false;p.textContent+=String(e.message)+"\\n";}});
    """

    static let script = """
    (function(){
    var select=document.getElementById("event-type"),rows=document.querySelectorAll("table.events tbody tr"),count=document.getElementById("event-count");
    function filter(){var t=select.value,n=0;for(var i=0;i<rows.length;i++){var show=!t||rows[i].getAttribute("data-type")===t;rows[i].hidden=!show;if(show)n++;}count.textContent=n+" shown";}
    select.addEventListener("change",filter);filter();
    var marks=document.querySelectorAll(".mark,.event-label");
    for(var i=0;i<marks.length;i++){marks[i].addEventListener("click",function(){var r=document.getElementById("ev-"+this.getAttribute("data-row"));if(!r)return;select.value="";filter();var old=document.querySelector("tr.hit");if(old)old.classList.remove("hit");r.classList.add("hit");r.scrollIntoView({block:"center"});});}
    document.body.setAttribute("data-ready","1");
    window.addEventListener("load",function(){document.body.setAttribute("data-load-ms",performance.now().toFixed(1));});
    })();
    """
}
