import AdPlayback
import AdScreen
import MediaCore
import Rendering
import VideoPipeline

/// Native placements in the expected screen: the slider's grey, each card's white rounded body and the card's
/// main image (or icon), drawn by the stitcher's rules (`Stitcher.nativeLayers`) from what the timeline's layers
/// carry (the card's viewport, corner radius, image rectangle and image source), so that a card drawn elsewhere, a
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

    /// Paints `layer`, a `slider`, `card` or `native` layer of `layers` (its segment's), into the expected screen.
    /// A layer from a timeline written before verify checked native placements (no `placement`) stays unknown.
    mutating func paintNative(_ layer: Timeline.Layer, among layers: [Timeline.Layer],
                              into draft: inout Verifier.ScreenDraft) throws(MediaError) {
        let rect = layer.rect.pixelRect
        guard let placement = layer.placement else { return draft.unknown(rect) }
        let card: Timeline.Layer.Card
        switch layer {
        case .slider(_, let slider):
            let loading = slider.placeholder
            try compositor.fill(rect, with: loading ? Stitcher.nativePlaceholderColor : Stitcher.sliderColor)
            draft.add("\(loading ? "loading placeholder of " : "")slider \"\(placement)\" of scene \"\(layer.scene)\"", rect)
            guard !loading else { return }
            // The block's own assets (its sponsored label) lie above the row of cards.
            let inset = Self.nativeInset
            let row = layers.filter { $0.kind == .card && $0.placement == placement }.map(\.rect.y).min() ?? rect.maxY
            draft.unknown(PixelRect(x: rect.x + inset, y: rect.y + inset, width: rect.width - 2 * inset,
                                    height: max(0, row - rect.y - inset)))
            return
        case .card(_, let c), .native(_, let c):
            card = c
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
        try compositor.draw([CompositorLayer.roundedRect(Stitcher.cardColor, radius: card.radius ?? 0, in: rect).clipped(to: clip)])
        if judged { draft.add(name, visible) }
        let inset = Self.nativeInset
        draft.unknown(PixelRect(x: rect.x + inset, y: rect.y + inset, width: rect.width - 2 * inset,
                                height: rect.height - 2 * inset).intersection(visible))
        guard let image = card.image?.rect.pixelRect else { return }
        let shown = image.intersection(visible)
        guard shown.width > 0, shown.height > 0 else { return }
        let imageName = "image of \(name)"
        // Its corners rounded as the stitcher rounds them (`Stitcher.roundedCorners`), in the card's white.
        let corners = Stitcher.roundedCorners(of: image, radius: card.image?.radius ?? 0).clipped(to: clip)
        guard let source = card.image?.source else {
            // Not loaded yet, or not fetched: the grey placeholder.
            try compositor.draw([CompositorLayer.color(Stitcher.nativePlaceholderColor, in: shown), corners])
            return judged ? draft.add(imageName, shown) : ()
        }
        switch try creative(source, at: .playing(0)) {
        case .success(let picture):
            try compositor.draw([CompositorLayer.picture(picture, .crop, in: image).clipped(to: clip), corners])
            if judged { draft.add(imageName, shown) }
        case .failure(let unreadable):
            if judged { draft.cannotRead(imageName, source, unreadable, in: shown) } else { draft.unknown(shown) }
        }
    }
}
