import MediaCore

/// Lays out and draws text with one font face: left to right, kerned, broken into lines, into an 8-bit coverage
/// mask that the compositor blends in a colour.
///
/// Glyphs are placed as FreeType hints them (`FT_LOAD_DEFAULT`, whole-pixel advances and grid-fitted kerning),
/// the way ffmpeg's `drawtext` places them, so the tests can hold the pixels against FreeType's output through
/// the ffmpeg tool. Rendered glyphs are cached per (glyph, pixel size), at most `glyphCacheLimit` of them, and
/// layouts per (text, pixel size, width, line limit), at most `layoutCacheLimit` of them holding at most
/// `layoutCacheBytes` of text, so a card measured and drawn every frame is broken into lines once.
/// Not thread-safe: one rasterizer per rendering thread.
public final class TextRasterizer: TextMeasuring {
    /// The largest pixel size accepted, far above any card's text, so a bad value fails instead of rasterising
    /// glyphs of gigabytes.
    public static let maximumPixelSize = 1024
    /// The most glyphs kept rendered; past it the cache starts again.
    static let glyphCacheLimit = 1024
    /// The most layouts kept, and the most UTF-8 bytes of text they may hold together; past either the cache
    /// starts again.
    static let layoutCacheLimit = 1024
    static let layoutCacheBytes = 4 << 20

    public let font: FontFace
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var indices: [Unicode.Scalar: UInt32] = [:]
    private var layouts: [LayoutKey: Layout] = [:]
    private var layoutBytes = 0

    private struct LayoutKey: Hashable {
        var text: String
        var pixelSize: Int
        var width: Int?
        var lineLimit: Int?
    }

    private typealias Layout = (measurement: TextMeasurement, lines: [[Unicode.Scalar]])

    private struct GlyphKey: Hashable {
        var index: UInt32
        var pixelSize: Int
    }

    public init(font: FontFace) {
        self.font = font
    }

    /// The number of glyphs held rendered (bounded by `glyphCacheLimit`).
    var cachedGlyphCount: Int { glyphs.count }
    /// The number of layouts held (bounded by `layoutCacheLimit` and `layoutCacheBytes`).
    var cachedLayoutCount: Int { layouts.count }

    /// The lines `text` takes at `pixelSize` within `width`, without drawing them.
    public func measure(_ text: String, pixelSize: Int, width: Int? = nil, lineLimit: Int? = nil) throws(FontError) -> TextMeasurement {
        try layout(text, pixelSize: pixelSize, width: width, lineLimit: lineLimit).measurement
    }

    /// Draws `text` into a coverage mask as wide as its widest line and as tall as its lines.
    ///
    /// Line `i`'s baseline is `i · lineHeight + ascender` from the top; ink beyond the mask (a glyph overhanging
    /// its advance, or reaching below the descender) is cut off.
    public func render(_ text: String, pixelSize: Int, width: Int? = nil, lineLimit: Int? = nil) throws(FontError) -> RenderedText {
        let (measurement, lines) = try layout(text, pixelSize: pixelSize, width: width, lineLimit: lineLimit)
        let size = measurement.size
        var mask = CoverageMask(size: size)
        let ascender = font.lineMetrics.ascender
        for (number, line) in lines.enumerated() {
            let baseline = number * measurement.lineHeight + ascender
            var pen = 0, previous: UInt32 = 0
            for scalar in line {
                let index = glyphIndex(scalar)
                pen += try font.kerning(previous, index)
                let glyph = try self.glyph(index, pixelSize: pixelSize)
                mask.composite(glyph.coverage, width: glyph.width, rows: glyph.rows, x: pen + glyph.left, y: baseline - glyph.top)
                pen += glyph.advance
                previous = index
            }
        }
        return RenderedText(mask: mask, measurement: measurement, ascender: ascender)
    }

    private func layout(_ text: String, pixelSize: Int, width: Int?, lineLimit: Int?) throws(FontError) -> Layout {
        let key = LayoutKey(text: text, pixelSize: pixelSize, width: width, lineLimit: lineLimit)
        // The face's size is set even on a hit: `render` draws glyphs at it.
        try font.setPixelSize(pixelSize)
        if let layout = layouts[key] { return layout }
        let breaker = LineBreaker(width: width, lineLimit: lineLimit)
        let (lines, truncated) = try breaker.lines(text) { (previous, scalar) throws(FontError) in
            let index = glyphIndex(scalar)
            return try font.kerning(previous.map(glyphIndex) ?? 0, index) + glyph(index, pixelSize: pixelSize).advance
        }
        let widths = try lines.map { (line) throws(FontError) in try advanceWidth(line, pixelSize: pixelSize) }
        let measurement = TextMeasurement(lines: lines.map { String(String.UnicodeScalarView($0)) }, lineWidths: widths,
                                          lineHeight: font.lineMetrics.lineHeight, isTruncated: truncated)
        let bytes = text.utf8.count
        if layouts.count >= Self.layoutCacheLimit || layoutBytes + bytes > Self.layoutCacheBytes {
            layouts.removeAll(keepingCapacity: true)
            layoutBytes = 0
        }
        if bytes <= Self.layoutCacheBytes {
            layouts[key] = (measurement, lines)
            layoutBytes += bytes
        }
        return (measurement, lines)
    }

    /// From the first pen position to the last glyph's advance, kerning included.
    private func advanceWidth(_ scalars: [Unicode.Scalar], pixelSize: Int) throws(FontError) -> Int {
        var pen = 0, previous: UInt32 = 0
        for scalar in scalars {
            let index = glyphIndex(scalar)
            pen += try font.kerning(previous, index) + glyph(index, pixelSize: pixelSize).advance
            previous = index
        }
        return pen
    }

    private func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
        if let index = indices[scalar] { return index }
        if indices.count >= Self.glyphCacheLimit { indices.removeAll(keepingCapacity: true) }
        let index = font.glyphIndex(scalar)
        indices[scalar] = index
        return index
    }

    private func glyph(_ index: UInt32, pixelSize: Int) throws(FontError) -> Glyph {
        let key = GlyphKey(index: index, pixelSize: pixelSize)
        if let glyph = glyphs[key] { return glyph }
        if glyphs.count >= Self.glyphCacheLimit { glyphs.removeAll(keepingCapacity: true) }
        let glyph = try font.renderGlyph(index)
        glyphs[key] = glyph
        return glyph
    }
}

/// Text drawn into a coverage mask, with the layout it was drawn from.
public struct RenderedText: Sendable {
    public var mask: CoverageMask
    public var measurement: TextMeasurement
    /// From the top of the mask to the first line's baseline.
    public var ascender: Int
}
