import Foundation

extension AdsInspectReport {
    /// The report for people: a header, each break with one summary line per ad and, indented under it, what
    /// `ads inspect --help` promises (every rendition with why it was or was not chosen, the wrapper chain,
    /// impression, tracking, click and error URLs per event, companions and non-linear creatives), the break's
    /// fallbacks, then one line per error and warning.
    ///
    /// The summary line comes first so that `grep` over the output finds one line per ad; the details below it
    /// are aligned in columns.
    ///
    /// Breaks and ads are numbered from 0 (`#0`), as the event log's `break`/`ad` and the timeline number them.
    ///
    /// ```
    /// vmap.xml: VMAP, 1 break, 1 ad, 0 errors, content 0:10:00.000, window 640x360
    /// #0 preroll  id=pre  1 ad
    ///   #0 ad 101 seq 1 "Title" (AdServer) 30s skip 5s: video/mp4 640x360 500 kbit/s -> /media/ad.mp4
    ///        renditions  chosen   video/mp4   640x360   500 kbit/s  https://cdn/low.mp4  best fit: …
    ///                    refused  video/webm  640x360   500 kbit/s  https://cdn/low.webm type video/webm is not allowed
    ///        tracking    start          https://track/start
    ///                    firstQuartile  https://track/q1
    /// error 303: …
    /// ```
    public var text: String {
        var lines: [String] = []
        let adCount = breaks.reduce(0) { $0 + $1.ads.count }
        var header = "\(source): \(kind.uppercased()), \(AdsInspectReport.count(breaks.count, "break")), "
            + "\(AdsInspectReport.count(adCount, "ad")), \(AdsInspectReport.count(errors.count, "error"))"
        if !warnings.isEmpty { header += ", \(AdsInspectReport.count(warnings.count, "warning"))" }
        if let d = contentDuration { header += ", content \(AdsInspectReport.clock(d))" }
        lines.append(header + ", window \(window)")
        for (index, b) in breaks.enumerated() {
            var line = "#\(index) " + b.position
            if b.position == "midroll", let offset = b.offset { line += " \(AdsInspectReport.clock(offset))" }
            if let id = b.breakId { line += "  id=\(id)" }
            if b.breakType != "linear" { line += "  type=\(b.breakType)" }
            lines.append(line + "  \(AdsInspectReport.count(b.ads.count, "ad"))")
            for (i, row) in AdsInspectReport.columns(AdsInspectReport.eventRows(b.trackingURLs)).enumerated() {
                lines.append((i == 0 ? "  tracking  " : "            ") + row)
            }
            for (i, ad) in b.ads.enumerated() {
                lines.append("  #\(i) " + AdsInspectReport.line(ad))
                lines += AdsInspectReport.details(ad, indent: 7)
            }
            if !b.fallbacks.isEmpty {
                lines.append("  fallbacks (stand-alone ads that replace an ad of this break that fails):")
                for ad in b.fallbacks {
                    lines.append("   - " + AdsInspectReport.line(ad))
                    lines += AdsInspectReport.details(ad, indent: 7)
                }
            }
        }
        if breaks.isEmpty { lines.append("no breaks") }
        lines += errors.map { "error \($0.code): \($0.message)" }
        lines += warnings.map { "warning \($0.code): \($0.message)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line for an ad: identity, duration, skip offset, then its chosen media or why it failed.
    static func line(_ ad: Ad) -> String {
        var parts: [String] = ["ad " + (ad.id ?? "-")]
        if let s = ad.sequence { parts.append("seq \(s)") }
        if let t = ad.title { parts.append("\"\(t)\"") }
        if let s = ad.adSystem { parts.append("(\(s))") }
        if let d = ad.duration { parts.append(number(d) + "s") }
        if let s = ad.skipOffset { parts.append("skip \(s)") }
        var line = parts.joined(separator: " ")
        if let error = ad.error {
            line += " FAILED \(error.code): \(error.message)"
        } else if let m = ad.mediaFile {
            var media = [m.type ?? "?"]
            if let w = m.width, let h = m.height { media.append("\(w)x\(h)") }
            if let b = m.bitrate { media.append("\(b) kbit/s") }
            // Remote media is playable: a render downloads it into the media cache before the ad's break.
            line += ": " + media.joined(separator: " ") + " -> " + (m.localPath ?? "\(m.url) (remote, downloaded when played)")
        }
        if !ad.wrappers.isEmpty { line += ", \(count(ad.wrappers.count, "wrapper"))" }
        return line
    }

    /// The indented sections under an ad's line: a label in the first column, its rows beside it.
    static func details(_ ad: Ad, indent: Int) -> [String] {
        var sections: [(String, [[String]])] = []
        sections.append(("renditions", ad.candidates.map { c in
            let mark = !c.accepted ? "refused" : (ad.mediaFile?.url == c.url ? "chosen" : "ok")
            let size = c.width.flatMap { w in c.height.map { "\(w)x\($0)" } } ?? "-"
            return [mark, c.type ?? "?", size, c.bitrate.map { "\($0) kbit/s" } ?? "-", c.url, c.reason]
        }))
        sections.append(("wrappers", ad.wrappers.enumerated().map { i, w in
            ["\(i + 1).", w.adSystem ?? "-", w.tagURI, w.source.map { "in \($0)" } ?? ""]
        }))
        sections.append(("impressions", ad.beacons.impressionURLs.map { [$0] }))
        sections.append(("tracking", eventRows(ad.beacons.trackingURLs)))
        if let click = ad.beacons.clickThrough { sections.append(("click-through", [[click]])) }
        sections.append(("click tracking", ad.beacons.clickTrackingURLs.map { [$0] }))
        sections.append(("error URLs", ad.beacons.errorURLTemplates.map { [$0] }))
        for c in ad.companions {
            var rows: [[String]] = [["id", c.id ?? "-"], ["size", size(c.width, c.height)]]
            if let slot = c.adSlotId { rows.append(["slot", slot]) }
            rows += c.resources.map { ["resource", $0] }
            if let click = c.clickThrough { rows.append(["click-through", click]) }
            rows += c.clickTrackingURLs.map { ["click tracking", $0] }
            rows += eventRows(c.trackingURLs)
            sections.append(("companion", rows))
        }
        for n in ad.nonLinears {
            var rows: [[String]] = [["id", n.id ?? "-"], ["size", size(n.width, n.height)]]
            if let d = n.minSuggestedDuration { rows.append(["min duration", number(d) + "s"]) }
            rows += n.resources.map { ["resource", $0] }
            if let click = n.clickThrough { rows.append(["click-through", click]) }
            rows += n.clickTrackingURLs.map { ["click tracking", $0] }
            rows += eventRows(n.trackingURLs)
            sections.append(("non-linear", rows))
        }
        let shown = sections.filter { !$0.1.isEmpty }
        let labelWidth = shown.map(\.0.count).max() ?? 0
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for (label, rows) in shown {
            for (i, row) in columns(rows).enumerated() {
                let head = i == 0 ? label : ""
                lines.append(pad + head + String(repeating: " ", count: labelWidth - head.count) + "  " + row)
            }
        }
        return lines
    }

    /// `event  URL` rows in the order VAST lists the events of a linear ad, then the others by name.
    static func eventRows(_ urls: [String: [String]]) -> [[String]] {
        let order = ["breakStart", "breakEnd", "creativeView", "loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let names = urls.keys.sorted { a, b in
            let ia = order.firstIndex(of: a) ?? order.count, ib = order.firstIndex(of: b) ?? order.count
            return ia != ib ? ia < ib : a < b
        }
        return names.flatMap { name in urls[name, default: []].map { [name, $0] } }
    }

    /// Rows with every column but the last padded to its widest cell, joined by two spaces.
    static func columns(_ rows: [[String]]) -> [String] {
        let width = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: width)
        for row in rows {
            for (i, cell) in row.enumerated() where i < row.count - 1 { widths[i] = max(widths[i], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i < row.count - 1 ? cell + String(repeating: " ", count: widths[i] - cell.count) : cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }

    static func size(_ width: Int?, _ height: Int?) -> String {
        guard let width, let height else { return "-" }
        return "\(width)x\(height)"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func number(_ d: Double) -> String {
        d.rounded() == d ? String(Int(d)) : String(format: "%.3f", d).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }

    /// `h:mm:ss.mmm`, milliseconds rounded down, as `MediaTime` prints.
    static func clock(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded(.down))
        return String(format: "%d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}
