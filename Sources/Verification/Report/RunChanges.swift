import AdPlayback
import AdScreen

/// What changed at the start of each run (segment), in words, for the runs table: the screen commands that took
/// effect there (`rotate portrait`, `split 1/3`, `present interstitial side`, from the event log) and what the
/// timeline shows changing — the device turned, a split resized, a scene coming or going or changing state, a
/// full-screen ad or landing screen presented or dismissed, cards swiped, picture in picture on or off, a pause.
enum RunChanges {
    /// The most words a run's change is given (the rest: `…`).
    static let maximumParts = 6

    /// One description per segment of `timeline` ("" when nothing a QA engineer would look for changed), in time
    /// linear in the segments, layers and events.
    static func describe(_ timeline: Timeline, events: [SessionEvent], isCancelled: () -> Bool = { false }) -> [String] {
        var commands: [Int64: [String]] = [:]
        for (i, event) in events.enumerated() {
            if i % ReportLane.cancelCheckInterval == 0, isCancelled() { break }
            guard event.type == .command, let frame = event.frame, let message = event.columns.message else { continue }
            if commands[frame, default: []].count < maximumParts { commands[frame, default: []].append(ReportFormat.value(message)) }
        }
        var out: [String] = []
        out.reserveCapacity(timeline.segments.count)
        var previous: Timeline.Segment?
        for (i, segment) in timeline.segments.enumerated() {
            if i % ReportLane.cancelCheckInterval == 0, isCancelled() { break }
            var parts = (commands[segment.outStartFrame] ?? []).map { "command: " + $0 }
            if let p = previous { parts += screenChanges(from: p, to: segment) } else { parts.append("start") }
            out.append(parts.count > maximumParts ? parts.prefix(maximumParts).joined(separator: "; ") + "; …" : parts.joined(separator: "; "))
            previous = segment
        }
        while out.count < timeline.segments.count { out.append("") }
        return out
    }

    /// What the timeline shows changing from `p` to `s`.
    static func screenChanges(from p: Timeline.Segment, to s: Timeline.Segment) -> [String] {
        var parts: [String] = []
        if p.kind == .content, s.kind == .ad { parts.append("break \(s.breakIndex.map(String.init) ?? "?") starts") }
        if p.kind == .ad, s.kind == .content { parts.append("back to content") }
        if p.pip == nil, s.pip != nil { parts.append("PiP on") }
        if p.pip != nil, s.pip == nil { parts.append("PiP off") }
        if !p.paused, s.paused { parts.append("paused") }
        if p.paused, !s.paused { parts.append("resumed") }
        let a = p.screen, b = s.screen
        var rotated = false
        if let d0 = a.display, let d1 = b.display, (d0.width > d0.height) != (d1.width > d1.height) {
            parts.append("rotated to " + (d1.height > d1.width ? "portrait" : "landscape"))
            rotated = true
        }
        let before = Dictionary((a.scenes ?? []).map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        let after = Dictionary((b.scenes ?? []).map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        var resized = false
        for scene in b.scenes ?? [] {
            let name = ReportFormat.value(scene.id.rawValue)
            guard let old = before[scene.id] else { parts.append("scene \(name) appears"); continue }
            if old.rect != scene.rect { resized = true }
            if old.state != scene.state { parts.append("scene \(name) " + ReportLane.stateName(scene.state)) }
        }
        for scene in a.scenes ?? [] where after[scene.id] == nil { parts.append("scene \(ReportFormat.value(scene.id.rawValue)) leaves") }
        if resized, !rotated { parts.append("split resized") }
        let kinds0 = layerCounts(a.layers ?? []), kinds1 = layerCounts(b.layers ?? [])
        for kind in [ScreenLayer.Kind.fullscreen, .overlay, .banner, .slider, .native] {
            let title = ReportLane.layerTitle(kind)
            if kinds0[kind, default: 0] == 0, kinds1[kind, default: 0] > 0 { parts.append(kind == .banner ? "banner shown" : title + " presented") }
            if kinds0[kind, default: 0] > 0, kinds1[kind, default: 0] == 0 { parts.append(kind == .banner ? "banner hidden" : title + " dismissed") }
        }
        // Cards that moved inside an unchanged screen: a swipe of the slider.
        let cards0 = (a.layers ?? []).filter { $0.kind == .card }.map(\.rect), cards1 = (b.layers ?? []).filter { $0.kind == .card }.map(\.rect)
        if !cards0.isEmpty, !cards1.isEmpty, cards0 != cards1, !rotated, !resized { parts.append("cards swiped") }
        return parts
    }

    private static func layerCounts(_ layers: [Timeline.Layer]) -> [ScreenLayer.Kind: Int] {
        var counts: [ScreenLayer.Kind: Int] = [:]
        for layer in layers { counts[layer.kind, default: 0] += 1 }
        return counts
    }
}
