import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

// The renderer's side of a `FramePlan`: the plan of a frame, and its layers resolved into the compositor's.
extension Stitcher {
    /// The plan of `decision`'s frame, whose primary player shows `source`.
    func plan(_ decision: FrameDecision, source: MediaSource) -> FramePlan {
        var sources: [SceneID: String] = [:]
        for player in players.all { sources[player.scene] = player.shown?.source.path }
        return director.plan(decision, source: source.path, sources: sources,
                             native: liveNative?.outcome ?? request.device.nativeAds?.outcome, catalog: library)
    }

    /// `plan`'s layers as the compositor draws them (`compositorLayers`), `primary` being the primary player's
    /// picture. A full-screen video that fails part-way is left out and kept in `mediaReports`, for the frame to report.
    func resolve(_ plan: FramePlan, primary: VideoPicture) throws(MediaError) -> [CompositorLayer] {
        var media = RenderMedia(stitcher: self, primary: primary, frame: plan.frame)
        return try Stitcher.compositorLayers(plan.layers, media: &media)
    }

    /// A layer drawn without media as the compositor draws it: a colour, a rounded rectangle, rounded corners, a
    /// shadow; `nil` for a picture or text.
    package static func painted(_ planned: PlannedLayer) -> CompositorLayer? {
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
