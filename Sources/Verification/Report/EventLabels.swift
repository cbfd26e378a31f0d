import AdPlayback

/// The short words written under the event marks of the strip (page and sheet), so that a QA engineer sees what
/// happened where without hovering: a break starting, an ad starting, an error, picture in picture, a screen
/// command (`rotate portrait`, `split 1/3`, `present interstitial side`), each banner request and its answer,
/// a click, a skip, the end.
///
/// Labels are placed left to right on `rows` rows; one that would overlap the previous label on every row is left
/// out (its mark and its tooltip remain), so the strip never turns into a smear.
enum EventLabels {
    /// Rows of labels under the contact sheet's events lane (the page has `ReportSVG.labelRows`).
    static let rowsOnSheet = 2

    /// A label placed at `x` (the mark's), `row` from the top, for the event at `index` of the log.
    struct Placed: Sendable {
        var index: Int
        var x: Double
        var row: Int
        var text: String
    }

    /// The label an event gets, or nil for those that only get a mark (progress, quartiles, beacons, logs).
    static func label(_ event: SessionEvent) -> String? {
        let line = event.columns
        let ad = line.breakIndex.map { b in line.adIndex.map { "\(b)·\($0)" } ?? "\(b)" } ?? ""
        let text: String? = switch event.type {
        case .adBreakStarted: "break \(line.breakIndex.map(String.init) ?? "?")"
        case .started: "ad \(ad)"
        case .adError: "error" + (line.code.map { " \($0)" } ?? "")
        case .skipped: "skip \(ad)"
        case .click: "click"
        case .adBreakDeferred: "deferred"
        case .adBreakSkipped: "break skipped"
        case .pipDidStart: "PiP on"
        case .pipDidStop: "PiP off"
        case .pipFailedToStart: "PiP failed"
        case .bannerViewDidReceiveAd: "banner filled"
        case .bannerViewDidFailToReceiveAd: "banner failed"
        case .adDidLoad: "full-screen loaded"
        case .adDidFailToLoad: "full-screen failed"
        case .sessionEnded: "end"
        case .command: line.message
        default: nil
        }
        return text.map { ReportSVG.clipped(ReportFormat.value($0), to: 28) }
    }

    /// The labels of `events` at `x(event)`, each `width(text)` wide, on at most `rows` rows, left to right.
    /// A label never runs past `maxX`: one near the right edge is moved left to end there.
    static func place(_ events: [SessionEvent], rows: Int, x: (SessionEvent) -> Double, width: (String) -> Double, maxX: Double,
                      isCancelled: () -> Bool = { false }) -> [Placed] {
        var ends = Array(repeating: -Double.infinity, count: rows)
        var placed: [Placed] = []
        for (i, event) in events.enumerated() {
            if i % ReportLane.cancelCheckInterval == 0, isCancelled() { break }
            guard let text = label(event) else { continue }
            let at = min(x(event), maxX - width(text))
            guard let row = ends.indices.first(where: { ends[$0] + 4 <= at }) else { continue }
            ends[row] = at + width(text)
            placed.append(Placed(index: i, x: at, row: row, text: text))
        }
        return placed
    }
}
