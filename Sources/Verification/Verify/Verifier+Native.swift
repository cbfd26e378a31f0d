import AdPlayback
import AdScreen
import MediaCore
import Rendering
import VideoPipeline

/// Native placements in the expected screen: the slider's grey, each card's white rounded body and the card's
/// main image (or icon), drawn through the renderer's draw (`Timeline.Segment.planned`, `Stitcher.compositorLayer`) from what the
/// timeline's layers carry (the card's viewport, corner radius, image rectangle and image source), so that a card drawn elsewhere, a
/// wrong card (another image where this one's should be) or a missing one fails by name.
///
/// Text, the call to action and the feedback button are not predicted: the inside of a card (clear of the strips
/// along its edges) and the slider's header above its row of cards are unknown regions, except the image.
extension Verifier.LayerPainter {
    /// A card with less of it visible in its viewport than this, across or down, is not checked (its edges' strips
    /// and a block need this much) and is reported as skipped.
    static let minimumVisibleCard = 24
    /// How far inside a card or slider its unpredicted content starts: clear of the strips just inside its edges
    /// (`Verifier.edgeGap + edgeStrip`), and within the template's padding (12 pt by default).
    static let nativeInset = Verifier.edgeGap + Verifier.edgeStrip + 2

    /// Paints `layer`, a `slider`, `card` or `native` layer of `layers` (its segment's), drawn as `planned` (the
    /// planner's layers it records), into the expected screen. A layer from a timeline written before verify checked
    /// native placements (no `placement`) stays unknown.
    mutating func paintNative(_ layer: Timeline.Layer, planned: [PlannedLayer], among layers: [Timeline.Layer],
                              into draft: inout Verifier.ScreenDraft) throws(MediaError) {
        let rect = layer.rect.pixelRect
        let card: Timeline.Layer.Card, placement: String
        switch layer {
        case .slider(_, let slider):
            guard let placement = slider.placement else { return draft.unknown(rect) }
            _ = try draw(planned)
            draft.add("\(slider.placeholder ? "loading placeholder of " : "")slider \"\(placement)\" of scene \"\(layer.scene)\"", rect)
            guard !slider.placeholder else { return }
            // The block's own assets (its sponsored label) lie above the row of cards.
            let inset = Self.nativeInset
            let row = layers.filter { if case .card(_, let c) = $0 { c.placement == placement } else { false } }.map(\.rect.y).min() ?? rect.maxY
            draft.unknown(PixelRect(x: rect.x + inset, y: rect.y + inset, width: rect.width - 2 * inset,
                                    height: max(0, row - rect.y - inset)))
            return
        case .card(_, let c), .native(_, let c):
            guard let p = c.placement else { return draft.unknown(rect) }
            card = c
            placement = p
        default:
            return draft.unknown(rect)
        }
        let name = layer.kind == .card
            ? "card \(card.index.map(String.init) ?? "?") (\"\(card.adID ?? "")\") of slider \"\(placement)\""
            : "native ad \(card.index.map(String.init) ?? "?") (\"\(card.adID ?? "")\") of placement \"\(placement)\""
        let clip = card.clip?.pixelRect ?? rect
        let visible = rect.intersection(clip)
        // A sliver is drawn as the stitcher draws it, so that its neighbours' edges are judged against it, but is
        // not itself judged.
        let judged = visible.width >= Self.minimumVisibleCard && visible.height >= Self.minimumVisibleCard
        if !judged { draft.skipped.append("\(name): under \(Self.minimumVisibleCard) px visible") }
        // Its white rounded body, then its image (grey when not loaded) with its corners rounded in the card's white.
        let unreadable = try draw(planned)
        if judged { draft.add(name, visible) }
        let inset = Self.nativeInset
        draft.unknown(PixelRect(x: rect.x + inset, y: rect.y + inset, width: rect.width - 2 * inset,
                                height: rect.height - 2 * inset).intersection(visible))
        guard let image = card.image else { return }
        let shown = image.rect.pixelRect.intersection(visible)
        guard shown.width > 0, shown.height > 0 else { return }
        let imageName = "image of \(name)"
        switch (image.source, unreadable) {
        case (let source?, let unreadable?):
            if judged { draft.cannotRead(imageName, source, unreadable, in: shown) } else { draft.unknown(shown) }
        default:
            if judged { draft.add(imageName, shown) }
        }
    }
}
