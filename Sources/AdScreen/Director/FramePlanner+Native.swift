import AdPlayback
import MediaCore

extension FramePlanner {
    /// What the native placements of `scene` draw at output frame `frame`, bottom first, each cut to its slider's
    /// viewport, and the timeline's `slider`, `card` and `native` layers.
    ///
    /// Drawn over the scene's content and under what the screen puts above it (banners, full-screen ads, the
    /// picture-in-picture window). Text is laid out in the frame the cards' layout gave it; images and videos are
    /// cropped into their frames; an image not loaded (or not fetched) is grey, and so is a video that cannot play.
    func nativeLayers(of scene: SceneID, frame: Int64, outcome: NativeScreenRun.Outcome,
                      catalog: any FrameMediaCatalog) -> (layers: [PlannedLayer], timeline: [Timeline.Layer]) {
        let time = frameRate.time(ofFrame: frame)
        var layers: [PlannedLayer] = [], timeline: [Timeline.Layer] = []
        for layer in outcome.layers(at: time) where layer.scene == scene {
            guard let p = outcome.placements.firstIndex(where: { $0.id == layer.placement }) else { continue }
            let template = outcome.placements[p].template
            let rect = layer.rect
            var own: [PlannedLayer] = []
            func add(_ content: PlannedLayer.Content, in rect: PixelRect, clip: PixelRect? = nil) {
                own.append(PlannedLayer(content, in: rect, clip: clip, scene: scene))
            }
            switch layer.kind {
            case .slider, .placeholder:
                add(.color(layer.kind == .slider ? .slider : .nativePlaceholder), in: rect)
                timeline.append(.slider(.init(scene: scene, rect: rect),
                                        .init(placement: layer.placement, placeholder: layer.kind == .placeholder)))
            case .card(let index, let ad), .native(let index, let ad):
                let radius = pointScale.pixels(template.padding)
                add(.roundedRect(.card, radius: radius), in: rect)
                let card = Timeline.Layer.Card(index: index, adID: ad, placement: layer.placement, clip: .init(layer.clip), radius: radius)
                let area = Timeline.Layer.Area(scene: scene, rect: rect)
                timeline.append(layer.kind == .card(index: index, ad: ad) ? .card(area, card) : .native(area, card))
            case .asset(let slot, let card, let asset, let placeholder):
                guard let block = outcome.block(ofPlacement: p, at: time) else { continue }
                let content = asset.map { (card.map { block.ads[$0].assets } ?? block.assets)[$0].content }
                if case .video(let tag)? = content, let card {
                    let start = outcome.videoStarts.last { $0.placement == layer.placement && $0.card == card && $0.time <= time }
                    let tick = start.map { frame - frameRate.firstFrame(atOrAfter: $0.time) } ?? 0
                    add(.picture(.nativeVideo(placement: layer.placement, card: card, tag: tag, tick: tick), .crop,
                                 placeholder: .nativePlaceholder), in: rect)
                } else {
                    own += nativeAsset(slot, content, placeholder: placeholder, in: rect, template: template, scene: scene,
                                       catalog: catalog)
                }
                // The guide's icon and media have rounded corners: the card's white drawn over the picture's corners.
                let imageRadius = pointScale.pixels(template.imageCornerRadius)
                if slot == .icon || slot == .media { add(.corners(.card, radius: imageRadius), in: rect) }
                // The card's main image (else its icon) in its timeline layer, for verify to find the card by.
                if let card, slot == .media || slot == .icon, case .image(_, let url, _)? = content,
                   let k = timeline.lastIndex(where: { Self.isCard(card, of: layer.placement, $0) }) {
                    let image = Timeline.Layer.CardImage(rect: .init(rect), radius: imageRadius,
                                                         source: placeholder ? nil : catalog.nativeImage(url)?.source)
                    switch timeline[k] {
                    case .card(let area, var fields) where slot == .media || fields.image == nil:
                        fields.image = image
                        timeline[k] = .card(area, fields)
                    case .native(let area, var fields) where slot == .media || fields.image == nil:
                        fields.image = image
                        timeline[k] = .native(area, fields)
                    default:
                        break
                    }
                }
            }
            layers += own.map { $0.clipped(to: layer.clip) }
        }
        return (layers, timeline)
    }

    /// Whether `layer` is the timeline's layer of card `index` (a slider's card or a single native ad) of `placement`.
    static func isCard(_ index: Int, of placement: String, _ layer: Timeline.Layer) -> Bool {
        switch layer {
        case .card(_, let card), .native(_, let card): card.placement == placement && card.index == index
        default: false
        }
    }

    /// One asset's layers in `rect`: an image cropped into it (grey while not loaded), text in the template's size
    /// and line limit, the call to action as a capsule with its text centred, the feedback button as a grey dot.
    private func nativeAsset(_ slot: NativeAssetSlot, _ content: NativeAsset.Content?, placeholder: Bool, in rect: PixelRect,
                             template: NativeCardTemplate, scene: SceneID, catalog: any FrameMediaCatalog) -> [PlannedLayer] {
        let text: String
        switch content {
        case .image(_, let url, _)?:
            guard !placeholder, catalog.nativeImage(url) != nil else { return [PlannedLayer(.color(.nativePlaceholder), in: rect, scene: scene)] }
            return [PlannedLayer(.picture(.nativeImage(url: url), .crop), in: rect, scene: scene)]
        case .title(let value)?, .data(_, let value)?:
            text = value
        case .video?:
            // A block-level video has no card to play in.
            return [PlannedLayer(.color(.nativePlaceholder), in: rect, scene: scene)]
        case nil:
            return [PlannedLayer(.roundedRect(.nativePlaceholder, radius: rect.height / 2), in: rect, scene: scene)]
        }
        let (points, lines): (Int, Int) = switch slot {
        case .title: (template.titleFontSize, template.titleLines)
        case .body: (template.bodyFontSize, template.bodyLines)
        case .warning: (template.warningFontSize, template.warningLines)
        case .callToAction: (template.bodyFontSize, 1)
        default: (template.rowFontSize, 1)
        }
        let callToAction = slot == .callToAction
        let drawn = PlannedText(text: text, paint: callToAction ? .callToActionText : .nativeText, pixelSize: pointScale.pixels(points),
                                lineLimit: lines, centred: callToAction, slot: slot.rawValue)
        guard callToAction else { return [PlannedLayer(.text(drawn), in: rect, scene: scene)] }
        return [PlannedLayer(.roundedRect(.callToAction, radius: rect.height / 2), in: rect, scene: scene),
                PlannedLayer(.text(drawn), in: rect, clip: rect, scene: scene)]
    }
}

extension PlannedLayer {
    /// The layer cut to `clip` as well as to what it was cut to before.
    public func clipped(to clip: PixelRect) -> PlannedLayer {
        var layer = self
        layer.clip = self.clip.map { $0.intersection(clip) } ?? clip
        return layer
    }
}
