import AdPlayback
import MediaCore

/// Which picture of a file a timeline's layer names (`MediaReference.recorded`), by the rule the renderer read it by.
public enum RecordedFrame: Hashable, Sendable {
    /// Frame `n` of the file, its frames looped with the output's: a banner's creative, a full-screen image, the
    /// picture-in-picture backdrop.
    case looping(Int64)
    /// Tick `tick` of its own clock, its last frame held past its end: a full-screen video, a native image (tick 0).
    case tick(Int64)
    /// A full-screen creative of a timeline written before video layers carried their tick: an image loops like a
    /// banner's (frame `n`); which frame of a video is on screen cannot be known.
    case untimed(Int64)
}

extension Timeline.Segment {
    /// The planner's layers (`FramePlanner`) that the screen of this segment records at its output frame `n`, bottom
    /// first: the bezel over `canvas`, the display black (`FramePlanner.background`), then each timeline layer's
    /// (`planned(_:atFrame:)`).
    public func plannedLayers(atFrame n: Int64, canvas: PixelSize) -> [PlannedLayer] {
        FramePlanner.background(canvas: canvas, display: screen.display?.pixelRect)
            + (screen.layers ?? []).flatMap { planned($0, atFrame: n) }
    }

    /// The planner's layers that `layer`, one of this segment's, records at output frame `n`, bottom first: what the
    /// renderer drew for it, its pictures named by the files the timeline says they were read from
    /// (`MediaReference.recorded`), except a player's, which is `MediaReference.player` at the tick the segment (the
    /// primary player) or the layer (another scene's) gives.
    ///
    /// A timeline records less than a plan: a native card's text, call to action and feedback button, and a video
    /// of a card, are not in it, so they are not among these layers (their place is inside the card).
    public func planned(_ layer: Timeline.Layer, atFrame n: Int64) -> [PlannedLayer] {
        let rect = layer.rect.pixelRect
        func one(_ content: PlannedLayer.Content, clip: PixelRect? = nil) -> [PlannedLayer] {
            [PlannedLayer(content, in: rect, clip: clip, scene: layer.scene)]
        }
        switch layer {
        case .player(let player):
            let floating = player.kind == .content && (screen.layers ?? []).contains { $0.kind == .pip && $0.scene == layer.scene }
            if floating {
                // The picture-in-picture backdrop: the background's frames looped, or the slate.
                return one(player.source.map { .picture(.recorded(source: $0, .looping(n)), .fill) } ?? .color(.slate))
            }
            guard player.source != nil else { return one(.color(.black)) }
            return one(.picture(.player(layer.scene, shown(by: player, atFrame: n)), .letterbox))
        case .banner(_, let source):
            return source.map { one(.picture(.recorded(source: $0, .looping(n)), .fill)) } ?? []
        case .fullScreen(_, .placeholder):
            return one(.color(.fullScreenPlaceholder))
        case .fullScreen(_, .image(let source)):
            return one(.color(.black)) + one(.picture(.recorded(source: source, .untimed(n)), .letterbox))
        case .fullScreen(_, .video(let source, let tick)):
            return one(.color(.black)) + one(.picture(.recorded(source: source, .tick(tick + n - outStartFrame)), .letterbox))
        case .overlay:
            return one(.color(.overlay))
        case .slider(_, let slider):
            // Cut, as every layer of a placement, to its viewport: the slider's own rectangle.
            return one(.color(slider.placeholder ? .nativePlaceholder : .slider), clip: rect)
        case .card(_, let card), .native(_, let card):
            let clip = card.clip?.pixelRect ?? rect
            var layers = one(.roundedRect(.card, radius: card.radius ?? 0), clip: clip)
            guard let image = card.image else { return layers }
            // The main image (else the icon) cropped into its rectangle, grey when not loaded, its corners rounded in
            // the card's white.
            let content: PlannedLayer.Content = image.source.map { .picture(.recorded(source: $0, .tick(0)), .crop) }
                ?? .color(.nativePlaceholder)
            layers.append(PlannedLayer(content, in: image.rect.pixelRect, clip: clip, scene: layer.scene))
            layers.append(PlannedLayer(.corners(.card, radius: image.radius ?? 0), in: image.rect.pixelRect, clip: clip, scene: layer.scene))
            return layers
        case .divider:
            return FramePlanner.chrome(.divider, in: rect, scene: layer.scene).map { [$0] } ?? []
        case .edge:
            return FramePlanner.chrome(.edge, in: rect, scene: layer.scene).map { [$0] } ?? []
        case .shadow(_, let shadow):
            return shadow.map { one(.shadow(caster: $0.caster, radius: $0.radius, reach: $0.reach)) } ?? []
        }
    }

    /// What a player's layer shows at output frame `n`: another scene's player its own tick (held while paused) and
    /// ad; the primary player (a layer that does not say) the segment's.
    func shown(by player: Timeline.Layer.Player, atFrame n: Int64) -> FrameDecision.Source {
        guard let playing = player.playing else {
            let tick = paused ? srcStartTick : srcStartTick + (n - outStartFrame)
            if kind == .ad, let b = breakIndex, let a = adIndex { return .ad(AdReference(b, a), tick: tick) }
            return .content(tick: tick)
        }
        let tick = playing.paused ? playing.srcStartTick : playing.srcStartTick + (n - outStartFrame)
        return playing.ad.map { .ad($0, tick: tick) } ?? .content(tick: tick)
    }
}
