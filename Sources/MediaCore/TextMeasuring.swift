/// Measures text the way the renderer will draw it, so a media-free layout can size its text frames without
/// drawing or linking a font library.
///
/// VideoPipeline's `TextRasterizer` is the implementation (FreeType); the ad side is handed one and asks it how
/// many lines a title needs at a width, and how tall they are.
public protocol TextMeasuring {
    /// The lines `text` breaks into at `pixelSize` pixels per em.
    /// - Parameters:
    ///   - width: the widest a line may be, in pixels; `nil` breaks only at hard line breaks.
    ///   - lineLimit: the most lines shown; the last one ends in an ellipsis that fits when text is left over.
    func measure(_ text: String, pixelSize: Int, width: Int?, lineLimit: Int?) throws -> TextMeasurement
}

/// How text is laid out: its lines, as they will be drawn, and the size they take.
public struct TextMeasurement: Hashable, Sendable {
    /// Each line's text, an ellipsis included where it was cut.
    public var lines: [String]
    /// Each line's width from the first pen position to the last advance, in pixels.
    public var lineWidths: [Int]
    /// From one baseline to the next, in pixels.
    public var lineHeight: Int
    /// True when `lineLimit` cut text off (the last line ends in "…").
    public var isTruncated: Bool

    public init(lines: [String], lineWidths: [Int], lineHeight: Int, isTruncated: Bool) {
        self.lines = lines
        self.lineWidths = lineWidths
        self.lineHeight = lineHeight
        self.isTruncated = isTruncated
    }

    /// The widest line by the number of lines times the line height (0x0 for no text).
    public var size: PixelSize { PixelSize(width: lineWidths.max() ?? 0, height: lines.count * lineHeight) }
}
