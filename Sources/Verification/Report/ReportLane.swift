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

    /// The most scene lanes a strip draws (documented in docs/REPORT.md): a device shows a few scenes at once, and
    /// past a few dozen lanes the strip is unreadable; the page says how many more scenes there were.
    static let maximumSceneLanes = 24
    /// How many segments are walked between two looks at the interrupt flag.
    static let cancelCheckInterval = 1024

    /// The lanes of `timeline` and how many distinct scenes it has (of which at most `maximumSceneLanes` are
    /// lanes), in time linear in the timeline's segments, scenes and layers.
    struct Layout: Sendable {
        var lanes: [ReportLane]
        var scenes: Int
        var omittedScenes: Int { max(0, scenes - lanes.filter { $0.kind == .scene }.count) }
    }

    /// The lanes of `timeline` (see `layout`), without a way to stop.
    static func lanes(of timeline: Timeline) -> [ReportLane] {
        (try? layout(of: timeline, isCancelled: { false }))?.lanes ?? []
    }

    /// The lanes of `timeline`, top to bottom: program, picture in picture (when any), each scene in order of first
    /// appearance (the first `maximumSceneLanes`), then each kind of screen layer in the order of
    /// `ScreenLayer.Kind` (players and PiP aside).
    /// - Throws: `ReportError.interrupted` when `isCancelled` says so (looked at every `cancelCheckInterval` segments).
    static func layout(of timeline: Timeline, isCancelled: () -> Bool) throws(ReportError) -> Layout {
        let segments = timeline.segments
        func check(_ i: Int) throws(ReportError) {
            if i % cancelCheckInterval == 0, isCancelled() { throw .interrupted }
        }
        var lanes = [try program(timeline, check)]
        var pipFlags: [Bool] = []
        pipFlags.reserveCapacity(segments.count)
        for (i, segment) in segments.enumerated() {
            try check(i)
            pipFlags.append(segment.pip != nil || segment.screen.layers?.contains { $0.kind == .pip } == true)
        }
        let pip = Self.merged(pipFlags)
        if !pip.isEmpty {
            lanes.append(ReportLane(kind: .pip, title: "picture in picture", key: nil, spans: pip.map { range in
                Span(start: segments[range.lowerBound].outStartFrame, end: segments[range.upperBound - 1].outEndFrame,
                     label: "PiP", style: "pip", attributes: [("pip", "1")])
            }))
        }
        // One pass: each scene's runs (a new span where its window or state changes: a split resized, the device
        // turned), a scene found by its id in a dictionary.
        var sceneIDs: [SceneID] = [], sceneLane: [SceneID: Int] = [:], allScenes: Set<SceneID> = []
        var sceneRuns: [[Run]] = [], lastSegment: [Int] = []
        for (i, segment) in segments.enumerated() {
            try check(i)
            for scene in segment.screen.scenes ?? [] {
                allScenes.insert(scene.id)
                var lane = sceneLane[scene.id]
                if lane == nil, sceneIDs.count < maximumSceneLanes {
                    lane = sceneIDs.count
                    sceneLane[scene.id] = sceneIDs.count
                    sceneIDs.append(scene.id)
                    sceneRuns.append([])
                    lastSegment.append(-1)
                }
                guard let lane, lastSegment[lane] != i else { continue }
                lastSegment[lane] = i
                Self.extend(&sceneRuns[lane], segment, "\(scene.rect.width)x\(scene.rect.height) · " + Self.stateName(scene.state))
            }
        }
        for (id, runs) in zip(sceneIDs, sceneRuns.map(Self.withoutBlips)) {
            let shown = ReportFormat.value(id.rawValue)
            lanes.append(ReportLane(kind: .scene, title: "scene \(shown)", key: shown, spans: runs.map { run in
                Span(start: run.start, end: run.end, label: "\(shown) · " + run.value, style: "scene",
                     attributes: [("scene-span", shown)])
            }))
        }
        let drawn = ScreenLayer.Kind.allCases.filter { ![.content, .ad, .pip].contains($0) }
        var layerRuns: [ScreenLayer.Kind: [Run]] = [:]
        for (i, segment) in segments.enumerated() {
            try check(i)
            var byKind: [ScreenLayer.Kind: [SceneID]] = [:]
            for layer in segment.screen.layers ?? [] where drawn.contains(layer.kind) { byKind[layer.kind, default: []].append(layer.scene) }
            for (kind, scenes) in byKind {
                let names = Set(scenes).sorted().map { ReportFormat.value($0.rawValue) }
                let listed = names.prefix(4).joined(separator: ", ") + (names.count > 4 ? ", …" : "")
                Self.extend(&layerRuns[kind, default: []], segment, scenes.count == 1 ? listed : "\(scenes.count) in \(listed)")
            }
        }
        for kind in drawn {
            guard let runs = layerRuns[kind].map(Self.withoutBlips), !runs.isEmpty else { continue }
            lanes.append(ReportLane(kind: .layer, title: Self.layerTitle(kind), key: kind.rawValue, spans: runs.map { run in
                Span(start: run.start, end: run.end, label: run.value, style: kind.rawValue,
                     attributes: [("layer-span", kind.rawValue)])
            }))
        }
        return Layout(lanes: lanes, scenes: allScenes.count)
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
    private static func program(_ timeline: Timeline, _ check: (Int) throws(ReportError) -> Void) throws(ReportError) -> ReportLane {
        var spans: [Span] = []
        spans.reserveCapacity(timeline.segments.count)
        for (i, segment) in timeline.segments.enumerated() {
            try check(i)
            var attributes = [("segment", "\(i)"), ("kind", segment.kind.rawValue)]
            if let b = segment.breakIndex { attributes.append(("break", "\(b)")) }
            if let a = segment.adIndex { attributes.append(("ad", "\(a)")) }
            spans.append(Span(start: segment.outStartFrame, end: segment.outEndFrame, label: label(segment),
                              style: segment.kind.rawValue, attributes: attributes))
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

    /// Frames `[start, end)` over which a lane shows the same words.
    struct Run: Sendable {
        var start: Int64
        var end: Int64
        var value: String
    }

    /// `runs` with every one-frame run that follows another without a gap merged into it (a window's size during
    /// the one frame of a transition is not worth a span no one can see), and the runs on either side of it joined
    /// when they show the same.
    static func withoutBlips(_ runs: [Run]) -> [Run] {
        var out: [Run] = []
        out.reserveCapacity(runs.count)
        for run in runs {
            if let last = out.last, last.end == run.start, run.end - run.start == 1 || last.value == run.value {
                out[out.count - 1].end = run.end
            } else {
                out.append(run)
            }
        }
        return out
    }

    /// `runs` with `segment` showing `value`: the last run made longer when it shows the same and touches it in
    /// frames, else a new run.
    private static func extend(_ runs: inout [Run], _ segment: Timeline.Segment, _ value: String) {
        if let last = runs.last, last.value == value, last.end == segment.outStartFrame {
            runs[runs.count - 1].end = segment.outEndFrame
        } else {
            runs.append(Run(start: segment.outStartFrame, end: segment.outEndFrame, value: value))
        }
    }
}
