import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

/// AdScreen's `TextMeasurer` answered by VideoPipeline's `TextRasterizer` at the render's point scale, so that
/// native cards are laid out with the very line breaks and advances they are drawn with.
///
/// A size in points is measured at `pixels(size)` pixels per em and a width of `pixels(width)` pixels, as the
/// drawing renders it; widths come back in points. The rasterizer is not thread-safe, so it sits behind a lock.
public final class FreeTypeTextMeasurer: TextMeasurer {
    public let scale: PointScale
    public let fontPath: String
    // A `final class` whose only mutable state, the rasterizer, is reached under the lock.
    private let rasterizer: LockedState<TextRasterizer>

    /// - Parameter font: a font file (`--font`); the default font (DejaVu Sans) when `nil`.
    /// - Throws: `FontError` when the font cannot be opened.
    public init(font: String?, scale: PointScale) throws(FontError) {
        let face = try Self.face(font)
        self.scale = scale
        fontPath = face.path
        rasterizer = LockedState(TextRasterizer(font: face))
    }

    /// The width it needs where it is drawn: its advance in pixels plus the 2 pixels a rectangle's width may lose
    /// when its edges are rounded to even pixels (`PointScale`), so that a label laid out at this width is drawn
    /// whole, never ellipsised ("12+" cut to "1…"). Falls back to `MonospaceTextMeasurer` for a size FreeType
    /// refuses (more than 1024 px per em), which the drawing then cannot render either.
    public func width(of text: String, fontSize: Int) -> Rational {
        let measured = rasterizer.withLock { try? $0.measure(text, pixelSize: scale.pixels(fontSize), width: nil, lineLimit: nil) }
        guard let measured else { return MonospaceTextMeasurer().width(of: text, fontSize: fontSize) }
        guard let widest = measured.lineWidths.max(), widest > 0 else { return .zero }
        return Rational(Int64(widest + Self.edgeRounding)) / scale.pixelsPerPoint
    }

    /// What a rectangle's width in pixels may fall short of its width in points times the scale: each edge moves
    /// to the nearest even pixel, at most one pixel each.
    static let edgeRounding = 2

    public func lineCount(of text: String, width: Int, fontSize: Int) -> Int {
        guard !text.isEmpty else { return 0 }
        let measured = rasterizer.withLock {
            try? $0.measure(text, pixelSize: scale.pixels(fontSize), width: scale.pixels(width), lineLimit: nil)
        }
        return measured?.lines.count ?? MonospaceTextMeasurer().lineCount(of: text, width: width, fontSize: fontSize)
    }

    /// The font file `font` (`--font`), or the default font when `nil`.
    static func face(_ font: String?) throws(FontError) -> FontFace {
        guard let font else { return try FontFace.defaultFont() }
        return try FontFace(path: font)
    }
}
