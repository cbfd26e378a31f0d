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
/// difference on the screen. Each comparison reports only its first difference, as a finding's facts.
enum GoldenComparison {
    /// The problems and notes of comparing `timeline` (with its event log at `eventsPath`) with the golden at
    /// `goldenPath`, on the aspects of `scope` other than `frames`.
    static func compare(_ timeline: Timeline, eventsPath: String, golden: Timeline, goldenPath: String,
                        scope: GoldenScope) -> (problems: [VerifyFinding], notes: [String]) {
        var problems: [VerifyFinding] = [], notes: [String] = []
        if scope.includes(.pip), let difference = pictureInPictureDifference(timeline, golden: golden) {
            problems.append(.init(difference))
        }
        if scope.includes(.layers), let difference = layerDifference(timeline, golden: golden) {
            problems.append(.init(difference))
        }
        if scope.includes(.events) {
            switch (readEvents(eventsPath), readEvents(eventLogPath(ofTimeline: goldenPath))) {
            case (.success(let events), .success(let goldenEvents)):
                if let difference = eventDifference(events, golden: goldenEvents) {
                    problems.append(.init(difference))
                }
            case (.failure(let reason), _), (_, .failure(let reason)):
                let unavailable = VerifyFinding(.goldenEventsUnavailable(reason: reason.reason))
                if scope.names(.events) {
                    problems.append(unavailable)
                } else {
                    notes.append(unavailable.text)
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

    /// The first difference of the picture-in-picture windows from the golden's, if any.
    static func pictureInPictureDifference(_ timeline: Timeline, golden: Timeline) -> VerifyFinding.Detail? {
        let windows = pictureInPictureWindows(timeline), expected = pictureInPictureWindows(golden)
        for (i, (window, want)) in zip(windows, expected).enumerated() where window != want {
            if window.start != want.start {
                return .goldenPipStart(window: i + 1, rect: window.rect, frame: window.start, expected: want.start)
            }
            if window.end != want.end {
                return .goldenPipEnd(window: i + 1, rect: window.rect, frame: window.end, expected: want.end)
            }
            return .goldenPipRect(window: i + 1, frame: window.start, rect: window.rect, expected: want.rect)
        }
        if windows.count > expected.count {
            let extra = windows[expected.count]
            return .goldenPipExtra(window: expected.count + 1, rect: extra.rect, first: extra.start, last: extra.end - 1,
                                   goldenCount: expected.count)
        }
        if expected.count > windows.count {
            let missing = expected[windows.count]
            return .goldenPipMissing(window: windows.count + 1, rect: missing.rect, first: missing.start, last: missing.end - 1,
                                     count: windows.count)
        }
        return nil
    }

    /// That difference's sentence.
    static func firstPictureInPictureDifference(_ timeline: Timeline, golden: Timeline) -> String? {
        pictureInPictureDifference(timeline, golden: golden)?.text
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

        /// The layer as a finding names it.
        var name: VerifyFinding.LayerName { VerifyFinding.LayerName(kind: kind, scene: scene.rawValue) }
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

    /// The first difference of the screen layers from the golden's, if any.
    static func layerDifference(_ timeline: Timeline, golden: Timeline) -> VerifyFinding.Detail? {
        let runs = layerRuns(timeline), expected = layerRuns(golden)
        for (run, want) in zip(runs, expected) where run != want {
            if run.start != want.start {
                return .goldenLayersChange(frame: run.start, expected: want.start)
            }
            for (l, (layer, wanted)) in zip(run.layers, want.layers).enumerated() where layer != wanted {
                if layer.kind != wanted.kind || layer.scene != wanted.scene {
                    return .goldenLayerKind(number: l + 1, frame: run.start, layer: layer.name, expected: wanted.name)
                }
                if layer.rect != wanted.rect {
                    return .goldenLayerRect(number: l + 1, frame: run.start, layer: layer.name, rect: layer.rect, expected: wanted.rect)
                }
                if layer.shadow != wanted.shadow {
                    return .goldenLayerShadow(number: l + 1, frame: run.start, layer: layer.name, shadow: layer.shadow.map { .init($0) },
                                              expected: wanted.shadow.map { .init($0) })
                }
                return .goldenLayerSource(number: l + 1, frame: run.start, layer: layer.name, source: layer.source, expected: wanted.source)
            }
            if run.layers.count != want.layers.count {
                return run.layers.count > want.layers.count
                    ? .goldenLayersExtra(frame: run.start, count: run.layers.count, goldenCount: want.layers.count,
                                         layers: run.layers[want.layers.count...].map(\.name))
                    : .goldenLayersMissing(frame: run.start, count: run.layers.count, goldenCount: want.layers.count,
                                           layers: want.layers[run.layers.count...].map(\.name))
            }
            return .goldenLayersChange(frame: run.end, expected: want.end)
        }
        if runs.count != expected.count {
            let at = min(runs.count, expected.count)
            let frame = (runs.count > expected.count ? runs[at] : expected[at]).start
            return .goldenLayerChanges(changes: runs.count - 1, expected: expected.count - 1, frame: frame)
        }
        return nil
    }

    /// That difference's sentence.
    static func firstLayerDifference(_ timeline: Timeline, golden: Timeline) -> String? {
        layerDifference(timeline, golden: golden)?.text
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

        /// The event as a finding names it.
        var named: VerifyFinding.Event {
            VerifyFinding.Event(type: type.rawValue, event: event?.rawValue, command: command, breakIndex: breakIndex, adIndex: adIndex,
                                placement: placement, card: card, adID: adID, scene: scene?.rawValue, frame: frame)
        }
    }

    static func eventKeys(_ events: [SessionEvent]) -> [EventKey] {
        events.filter { $0.type != .log }.map(EventKey.init)
    }

    /// The first difference of the event log from the golden's, if any.
    static func eventDifference(_ events: [SessionEvent], golden: [SessionEvent]) -> VerifyFinding.Detail? {
        let keys = eventKeys(events), expected = eventKeys(golden)
        for (i, (key, want)) in zip(keys, expected).enumerated() where key != want {
            return .goldenEvent(number: i + 1, event: key.named, expected: want.named)
        }
        if keys.count > expected.count {
            return .goldenEventExtra(number: expected.count + 1, event: keys[expected.count].named, goldenCount: expected.count)
        }
        if expected.count > keys.count {
            return .goldenEventMissing(number: keys.count + 1, expected: expected[keys.count].named, count: keys.count)
        }
        return nil
    }

    /// That difference's sentence.
    static func firstEventDifference(_ events: [SessionEvent], golden: [SessionEvent]) -> String? {
        eventDifference(events, golden: golden)?.text
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
}
