import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

/// What a planned layer's picture is, as whoever draws the layer found it.
package enum PlannedPicture {
    case picture(VideoPicture)
    /// Nothing to draw: its placeholder is drawn, if it has one.
    case missing
    /// There, but its pixels are not known here (verify's player pictures, proven by their stamps): drawn as what
    /// its fit puts around it (a letterboxed picture's black), so that only the picture itself is left out.
    case unknown
}

/// The media a planned layer is drawn from: the renderer's `MediaLibrary` and players, or verify's files as a
/// timeline names them.
package protocol PlannedMedia {
    /// The picture `reference` names for `layer`.
    mutating func picture(_ reference: MediaReference, for layer: PlannedLayer) throws(MediaError) -> PlannedPicture
    /// `text` laid out `width` pixels wide, as the cards' font draws it.
    mutating func text(_ text: PlannedText, width: Int) throws(MediaError) -> RenderedText
}

extension Stitcher {
    /// The one way a planned layer is drawn, by the renderer and by verify: the compositor's layer for `planned`, its
    /// picture or text resolved through `media`; `nil` when nothing is drawn (a picture not found and without a
    /// placeholder).
    package static func compositorLayer(_ planned: PlannedLayer, media: inout some PlannedMedia) throws(MediaError) -> CompositorLayer? {
        if let painted = painted(planned) { return painted }
        let content: CompositorLayer.Content
        var rect = planned.rect
        switch planned.content {
        case .color, .roundedRect, .corners, .shadow:
            return nil
        case .text(let text):
            let drawn = try media.text(text, width: rect.width)
            content = .mask(drawn.mask, color(text.paint))
            if text.centred {
                let size = drawn.mask.size
                rect = PixelRect(x: rect.x + (rect.width - size.width) / 2, y: rect.y + (rect.height - size.height) / 2,
                                 width: size.width, height: size.height)
            }
        case .picture(let reference, let fit, let placeholder):
            switch try media.picture(reference, for: planned) {
            case .picture(let picture): content = .picture(picture, Stitcher.fit(fit))
            case .missing:
                guard let placeholder else { return nil }
                content = .color(color(placeholder))
            case .unknown:
                guard fit == .letterbox else { return nil }
                content = .color(.black)
            }
        }
        return CompositorLayer(content, in: rect, clip: planned.clip)
    }

    /// `planned` drawn in order through `media`, bottom first.
    package static func compositorLayers(_ planned: [PlannedLayer], media: inout some PlannedMedia) throws(MediaError) -> [CompositorLayer] {
        var layers: [CompositorLayer] = []
        layers.reserveCapacity(planned.count)
        for layer in planned {
            if let drawn = try compositorLayer(layer, media: &media) { layers.append(drawn) }
        }
        return layers
    }

    /// The renderer's media for one frame's plan: the players' pictures (`primary` the primary player's) and the
    /// `MediaLibrary`; a full-screen video that fails part-way is kept in `mediaReports`, for the frame to report.
    struct RenderMedia: PlannedMedia {
        let stitcher: Stitcher
        let primary: VideoPicture
        let frame: Int64

        func picture(_ reference: MediaReference, for layer: PlannedLayer) throws(MediaError) -> PlannedPicture {
            if case .player(let scene, _) = reference {
                // The primary player's scene is not among the other players'.
                if let scene, let other = stitcher.library.players.first(where: { $0.scene == scene }) {
                    return other.shown.map { .picture($0.picture) } ?? .missing
                }
                return .picture(primary)
            }
            switch try stitcher.library.picture(reference, frame: frame, scene: layer.scene) {
            case .picture(let picture): return .picture(picture)
            case .missing: return .missing
            case .failed(let report):
                stitcher.mediaReports.append(report)
                return .missing
            }
        }

        func text(_ text: PlannedText, width: Int) throws(MediaError) -> RenderedText {
            do { return try stitcher.library.native!.text(text.text, pixelSize: text.pixelSize, width: width, lineLimit: text.lineLimit) } catch {
                throw .invalidSetting(name: "native \(text.slot) text", value: text.text, reason: "\(error)")
            }
        }
    }
}
