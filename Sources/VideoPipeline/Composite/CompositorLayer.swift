import MediaCore

/// One thing the compositor draws: a picture or a colour in a rectangle of the canvas.
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
    }

    /// What the layer shows.
    public enum Content {
        case picture(VideoPicture, Fit)
        case color(YUVColor)
    }

    public var content: Content
    public var rect: PixelRect

    public init(_ content: Content, in rect: PixelRect) {
        self.content = content
        self.rect = rect
    }

    public static func picture(_ picture: VideoPicture, _ fit: Fit, in rect: PixelRect) -> CompositorLayer {
        CompositorLayer(.picture(picture, fit), in: rect)
    }

    public static func color(_ color: YUVColor, in rect: PixelRect) -> CompositorLayer {
        CompositorLayer(.color(color), in: rect)
    }
}

extension Compositor {
    /// Draws `layers` bottom first, each over what is below it.
    ///
    /// - Returns: for each layer, where its content landed: the picture itself for a letterboxed picture, the
    ///   (clipped) rectangle otherwise.
    @discardableResult
    public func draw(_ layers: [CompositorLayer]) throws(MediaError) -> [PixelRect] {
        var landed: [PixelRect] = []
        landed.reserveCapacity(layers.count)
        for layer in layers {
            switch layer.content {
            case .color(let color):
                try fill(layer.rect, with: color)
                landed.append(layer.rect)
            case .picture(let picture, .letterbox):
                landed.append(try draw(picture, in: layer.rect))
            case .picture(let picture, .fill):
                try drawFilling(picture, in: layer.rect)
                landed.append(layer.rect)
            }
        }
        return landed
    }
}
