import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

// The renderer's side of a `FramePlan`: the plan of a frame, and its layers resolved into the compositor's.
extension Stitcher {
    /// The plan of `decision`'s frame, whose primary player shows `source`.
    func plan(_ decision: FrameDecision, source: MediaSource) -> FramePlan {
        director.plan(decision, source: source.path)
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

    /// A placeholder for a presented full-screen ad without loaded creatives (`--device` alone): a plain colour, so
    /// that the layer's rectangle can still be checked from the pixels.
    package static let fullScreenColor = YUVColor(red: 0xCC, green: 0x33, blue: 0x66)
    /// A placeholder for a banner's landing screen, likewise.
    package static let overlayColor = YUVColor(red: 0xF0, green: 0xF0, blue: 0xF0)
    /// The Split View divider: a dark grey bar, told apart from black (16), the slate (43) and the bezel (71) by
    /// its luma, 57.
    static let dividerColor = YUVColor(red: 0x30, green: 0x30, blue: 0x32)
    /// A Slide Over window's rim: iOS's system grey (#8E8E93), luma 138, in a bar with rounded ends.
    static let slideOverEdgeColor = YUVColor(red: 0x8E, green: 0x8E, blue: 0x93)

    /// How strong a Slide Over window's shadow is beside it, 0...255: black at 30 %, fading over its reach, as
    /// subtle as iPadOS's.
    static let slideOverShadowOpacity: UInt8 = 77

    /// A Slide Over window's soft shadow, cast by `caster` (corners rounded to `radius`, reaching `reach` pixels) and
    /// drawn only in `drawn` (its part on the display); the painter of `verify` draws it with the same layer.
    package static func shadowLayer(caster: PixelRect, radius: Int, reach: Int, drawn: PixelRect) -> CompositorLayer {
        CompositorLayer.shadow(of: caster, radius: radius, reach: reach, .black, opacity: slideOverShadowOpacity).clipped(to: drawn)
    }
}
