import Foundation

extension AdsInspectReport {
    /// The report for people: a header, one line per break and per ad, then one line per error and warning.
    ///
    /// ```
    /// vmap.xml: VMAP, 2 breaks, 3 ads, 1 error, content 0:10:00.000, window 640x360
    /// preroll  id=pre  2 ads
    ///   1. ad 101 seq 1 "Title" (AdServer) 30s skip 5s: video/mp4 640x360 500 kbit/s -> /media/ad.mp4, 2 wrappers
    ///   2. ad 102 seq 2 "Other" (AdServer) FAILED 403: none of 2 MediaFile(s) can be played: …
    /// midroll 0:05:00.000  1 ad
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
        for b in breaks {
            var line = b.position
            if b.position == "midroll", let offset = b.offset { line += " \(AdsInspectReport.clock(offset))" }
            if let id = b.breakId { line += "  id=\(id)" }
            if b.breakType != "linear" { line += "  type=\(b.breakType)" }
            lines.append(line + "  \(AdsInspectReport.count(b.ads.count, "ad"))")
            for (i, ad) in b.ads.enumerated() { lines.append("  \(i + 1). " + AdsInspectReport.line(ad)) }
        }
        if breaks.isEmpty { lines.append("no breaks") }
        lines += errors.map { "error \($0.code): \($0.message)" }
        lines += warnings.map { "warning \($0.code): \($0.message)" }
        return lines.joined(separator: "\n") + "\n"
    }

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
