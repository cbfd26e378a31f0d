import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import Rendering

/// What `verify --expect GOLDEN` compares with the golden (a timeline of an earlier, trusted render).
public enum GoldenAspect: String, CaseIterable, Codable, Hashable, Sendable {
    /// Which source frame every output frame shows (so where each break starts and ends), read from the pixels.
    case frames
    /// The picture-in-picture windows: the output frames each is open and its rectangle.
    case pip
    /// Every screen layer of every segment (`--device`): kind, scene, rectangle and source.
    case layers
    /// The event log: each event's type and output frame, with the break, ad, tracking event, scene, placement,
    /// card and ad id it names.
    case events
}

/// Which aspects a golden is compared on: all of them, or the ones `--expect-only` names.
public enum GoldenScope: Hashable, Sendable {
    case all
    case only(Set<GoldenAspect>)

    public func includes(_ aspect: GoldenAspect) -> Bool {
        switch self {
        case .all: true
        case .only(let aspects): aspects.contains(aspect)
        }
    }

    /// True when the user named `aspect`: a comparison that cannot be made is then a problem, not a note.
    func names(_ aspect: GoldenAspect) -> Bool {
        if case .only(let aspects) = self { aspects.contains(aspect) } else { false }
    }
}

/// The golden comparisons that read timelines and event logs rather than pixels: picture in picture, screen layers
/// and events. The render's own timeline has been checked against the pixels (a PiP window's stamps are read
/// inside its rectangle, every screen layer at its rectangle), so a difference from the golden's timeline is a
/// difference on the screen. Each comparison reports only its first difference, in words.
enum GoldenComparison {
    /// The problems and notes of comparing `timeline` (with its event log at `eventsPath`) with the golden at
    /// `goldenPath`, on the aspects of `scope` other than `frames`.
    static func compare(_ timeline: Timeline, eventsPath: String, golden: Timeline, goldenPath: String,
                        scope: GoldenScope) -> (problems: [VerifyFinding], notes: [String]) {
        var problems: [VerifyFinding] = [], notes: [String] = []
        if scope.includes(.pip), let difference = firstPictureInPictureDifference(timeline, golden: golden) {
            problems.append(.init(.goldenPictureInPicture, .golden(.pip), difference))
        }
        if scope.includes(.layers), let difference = firstLayerDifference(timeline, golden: golden) {
            problems.append(.init(.goldenLayers, .golden(.layers), difference))
        }
        if scope.includes(.events) {
            switch (readEvents(eventsPath), readEvents(eventLogPath(ofTimeline: goldenPath))) {
            case (.success(let events), .success(let goldenEvents)):
                if let difference = firstEventDifference(events, golden: goldenEvents) {
                    problems.append(.init(.goldenEvents, .golden(.events), difference))
                }
            case (.failure(let reason), _), (_, .failure(let reason)):
                let sentence = "events not compared with the golden: \(reason)"
                if scope.names(.events) {
                    problems.append(.init(.goldenEventsUnavailable, .golden(.events), sentence))
                } else {
                    notes.append(sentence)
                }
            }
        }
        return (problems, notes)
    }

    // MARK: - Picture in picture

    /// One picture-in-picture window: open over output frames `[start, end)` at `rect`.
    struct PictureInPictureWindow: Hashable {
        var start: Int64
        var end: Int64
        var rect: Timeline.Rect
    }

    /// The timeline's picture-in-picture windows in order: consecutive segments in the same window are one; a
    /// window that moves is a new one from the frame it moved.
    static func pictureInPictureWindows(_ timeline: Timeline) -> [PictureInPictureWindow] {
        var windows: [PictureInPictureWindow] = []
        for segment in timeline.segments {
            guard let rect = segment.pip else { continue }
            if let last = windows.last, last.end == segment.outStartFrame, last.rect == rect {
                windows[windows.count - 1].end = segment.outEndFrame
            } else {
                windows.append(PictureInPictureWindow(start: segment.outStartFrame, end: segment.outEndFrame, rect: rect))
            }
        }
        return windows
    }

    static func firstPictureInPictureDifference(_ timeline: Timeline, golden: Timeline) -> String? {
        let windows = pictureInPictureWindows(timeline), expected = pictureInPictureWindows(golden)
        for (i, (window, want)) in zip(windows, expected).enumerated() where window != want {
            let name = "picture in picture window \(i + 1) at \(words(window.rect))"
            if window.start != want.start {
                return "\(name) started at output frame \(window.start), the golden says \(want.start)"
            }
            if window.end != want.end {
                return "\(name) ended at output frame \(window.end), the golden says \(want.end)"
            }
            return "picture in picture window \(i + 1) from output frame \(window.start): PiP window at \(words(window.rect)), the golden has it at \(words(want.rect))"
        }
        if windows.count > expected.count {
            let extra = windows[expected.count]
            return "picture in picture window \(expected.count + 1) at \(words(extra.rect)), output frames \(extra.start)–\(extra.end - 1), is not in the golden (it has \(expected.count))"
        }
        if expected.count > windows.count {
            let missing = expected[windows.count]
            return "the golden has picture in picture window \(windows.count + 1) at \(words(missing.rect)), output frames \(missing.start)–\(missing.end - 1); the output has \(windows.count)"
        }
        return nil
    }

    // MARK: - Screen layers

    /// What is compared of a layer.
    struct LayerKey: Hashable {
        var kind: ScreenLayer.Kind
        var scene: SceneID
        var rect: Timeline.Rect
        var source: String?
        /// A shadow's caster and reach: where the shadow is cast from, not only where it is drawn.
        var shadow: ScreenLayer.Shadow?

        init(_ layer: Timeline.Layer) {
            kind = layer.kind
            // The divider is a screen-level layer; a golden written before issue 36 gave it the trailing scene.
            scene = layer.kind == .divider ? .screen : layer.scene
            rect = layer.rect
            // The file its picture was read from (`nil`: drawn in a colour), and what casts a shadow.
            switch layer {
            case .player(let player): source = player.source
            case .banner(_, let file): source = file
            case .fullScreen(_, .image(let file)), .fullScreen(_, .video(let file, _)): source = file
            case .card(_, let card), .native(_, let card): source = card.image?.source
            case .shadow(_, let cast): shadow = cast
            case .fullScreen(_, .placeholder), .overlay, .slider, .divider, .edge: break
            }
        }

        var name: String { scene == .screen ? "\(kind.rawValue) of the screen" : "\(kind.rawValue) of scene \"\(scene)\"" }
    }

    /// Output frames `[start, end)` over which the screen holds the same layers.
    struct LayerRun: Hashable {
        var start: Int64
        var end: Int64
        var layers: [LayerKey]
    }

    /// The timeline's layers as runs of output frames: segments that split for another reason (an ad starting in
    /// the same player window still changes the player layer's kind and source) merge when their layers are the same.
    static func layerRuns(_ timeline: Timeline) -> [LayerRun] {
        var runs: [LayerRun] = []
        for segment in timeline.segments {
            let layers = (segment.screen.layers ?? []).map(LayerKey.init)
            if let last = runs.last, last.end == segment.outStartFrame, last.layers == layers {
                runs[runs.count - 1].end = segment.outEndFrame
            } else {
                runs.append(LayerRun(start: segment.outStartFrame, end: segment.outEndFrame, layers: layers))
            }
        }
        return runs
    }

    static func firstLayerDifference(_ timeline: Timeline, golden: Timeline) -> String? {
        let runs = layerRuns(timeline), expected = layerRuns(golden)
        for (run, want) in zip(runs, expected) where run != want {
            if run.start != want.start {
                return "the screen layers change at output frame \(run.start), the golden says \(want.start)"
            }
            for (l, (layer, wanted)) in zip(run.layers, want.layers).enumerated() where layer != wanted {
                let name = "screen layer \(l + 1) from output frame \(run.start)"
                if layer.kind != wanted.kind || layer.scene != wanted.scene {
                    return "\(name) is the \(layer.name), the golden has the \(wanted.name)"
                }
                if layer.rect != wanted.rect {
                    return "\(name), the \(layer.name), is at \(words(layer.rect)), the golden has it at \(words(wanted.rect))"
                }
                if layer.shadow != wanted.shadow {
                    let cast = { (s: ScreenLayer.Shadow?) in s.map { "by \(words(Timeline.Rect($0.caster))), \($0.reach) px out" } ?? "by nothing said" }
                    return "\(name), the \(layer.name), is cast \(cast(layer.shadow)), the golden's \(cast(wanted.shadow))"
                }
                return "\(name), the \(layer.name), shows \(layer.source ?? "a colour"), the golden \(wanted.source ?? "a colour")"
            }
            if run.layers.count != want.layers.count {
                let names = { (layers: ArraySlice<LayerKey>) in layers.map(\.name).joined(separator: ", ") }
                return run.layers.count > want.layers.count
                    ? "from output frame \(run.start) the screen has \(run.layers.count) layers, the golden \(want.layers.count): not in the golden: \(names(run.layers[want.layers.count...]))"
                    : "from output frame \(run.start) the screen has \(run.layers.count) layers, the golden \(want.layers.count): missing: \(names(want.layers[run.layers.count...]))"
            }
            return "the screen layers change at output frame \(run.end), the golden says \(want.end)"
        }
        if runs.count != expected.count {
            let at = min(runs.count, expected.count)
            let frame = (runs.count > expected.count ? runs[at] : expected[at]).start
            return "the screen layers change \(runs.count - 1) times, the golden \(expected.count - 1) (first difference at output frame \(frame))"
        }
        return nil
    }

    // MARK: - Events

    /// What is compared of an event: its type and frame and what names its ad, placement or command. Times in
    /// seconds follow from the frame; URLs carry cache busters and timestamps; `LOG` lines are free text.
    struct EventKey: Hashable {
        var type: SessionEventType
        var frame: Int64?
        var breakIndex: Int?
        var adIndex: Int?
        var event: TrackingEventName?
        var scene: SceneID?
        var placement: String?
        var card: Int?
        var adID: String?
        /// A `COMMAND`'s text (`pip off`), what names it.
        var command: String?

        init(_ event: SessionEvent) {
            let line = event.columns
            type = event.type
            command = if case .command(let written) = event.kind { written } else { nil }
            frame = event.frame
            breakIndex = line.breakIndex
            adIndex = line.adIndex
            self.event = line.event
            scene = event.scene
            placement = line.native.placement
            card = line.native.card
            adID = line.native.adID
        }

        /// `COMPLETE of break 0 ad 1 at output frame 412`.
        var words: String {
            var text = type.rawValue
            if let event { text += " \(event.rawValue)" }
            if let command { text += " \"\(command)\"" }
            var of: [String] = []
            if let breakIndex { of.append("break \(breakIndex)") }
            if let adIndex { of.append("ad \(adIndex)") }
            if let placement { of.append("placement \"\(placement)\"") }
            if let card { of.append("card \(card)") }
            if let adID { of.append("ad id \"\(adID)\"") }
            if let scene { of.append("scene \"\(scene)\"") }
            if !of.isEmpty { text += " of " + of.joined(separator: " ") }
            return text + (frame.map { " at output frame \($0)" } ?? " before the first frame")
        }
    }

    static func eventKeys(_ events: [SessionEvent]) -> [EventKey] {
        events.filter { $0.type != .log }.map(EventKey.init)
    }

    static func firstEventDifference(_ events: [SessionEvent], golden: [SessionEvent]) -> String? {
        let keys = eventKeys(events), expected = eventKeys(golden)
        for (i, (key, want)) in zip(keys, expected).enumerated() where key != want {
            return "event \(i + 1): \(key.words), the golden has \(want.words)"
        }
        if keys.count > expected.count {
            return "event \(expected.count + 1): \(keys[expected.count].words) is not in the golden (it has \(expected.count) events)"
        }
        if expected.count > keys.count {
            return "event \(keys.count + 1): the golden has \(expected[keys.count].words); the output's log ends after \(keys.count) events"
        }
        return nil
    }

    /// The event log written beside a timeline: `OUT.events.jsonl` for `OUT.timeline.json`, `events.jsonl` beside
    /// an HLS render's `timeline.json`; `nil` for a timeline of another name (a golden copied under its own name).
    static func eventLogPath(ofTimeline path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        if url.lastPathComponent == HLSRender.timelineName {
            return url.deletingLastPathComponent().appendingPathComponent(HLSRender.eventsName).path
        }
        guard path.hasSuffix(".timeline.json") else { return nil }
        return String(path.dropLast(".timeline.json".count)) + ".events.jsonl"
    }

    static func readEvents(_ path: String?) -> Result<[SessionEvent], EventsUnavailable> {
        guard let path else {
            return .failure(EventsUnavailable(reason: "the golden is not named NAME.timeline.json, so it has no NAME.events.jsonl beside it"))
        }
        do { return .success(try EventLogReader.read(path: path, limits: .renderLog)) } catch {
            return .failure(EventsUnavailable(reason: "\(error)"))
        }
    }

    /// Why an event log could not be read.
    struct EventsUnavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// `(x,y 160x90)`.
    static func words(_ rect: Timeline.Rect) -> String { "(\(rect.x),\(rect.y) \(rect.width)x\(rect.height))" }
}
