import MediaCore

extension Compositor {
    /// Draws `layer` laid out in its rectangle but only inside `clip`: a colour, a rounded rectangle, a shadow or a mask is
    /// cut pixel by pixel; a picture is scaled as it would be unclipped and only the part of its source that lands
    /// inside `clip` is placed (rounded outwards to whole source pixels).
    ///
    /// A picture turned by its display matrix is drawn only when it lies wholly inside (cards and banners are
    /// upright images).
    /// - Returns: the part of the canvas the layer could touch.
    func drawClipped(_ layer: CompositorLayer, to clip: PixelRect) throws(MediaError) -> PixelRect {
        let visible = clipped(layer.rect.intersection(clip))
        guard visible.width > 0, visible.height > 0 else { return visible }
        switch layer.content {
        case .color(let color):
            try fill(visible, with: color)
        case .roundedRect(let color, let radius):
            try blend(.roundedRect(layer.rect.size, radius: radius), color: color, in: layer.rect, clip: clip)
        case .mask(let mask, let color):
            return try blend(mask, color: color, in: layer.rect, clip: clip)
        case .shadow(let color, let radius, let reach, let opacity):
            return try blend(shadowMask(layer.rect.size, radius: radius, reach: reach, opacity: opacity), color: color,
                             in: layer.rect, clip: clip)
        case .picture(let picture, .letterbox):
            let target = layer.rect.fitting(aspect: picture.geometry.displayAspect)
            _ = try drawClipped(.color(.black, in: layer.rect), to: clip)
            return try drawClipped(.picture(picture, .fill, in: target), to: clip)
        case .picture(let picture, let fit):
            guard picture.geometry.orientation == .upright else { return PixelRect(x: visible.x, y: visible.y, width: 0, height: 0) }
            let whole = fit == .crop
                ? Self.croppedSource(coded: picture.frame.size, displayAspect: picture.geometry.displayAspect, swapsSides: false,
                                     window: layer.rect.size)
                : PixelRect(size: picture.frame.size)
            let part = Self.source(of: visible, in: layer.rect, from: whole)
            try place(try picture.frame.cropped(to: part), orientation: .upright, in: visible)
        }
        return visible
    }

    /// The part of source rectangle `whole`, shown over `rect`, that lands on `visible` (inside `rect`): scaled
    /// exactly, widened to whole source pixels, at least one.
    static func source(of visible: PixelRect, in rect: PixelRect, from whole: PixelRect) -> PixelRect {
        func span(_ from: Int, _ to: Int, _ origin: Int, _ length: Int, _ sourceOrigin: Int, _ sourceLength: Int) -> (Int, Int) {
            let a = Int64(from - origin) * Int64(sourceLength) / Int64(length)
            let b = (Int64(to - origin) * Int64(sourceLength) + Int64(length) - 1) / Int64(length)
            let start = Int(a), end = max(Int(a) + 1, min(sourceLength, Int(b)))
            return (sourceOrigin + start, end - start)
        }
        let (x, width) = span(visible.x, visible.maxX, rect.x, rect.width, whole.x, whole.width)
        let (y, height) = span(visible.y, visible.maxY, rect.y, rect.height, whole.y, whole.height)
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}
