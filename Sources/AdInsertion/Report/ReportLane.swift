import AdPlayback
import AdScreen

/// One row of a report's time strip: what shows over which output frames.
///
/// The lanes are a pure function of the timeline: the program (content and each ad, with its break and ad), the
/// picture-in-picture window, each scene, and each kind of screen layer (banner, full-screen ad, landing screen,
/// slider, cards, …). `ReportSVG` draws them on the page and `ContactSheet` on the PNG.
struct ReportLane: Sendable {
    enum Kind: String, Hashable, Sendable {
        case program, pip, scene, layer
    }

    /// Frames `[start, end)` of one thing in the lane.
    struct Span: Sendable {
        var start: Int64
        var end: Int64
        /// Short words drawn on the span when it is wide enough.
        var label: String
        /// What its colour says: `content`, `ad`, `pip`, `scene`, or a layer kind.
        var style: String
        /// `data-*` attributes for the page (names without the prefix), in order.
        var attributes: [(String, String)]
    }

    var kind: Kind
    /// The lane's name at its left.
    var title: String
    /// The scene id of a scene lane, the layer kind of a layer lane.
    var key: String?
    var spans: [Span]

    /// The lanes of `timeline`, top to bottom: program, picture in picture (when any), each scene in order of first
    /// appearance, then each kind of screen layer in the order of `ScreenLayer.Kind` (players and PiP aside).
    static func lanes(of timeline: Timeline) -> [ReportLane] {
        var lanes = [program(timeline)]
        let pip = Self.merged(timeline.segments.map { segment in
            segment.pip != nil || segment.screen.layers?.contains { $0.kind == .pip } == true
        })
        if !pip.isEmpty {
            lanes.append(ReportLane(kind: .pip, title: "picture in picture", key: nil, spans: pip.map { range in
                Span(start: timeline.segments[range.lowerBound].outStartFrame, end: timeline.segments[range.upperBound - 1].outEndFrame,
                     label: "PiP", style: "pip", attributes: [("pip", "1")])
            }))
        }
        var sceneIDs: [SceneID] = []
        for segment in timeline.segments {
            for scene in segment.screen.scenes ?? [] where !sceneIDs.contains(scene.id) { sceneIDs.append(scene.id) }
        }
        for id in sceneIDs {
            // A new span where the scene's window or state changes (a split resized, the device turned).
            let runs = Self.runs(timeline) { segment in
                segment.screen.scenes?.first { $0.id == id }.map { "\($0.rect.width)x\($0.rect.height) · " + Self.stateName($0.state) }
            }
            lanes.append(ReportLane(kind: .scene, title: "scene \(id)", key: id.rawValue, spans: runs.map { run in
                Span(start: run.start, end: run.end, label: "\(id) · " + run.value, style: "scene",
                     attributes: [("scene-span", id.rawValue)])
            }))
        }
        let drawn = ScreenLayer.Kind.allCases.filter { ![.content, .ad, .pip].contains($0) }
        for kind in drawn {
            let runs = Self.runs(timeline) { segment -> String? in
                let layers = (segment.screen.layers ?? []).filter { $0.kind == kind }
                guard !layers.isEmpty else { return nil }
                let scenes = Set(layers.map(\.scene)).sorted().map(\.rawValue).joined(separator: ", ")
                return layers.count == 1 ? scenes : "\(layers.count) in \(scenes)"
            }
            guard !runs.isEmpty else { continue }
            lanes.append(ReportLane(kind: .layer, title: Self.layerTitle(kind), key: kind.rawValue, spans: runs.map { run in
                Span(start: run.start, end: run.end, label: run.value, style: kind.rawValue,
                     attributes: [("layer-span", kind.rawValue)])
            }))
        }
        return lanes
    }

    static func stateName(_ state: SceneActivationState) -> String {
        switch state {
        case .foregroundActive: "active"
        case .foregroundInactive: "inactive"
        case .background: "background"
        }
    }

    static func layerTitle(_ kind: ScreenLayer.Kind) -> String {
        switch kind {
        case .banner: "banner"
        case .fullscreen: "full-screen ad"
        case .overlay: "landing screen"
        case .slider: "slider"
        case .card: "cards"
        case .native: "native ad"
        case .divider: "split divider"
        case .edge: "slide-over edge"
        case .shadow: "slide-over shadow"
        case .content, .ad, .pip: kind.rawValue
        }
    }

    /// One span per segment: content, or the ad with its break and index.
    private static func program(_ timeline: Timeline) -> ReportLane {
        let spans = timeline.segments.enumerated().map { (i, segment) in
            var attributes = [("segment", "\(i)"), ("kind", segment.kind.rawValue)]
            if let b = segment.breakIndex { attributes.append(("break", "\(b)")) }
            if let a = segment.adIndex { attributes.append(("ad", "\(a)")) }
            return Span(start: segment.outStartFrame, end: segment.outEndFrame, label: label(segment),
                        style: segment.kind.rawValue, attributes: attributes)
        }
        return ReportLane(kind: .program, title: "content / ads", key: nil, spans: spans)
    }

    /// `content`, `break 1 · ad 0`, with `(paused)` for a frozen picture.
    static func label(_ segment: Timeline.Segment) -> String {
        let what = switch segment.kind {
        case .content: "content"
        case .ad: "break \(segment.breakIndex.map(String.init) ?? "?") · ad \(segment.adIndex.map(String.init) ?? "?")"
        }
        return segment.paused ? what + " (paused)" : what
    }

    /// The ranges of segment indexes, contiguous in frames, where `flags` is true.
    private static func merged(_ flags: [Bool]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (i, on) in flags.enumerated() where on {
            if let last = ranges.last, last.upperBound == i { ranges[ranges.count - 1] = last.lowerBound..<(i + 1) } else {
                ranges.append(i..<(i + 1))
            }
        }
        return ranges
    }

    /// Runs of consecutive segments (touching in frames) for which `value` is the same non-nil string.
    private static func runs(_ timeline: Timeline, _ value: (Timeline.Segment) -> String?) -> [(start: Int64, end: Int64, value: String)] {
        var runs: [(start: Int64, end: Int64, value: String)] = []
        for segment in timeline.segments {
            guard let v = value(segment) else { continue }
            if let last = runs.last, last.value == v, last.end == segment.outStartFrame {
                runs[runs.count - 1].end = segment.outEndFrame
            } else {
                runs.append((segment.outStartFrame, segment.outEndFrame, v))
            }
        }
        return runs
    }
}
