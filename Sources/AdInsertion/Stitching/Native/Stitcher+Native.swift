import AdCore
import MediaCore
import VideoPipeline

extension Stitcher {
    /// The slider's background, light grey as in the guide's feed.
    static let sliderColor = YUVColor(red: 0xE8, green: 0xE8, blue: 0xEC)
    /// A block still loading, or an image not loaded yet.
    static let nativePlaceholderColor = YUVColor(red: 0xB0, green: 0xB0, blue: 0xB0)
    static let cardColor = YUVColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    static let nativeTextColor = YUVColor(red: 0x20, green: 0x20, blue: 0x20)
    /// The call-to-action capsule; its text is white.
    static let callToActionColor = YUVColor(red: 0x1A, green: 0x73, blue: 0xE8)
    static let callToActionTextColor = YUVColor(red: 0xFF, green: 0xFF, blue: 0xFF)

    /// What the native placements of `scene` draw at output frame `frame`, bottom first, each cut to its
    /// slider's viewport, and the timeline's `slider`, `card` and `native` layers.
    ///
    /// Drawn over the scene's content and under what the screen puts above it (banners, full-screen ads, the
    /// picture-in-picture window). Text is drawn with the font the cards were measured with, in the frame the
    /// layout gave it; images and videos are cropped into their frames (`nativeVideo`); an image not loaded (or not
    /// fetched) is grey.
    func nativeLayers(of scene: SceneID, frame: Int64) throws(MediaError) -> (layers: [CompositorLayer], timeline: [Timeline.Layer]) {
        guard let outcome = nativeAds.live?.outcome ?? request.device.nativeAds?.outcome else { return ([], []) }
        let time = format.frameRate.time(ofFrame: frame)
        let scale = request.device.screen?.pointScale ?? PointScale(.one)
        var layers: [CompositorLayer] = [], timeline: [Timeline.Layer] = []
        for layer in outcome.layers(at: time) where layer.scene == scene {
            guard let p = outcome.placements.firstIndex(where: { $0.id == layer.placement }) else { continue }
            let template = outcome.placements[p].template
            let rect = layer.rect
            var own: [CompositorLayer] = []
            switch layer.kind {
            case .slider, .placeholder:
                own.append(.color(layer.kind == .slider ? Stitcher.sliderColor : Stitcher.nativePlaceholderColor, in: rect))
                timeline.append(.slider(.init(scene: scene, rect: rect),
                                        .init(placement: layer.placement, placeholder: layer.kind == .placeholder)))
            case .card(let index, let ad), .native(let index, let ad):
                let radius = scale.pixels(template.padding)
                own.append(.roundedRect(Stitcher.cardColor, radius: radius, in: rect))
                let card = Timeline.Layer.Card(index: index, adID: ad, placement: layer.placement, clip: .init(layer.clip), radius: radius)
                let area = Timeline.Layer.Area(scene: scene, rect: rect)
                timeline.append(layer.kind == .card(index: index, ad: ad) ? .card(area, card) : .native(area, card))
            case .asset(let slot, let card, let asset, let placeholder):
                guard let block = outcome.block(ofPlacement: p, at: time) else { continue }
                let content = asset.map { (card.map { block.ads[$0].assets } ?? block.assets)[$0].content }
                if case .video(let tag)? = content, let card {
                    own = nativeVideo(tag, placement: layer.placement, card: card, frame: frame, in: rect)
                } else {
                    own = try nativeAsset(slot, content, placeholder: placeholder, in: rect, template: template, scale: scale)
                }
                // The guide's icon and media have rounded corners: the card's white drawn over the picture's corners.
                let imageRadius = scale.pixels(template.imageCornerRadius)
                if slot == .icon || slot == .media { own.append(Stitcher.roundedCorners(of: rect, radius: imageRadius)) }
                // The card's main image (else its icon) in its timeline layer, for verify to find the card by.
                if let card, slot == .media || slot == .icon, case .image(_, let url, _)? = content,
                   let k = timeline.lastIndex(where: { $0.card.map { $0.placement == layer.placement && $0.index == card } ?? false }),
                   slot == .media || timeline[k].card?.image == nil {
                    let source = placeholder || nativeAds.pictures?.image(url) == nil ? nil : nativeAds.pictures?.ads?.imageSources[url]
                    timeline[k].changeCard { $0.image = .init(rect: .init(rect), radius: imageRadius, source: source) }
                }
            }
            layers += own.map { $0.clipped(to: layer.clip) }
        }
        return (layers, timeline)
    }

    /// The corners outside a rectangle of `rect` rounded to `radius`, in the card's colour: drawn over a picture,
    /// they round its corners on the card.
    static func roundedCorners(of rect: PixelRect, radius: Int) -> CompositorLayer {
        CompositorLayer(.mask(CoverageMask.roundedRect(rect.size, radius: radius).inverted(), Stitcher.cardColor), in: rect)
    }

    /// One asset's layers in `rect`: an image cropped into it (grey while not loaded), text in the template's size
    /// and line limit, the call to action as a capsule with its text centred, the feedback button as a grey dot.
    private func nativeAsset(_ slot: NativeAssetSlot, _ content: NativeAsset.Content?, placeholder: Bool, in rect: PixelRect,
                             template: NativeCardTemplate, scale: PointScale) throws(MediaError) -> [CompositorLayer] {
        let text: String
        switch content {
        case .image(_, let url, _)?:
            guard !placeholder, let source = nativeAds.pictures?.image(url) else { return [.color(Stitcher.nativePlaceholderColor, in: rect)] }
            return [.picture(try source.picture(atTick: 0), .crop, in: rect)]
        case .title(let value)?, .data(_, let value)?:
            text = value
        case .video?:
            // A block-level video has no card to play in (`nativeVideo`).
            return [.color(Stitcher.nativePlaceholderColor, in: rect)]
        case nil:
            return [.roundedRect(Stitcher.nativePlaceholderColor, radius: rect.height / 2, in: rect)]
        }
        let (points, lines): (Int, Int) = switch slot {
        case .title: (template.titleFontSize, template.titleLines)
        case .body: (template.bodyFontSize, template.bodyLines)
        case .warning: (template.warningFontSize, template.warningLines)
        case .callToAction: (template.bodyFontSize, 1)
        default: (template.rowFontSize, 1)
        }
        let drawn: RenderedText
        do { drawn = try nativeAds.pictures!.text(text, pixelSize: scale.pixels(points), width: rect.width, lineLimit: lines) } catch {
            throw .invalidSetting(name: "native \(slot.rawValue) text", value: text, reason: "\(error)")
        }
        guard slot == .callToAction else { return [.text(drawn, Stitcher.nativeTextColor, in: rect)] }
        let size = drawn.mask.size
        let centred = PixelRect(x: rect.x + (rect.width - size.width) / 2, y: rect.y + (rect.height - size.height) / 2,
                                width: size.width, height: size.height)
        return [.roundedRect(Stitcher.callToActionColor, radius: rect.height / 2, in: rect),
                CompositorLayer(.mask(drawn.mask, Stitcher.callToActionTextColor), in: centred, clip: rect)]
    }
}
