import AdPlayback
import AdScreen
import MediaCore

/// The rules every device render's screen obeys, checked on each segment of its timeline: the display lies inside
/// the canvas, every scene (and its safe area) inside the display, every layer inside its scene's window, every
/// native card inside its slider's viewport after the clip and never cut across its height, a slider inside its
/// scene, the picture-in-picture window inside the display's safe area, an anchored adaptive banner's bottom
/// on its scene's safe-area bottom, and nothing of the content (player, slider, cards) under a banner laid out
/// below the content.
///
/// The safe areas come from the device model (`Device`'s profiles, found by the display's size at the timeline's
/// point scale) where the display is a profile's, not from the scenes' safe areas the render recorded: a render
/// that computed a safe area wrongly and laid its banner out by it is caught. A display no profile has (a custom
/// `WxH` device) has no insets.
///
/// The pixels are checked against the same rectangles by `Verifier.checkLayers`, so a layer these rules accept is
/// also where the picture shows it.
enum LayoutInvariants {
    /// One broken rule: the layer (in words), the first output frame of its segment, and the two rectangles.
    struct Violation: Hashable, CustomStringConvertible {
        var frame: Int64
        var layer: String
        var rect: PixelRect
        var rule: String
        var bound: PixelRect

        /// The violation as a finding's facts.
        var detail: VerifyFinding.Detail {
            .layoutRule(frame: frame, layer: layer, rect: Timeline.Rect(rect), rule: rule, bound: Timeline.Rect(bound))
        }

        /// The finding's sentence.
        var description: String { detail.text }
    }

    /// Every rule broken by `timeline`, one violation per layer and rule at the first segment that breaks it
    /// (later segments breaking it the same way are not repeated), at most `limit`.
    static func violations(in timeline: Timeline, limit: Int = 50) -> [Violation] {
        let canvas = PixelRect(x: 0, y: 0, width: timeline.output.width, height: timeline.output.height)
        let scale = timeline.output.pointScale.flatMap(PointScale.init(parsing:))
        var found: [Violation] = [], seen: Set<String> = []
        for segment in timeline.segments {
            for v in violations(in: segment, canvas: canvas, scale: scale) where seen.insert("\(v.layer) \(v.rule) \(v.rect)").inserted {
                found.append(v)
                if found.count >= limit { return found }
            }
        }
        return found
    }

    /// The rules broken by one segment's display, scenes and layers.
    static func violations(in segment: Timeline.Segment, canvas: PixelRect, scale: PointScale?) -> [Violation] {
        guard let display = segment.screen.display?.pixelRect else { return [] }
        let frame = segment.outStartFrame
        var found: [Violation] = []
        func require(_ inside: Bool, _ layer: String, _ rect: PixelRect, _ rule: String, _ bound: PixelRect) {
            if !inside { found.append(Violation(frame: frame, layer: layer, rect: rect, rule: rule, bound: bound)) }
        }
        require(canvas.contains(display), "the display", display, "inside the canvas", canvas)
        let safeDisplay = safeArea(ofDisplay: display, scale: scale)
        let scenes = segment.screen.scenes ?? []
        for scene in scenes {
            let rect = scene.rect.pixelRect
            require(display.contains(rect), "scene \"\(scene.id)\"", rect, "inside the display", display)
            require(rect.contains(scene.safeArea.pixelRect), "the safe area of scene \"\(scene.id)\"", scene.safeArea.pixelRect,
                    "inside its window", rect)
        }
        let layers = segment.screen.layers ?? []
        // Each scene's banner laid out below its content: the content ends where it begins.
        var belowBanners: [SceneID: PixelRect] = [:]
        for scene in scenes where scene.banner == .below {
            belowBanners[scene.id] = layers.first { $0.scene == scene.id && $0.kind == .banner }?.rect.pixelRect
        }
        for layer in layers {
            let rect = layer.rect.pixelRect
            let name = describe(layer)
            if layer.kind == .pip {
                require(safeDisplay.contains(rect), name, rect, "inside the display's safe area", safeDisplay)
                continue
            }
            if layer.kind == .divider, layer.scene == .screen {
                // The Split View divider, a screen-level layer: in the display, between two scenes' windows (touching
                // both), inside neither.
                require(display.contains(rect), name, rect, "inside the display", display)
                let windows = scenes.map(\.rect.pixelRect)
                let touched = windows.filter { rect.x <= $0.maxX && $0.x <= rect.maxX && rect.y <= $0.maxY && $0.y <= rect.maxY }
                require(touched.count >= 2, name, rect, "between two scenes' windows", windows.first ?? display)
                for window in windows {
                    let shared = rect.intersection(window)
                    require(shared.width == 0 || shared.height == 0, name, rect, "outside every scene's window", window)
                }
                continue
            }
            guard let scene = scenes.first(where: { $0.id == layer.scene }) else { continue }
            let window = scene.rect.pixelRect
            // A banner laid out below the content ends the content where it begins (the guide's `VStack`): the
            // player and what scrolls with the content (sliders, cards) are drawn above it, and cut at its top.
            let banner = belowBanners[scene.id]
            let contentBottom = banner.map { min($0.y, window.maxY) } ?? window.maxY
            if let banner, [.content, .ad, .slider, .card, .native].contains(layer.kind) {
                let drawn = rect.intersection(viewport(of: layer) ?? rect)
                require(drawn.width == 0 || drawn.height == 0 || drawn.maxY <= contentBottom, name, drawn,
                        "above its scene's banner, which is laid out below the content,", banner)
            }
            switch layer {
            case .card(_, let card), .native(_, let card):
                // A card scrolled half out keeps its whole rectangle; what is drawn is its part inside the clip.
                let clip = card.clip?.pixelRect ?? rect
                let drawn = rect.intersection(clip)
                require(window.contains(clip), "the viewport of \(name)", clip, "inside its scene's window", window)
                if let placement = card.placement, let slider = layers.first(where: {
                    if case .slider(_, let s) = $0 { s.placement == placement } else { false }
                }) {
                    require(slider.rect.pixelRect.contains(clip), "the viewport of \(name)", clip, "inside its slider",
                            slider.rect.pixelRect)
                }
                // Scrolling cuts a card across; only the bottom of its scene's content may cut it down (a slider past
                // the window's bottom, or past the top of a banner laid out below the content).
                require(rect.height == 0 || (rect.y >= clip.y && (rect.maxY <= clip.maxY || clip.maxY == contentBottom)), name, rect,
                        "whole across its height in its viewport", clip)
                require(window.contains(drawn) || drawn.width == 0 || drawn.height == 0, name, drawn, "inside its scene's window", window)
            case .banner:
                require(window.contains(rect), name, rect, "inside its scene's window", window)
                // An anchored adaptive banner sits on the bottom edge of its scene's safe area.
                let safe = window.intersection(safeDisplay)
                require(rect.maxY == safe.maxY, name, rect, "on the bottom of its scene's safe area", safe)
            case .divider, .edge:
                // The system's chrome lies beside its scene's window (a Split View divider in the gap before it, a
                // Slide Over rim along its leading side), so it must lie in the display and touch its window.
                require(display.contains(rect), name, rect, "inside the display", display)
                let touching = rect.x <= window.maxX && window.x <= rect.maxX && rect.y <= window.maxY && window.y <= rect.maxY
                require(touching, name, rect, "beside its scene's window", window)
            case .shadow:
                // A Slide Over window's shadow darkens the display around its window: it lies in the display, its
                // caster holds the window, and it reaches no further than its reach beyond the caster.
                require(display.contains(rect), name, rect, "inside the display", display)
                if case .shadow(_, let shadow?) = layer {
                    require(shadow.caster.contains(window), "the caster of \(name)", shadow.caster, "around its scene's window", window)
                    require(shadow.extent.contains(rect), name, rect, "within \(shadow.reach) px of its caster",
                            shadow.extent)
                }
            default:
                require(window.contains(rect), name, rect, "inside its scene's window", window)
            }
        }
        return found
    }

    /// The display's safe area in output pixels: the device model's insets for a profile display of this size
    /// at `scale` (in the orientation the size says), each edge rounded as `PointScale` rounds; the whole display
    /// when no profile has it.
    static func safeArea(ofDisplay display: PixelRect, scale: PointScale?) -> PixelRect {
        guard let scale else { return display }
        let devices = Device.profileNames.compactMap { try? Device(parsing: $0) }
        for device in devices {
            for d in device.displays {
                for orientation in Orientation.allCases {
                    let size = d.size(in: orientation)
                    guard scale.pixels(size) == display.size else { continue }
                    let insets = d.safeArea(in: orientation)
                    let safe = PointRect(x: insets.left, y: insets.top, width: size.width - insets.left - insets.right,
                                         height: size.height - insets.top - insets.bottom)
                    return scale.pixels(safe, origin: (display.x, display.y))
                }
            }
        }
        return display
    }

    /// The viewport a card or single native ad is cut to; `nil` for every other layer, and when it does not say.
    static func viewport(of layer: Timeline.Layer) -> PixelRect? {
        switch layer {
        case .card(_, let card), .native(_, let card): card.clip?.pixelRect
        default: nil
        }
    }

    /// A layer as a report names it.
    static func describe(_ layer: Timeline.Layer) -> String {
        switch layer {
        case .slider(_, let slider): "slider \"\(slider.placement ?? "?")\" of scene \"\(layer.scene)\""
        case .card(_, let card), .native(_, let card):
            "\(layer.kind == .card ? "card" : "native ad") \(card.index.map(String.init) ?? "?") (\"\(card.adID ?? "")\") of "
                + "\(layer.kind == .card ? "slider" : "placement") \"\(card.placement ?? "?")\""
        case .divider where layer.scene == .screen: "Split View divider"
        default: "\(layer.kind.rawValue) of scene \"\(layer.scene)\""
        }
    }
}
