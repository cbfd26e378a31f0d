import MediaCore

extension Compositor {
    /// Draws `picture` upright, at its display aspect, covering `window` exactly: scaled to fill it and centred,
    /// what overhangs cut off on both sides (an icon or a card's main image in a frame of another shape).
    public func drawCropping(_ picture: VideoPicture, in window: PixelRect) throws(MediaError) {
        let window = clipped(window)
        guard window.width > 0, window.height > 0 else { return }
        let geometry = picture.geometry
        let visible = Self.croppedSource(coded: picture.frame.size, displayAspect: geometry.displayAspect,
                                         swapsSides: geometry.orientation.swapsSides, window: window.size)
        let frame = visible == PixelRect(size: picture.frame.size) ? picture.frame : try picture.frame.cropped(to: visible)
        try place(frame, orientation: geometry.orientation, in: window)
    }

    /// The centred part of a coded picture that, shown at `displayAspect`, has the window's shape: the whole
    /// picture cut across its longer side (exact arithmetic, rounded to the nearest coded pixel, at least one).
    static func croppedSource(coded: PixelSize, displayAspect: Rational, swapsSides: Bool, window: PixelSize) -> PixelRect {
        let w = Int64(window.width), h = Int64(window.height)
        let pictureWider = displayAspect.numerator * h > w * displayAspect.denominator
        // The kept fraction of the upright picture's width (wider) or height (taller), as numerator / denominator.
        let (keep, of) = pictureWider ? (w * displayAspect.denominator, h * displayAspect.numerator)
                                      : (h * displayAspect.numerator, w * displayAspect.denominator)
        // Upright width is the coded height when the picture is turned a quarter.
        let cutsCodedWidth = pictureWider != swapsSides
        func kept(_ side: Int) -> Int { max(1, Int((Int64(side) * 2 * keep + of) / (2 * of))) }
        if cutsCodedWidth {
            let width = kept(coded.width)
            return PixelRect(x: (coded.width - width) / 2, y: 0, width: width, height: coded.height)
        }
        let height = kept(coded.height)
        return PixelRect(x: 0, y: (coded.height - height) / 2, width: coded.width, height: height)
    }
}
