import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

/// What a render opened of its screen ads and native placements, as the planner asks it (`FrameMediaCatalog`): a
/// creative counts only if it opened.
struct OpenedCreatives: FrameMediaCatalog {
    let screenAds: ScreenAdPictures?
    let native: NativePictures?

    func bannerSource(of scene: SceneID, at time: MediaTime) -> String? {
        screenAds?.banner(of: scene, at: time)?.url
    }

    func fullScreenCreative(request: Int) -> LoadedFullScreen? {
        guard let screenAds else { return nil }
        if let video = screenAds.videoSources[request] { return .video(source: video.path) }
        return screenAds.fullScreenImage(request: request).map { .image(source: $0.url) }
    }

    func nativeImage(_ url: String) -> LoadedImage? {
        guard let native, native.image(url) != nil else { return nil }
        return LoadedImage(source: native.ads?.imageSources[url])
    }
}

// The renderer's side of a `FramePlan`: the plan of a frame, and its layers resolved into the compositor's.
extension Stitcher {
    /// What the screen ads and native placements opened, as the planner asks it.
    var creatives: OpenedCreatives { OpenedCreatives(screenAds: screenAds.pictures, native: nativeAds.pictures) }

    /// The plan of `decision`'s frame, whose primary player shows `source`.
    func plan(_ decision: FrameDecision, source: MediaSource) -> FramePlan {
        var sources: [SceneID: String] = [:]
        for player in players.all { sources[player.scene] = player.shown?.source.path }
        return director.plan(decision, source: source.path, sources: sources,
                             native: nativeAds.live?.outcome ?? request.device.nativeAds?.outcome, catalog: creatives)
    }

    /// `plan`'s layers as the compositor draws them, `primary` being the primary player's picture. A full-screen
    /// video that fails part-way is left out and kept in `mediaReports`, for the frame to report.
    func resolve(_ plan: FramePlan, primary: VideoPicture) throws(MediaError) -> [CompositorLayer] {
        var layers: [CompositorLayer] = []
        layers.reserveCapacity(plan.layers.count)
        for planned in plan.layers {
            if let painted = Stitcher.painted(planned) {
                layers.append(painted)
                continue
            }
            let content: CompositorLayer.Content
            var rect = planned.rect
            switch planned.content {
            case .color, .roundedRect, .corners, .shadow:
                continue
            case .text(let text):
                let drawn: RenderedText
                do { drawn = try nativeAds.pictures!.text(text.text, pixelSize: text.pixelSize, width: rect.width, lineLimit: text.lineLimit) } catch {
                    throw .invalidSetting(name: "native \(text.slot) text", value: text.text, reason: "\(error)")
                }
                content = .mask(drawn.mask, Stitcher.color(text.paint))
                if text.centred {
                    let size = drawn.mask.size
                    rect = PixelRect(x: rect.x + (rect.width - size.width) / 2, y: rect.y + (rect.height - size.height) / 2,
                                     width: size.width, height: size.height)
                }
            case .picture(let reference, let fit, let placeholder):
                switch try picture(reference, frame: plan.frame, scene: planned.scene, primary: primary) {
                case let picture?: content = .picture(picture, Stitcher.fit(fit))
                case nil:
                    guard let placeholder else { continue }
                    content = .color(Stitcher.color(placeholder))
                }
            }
            layers.append(CompositorLayer(content, in: rect, clip: planned.clip))
        }
        return layers
    }

    /// A layer drawn without media as the compositor draws it: a colour, a rounded rectangle, rounded corners, a
    /// shadow; `nil` for a picture or text. The painter of `verify` draws the same layers with it.
    static func painted(_ planned: PlannedLayer) -> CompositorLayer? {
        let rect = planned.rect
        var layer: CompositorLayer
        switch planned.content {
        case .color(let paint): layer = .color(color(paint), in: rect)
        case .roundedRect(let paint, let radius): layer = .roundedRect(color(paint), radius: radius, in: rect)
        case .corners(let paint, let radius): layer = roundedCorners(of: rect, radius: radius, color: color(paint))
        case .shadow(let caster, let radius, let reach): return shadowLayer(caster: caster, radius: radius, reach: reach, drawn: rect)
        case .picture, .text: return nil
        }
        layer.clip = planned.clip
        return layer
    }

    /// The picture `reference` names; `nil` for a card's video that cannot play (its placeholder is drawn) and for a
    /// full-screen video that failed part-way (reported in `mediaReports`).
    private func picture(_ reference: MediaReference, frame: Int64, scene: SceneID?,
                         primary: VideoPicture) throws(MediaError) -> VideoPicture? {
        let time = format.frameRate.time(ofFrame: frame)
        switch reference {
        case .player(let scene, _):
            // The primary player's scene is not among the other players'.
            guard let scene, let other = players.all.first(where: { $0.scene == scene }) else { return primary }
            return other.shown?.picture
        case .pictureInPictureBackground(let frame):
            guard let background else { return nil }
            return try background.picture(atTick: frame % background.frameCount)
        case .banner(let scene, let frame):
            guard let loaded = screenAds.pictures?.banner(of: scene, at: format.frameRate.time(ofFrame: frame)) else { return nil }
            return try loaded.source.picture(atTick: frame % loaded.source.frameCount)
        case .fullScreenImage(let request, let frame):
            guard let image = screenAds.pictures?.fullScreenImage(request: request) else { return nil }
            return try image.source.picture(atTick: frame % image.source.frameCount)
        case .fullScreenVideo(let request, let tick):
            guard let video = screenAds.pictures?.videoSources[request] else { return nil }
            do throws(MediaError) { return try video.picture(atTick: tick) } catch {
                let text = "\(error)", prefix = video.path + ": "
                let detail = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
                if let scene {
                    mediaReports.append(.fullScreenVideoFailed(scene: scene, at: time, error: .mediaUnavailable(source: video.path, detail: detail)))
                }
                return nil
            }
        case .nativeImage(let url):
            return try nativeAds.pictures?.image(url)?.picture(atTick: 0)
        case .nativeVideo(let placement, let card, let tag, let tick):
            guard case .success(let source)? = nativeAds.pictures?.video(of: NativeVideoKey(placement: placement, card: card, tag: tag)) else {
                return nil
            }
            return try? source.picture(atTick: tick)
        }
    }

    static func fit(_ fit: PlannedLayer.Fit) -> CompositorLayer.Fit {
        switch fit {
        case .letterbox: .letterbox
        case .fill: .fill
        case .crop: .crop
        }
    }

    /// The colour a plan's paint names; the painter of `verify` draws with the same values.
    static func color(_ paint: Paint) -> YUVColor {
        switch paint {
        case .bezel: .bezel
        case .black: .black
        case .slate: .slate
        case .fullScreenPlaceholder: fullScreenColor
        case .overlay: overlayColor
        case .divider: dividerColor
        case .slideOverEdge: slideOverEdgeColor
        case .slider: sliderColor
        case .nativePlaceholder: nativePlaceholderColor
        case .card: cardColor
        case .nativeText: nativeTextColor
        case .callToAction: callToActionColor
        case .callToActionText: callToActionTextColor
        }
    }
}
