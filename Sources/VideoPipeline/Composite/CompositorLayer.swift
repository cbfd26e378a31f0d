import MediaCore

/// One thing the compositor draws: a picture, a colour, a rounded rectangle, a rounded rectangle's soft shadow or a
/// coverage mask (text) in a rectangle of the canvas.
///
/// Generic on purpose: the compositor knows nothing of ads, scenes or players. Whoever decides the screen (the
/// stitcher, from the session and the screen model) turns its layers into these, bottom first.
public struct CompositorLayer {
    /// How a picture fills its rectangle.
    public enum Fit: Hashable, Sendable {
        /// Kept at its display aspect and centred, the rest of the rectangle black (letterbox or pillarbox).
        case letterbox
        /// Stretched to cover the rectangle exactly (a background, a creative served at the slot's size).
        case fill
        /// Kept at its display aspect and scaled to cover the rectangle, centred, the overhang cut off (an icon or a
        /// card's main image in a frame of another shape).
        case crop
    }

    /// What the layer shows.
    public enum Content {
        case picture(VideoPicture, Fit)
        case color(YUVColor)
        /// A colour with its corners rounded to `radius` pixels, anti-aliased (a button, a capsule).
        case roundedRect(YUVColor, radius: Int)
        /// A colour blended through a coverage mask (rendered text), the mask's top-left at the rectangle's.
        case mask(CoverageMask, YUVColor)
        /// The soft shadow of the rectangle inset by `reach` with corners rounded to `radius`: the colour at
        /// `opacity` (0...255) beside that shape, fading to nothing `reach` pixels from it, nothing inside it
        /// (`CoverageMask.shadow`). The layer's rectangle is all it may touch.
        case shadow(YUVColor, radius: Int, reach: Int, opacity: UInt8)
    }

    public var content: Content
    public var rect: PixelRect
    /// The only part of the canvas the layer may touch (a scrolled row's viewport); the whole canvas when `nil`.
    /// The layer is laid out in `rect` as if unclipped, then cut: a picture half out of its clip shows its half.
    public var clip: PixelRect?

    public init(_ content: Content, in rect: PixelRect, clip: PixelRect? = nil) {
        self.content = content
        self.rect = rect
        self.clip = clip
    }

    /// The layer cut to `clip` as well as to what it was cut to before.
    public func clipped(to clip: PixelRect) -> CompositorLayer {
        var layer = self
        layer.clip = self.clip.map { $0.intersection(clip) } ?? clip
        return layer
    }

    public static func picture(_ picture: VideoPicture, _ fit: Fit, in rect: PixelRect) -> CompositorLayer {
        CompositorLayer(.picture(picture, fit), in: rect)
    }

    public static func color(_ color: YUVColor, in rect: PixelRect) -> CompositorLayer {
        CompositorLayer(.color(color), in: rect)
    }

    public static func roundedRect(_ color: YUVColor, radius: Int, in rect: PixelRect) -> CompositorLayer {
        CompositorLayer(.roundedRect(color, radius: radius), in: rect)
    }

    /// The soft shadow `shape` (corners rounded to `radius`) casts `reach` pixels around itself, in `color` at
    /// `opacity` beside it; its rectangle is `shape` widened by `reach` on every side.
    public static func shadow(of shape: PixelRect, radius: Int, reach: Int, _ color: YUVColor, opacity: UInt8) -> CompositorLayer {
        let reach = max(0, reach)
        return CompositorLayer(.shadow(color, radius: radius, reach: reach, opacity: opacity),
                               in: PixelRect(x: shape.x - reach, y: shape.y - reach, width: shape.width + 2 * reach,
                                             height: shape.height + 2 * reach))
    }

    /// Rendered text in `color`, its mask's top-left at `rect`'s and cut to `rect`.
    public static func text(_ text: RenderedText, _ color: YUVColor, in rect: PixelRect) -> CompositorLayer {
        CompositorLayer(.mask(text.mask, color), in: rect)
    }
}

extension Compositor {
    /// Draws `layers` bottom first, each over what is below it.
    ///
    /// - Returns: for each layer, where its content landed: the picture itself for a letterboxed picture, the part
    ///   of the canvas a mask could touch, the rectangle otherwise.
    @discardableResult
    public func draw(_ layers: [CompositorLayer]) throws(MediaError) -> [PixelRect] {
        var landed: [PixelRect] = []
        landed.reserveCapacity(layers.count)
        for layer in layers {
            if let clip = layer.clip, !clip.contains(layer.rect) {
                landed.append(try drawClipped(layer, to: clip))
                continue
            }
            switch layer.content {
            case .color(let color):
                try fill(layer.rect, with: color)
                landed.append(layer.rect)
            case .picture(let picture, .letterbox):
                landed.append(try draw(picture, in: layer.rect))
            case .picture(let picture, .fill):
                try drawFilling(picture, in: layer.rect)
                landed.append(layer.rect)
            case .picture(let picture, .crop):
                try drawCropping(picture, in: layer.rect)
                landed.append(layer.rect)
            case .roundedRect(let color, let radius):
                try blend(.roundedRect(layer.rect.size, radius: radius), color: color, in: layer.rect)
                landed.append(layer.rect)
            case .mask(let mask, let color):
                landed.append(try blend(mask, color: color, in: layer.rect))
            case .shadow(let color, let radius, let reach, let opacity):
                landed.append(try blend(shadowMask(layer.rect.size, radius: radius, reach: reach, opacity: opacity),
                                        color: color, in: layer.rect))
            }
        }
        return landed
    }
}
