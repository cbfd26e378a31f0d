import MediaCore

/// How much room a string needs: the one thing the layout must ask the text renderer, so the drawing side can
/// answer with FreeType's real advances while the layout stays free of fonts.
public protocol TextMeasurer: Sendable {
    /// The width in points of `text` on one line at `fontSize` points, unbroken.
    func width(of text: String, fontSize: Int) -> Rational
    /// The lines `text` needs at `fontSize` points inside `width` points, without a line limit; 0 for an empty
    /// string.
    func lineCount(of text: String, width: Int, fontSize: Int) -> Int
}

/// A monospace font: every character advances the same fraction of the font size, and lines break between any
/// two characters.
///
/// It is the measurer of a real fixed-pitch font, exact and predictable, so layout tests can derive every
/// height by hand.
public struct MonospaceTextMeasurer: TextMeasurer, Hashable {
    /// The advance of one character as a fraction of the font size (DejaVu Sans Mono: about 3/5).
    public var advance: Rational

    public init(advance: Rational = Rational(3, 5)) {
        precondition(advance > .zero)
        self.advance = advance
    }

    public func width(of text: String, fontSize: Int) -> Rational {
        Rational(Int64(text.count)) * advance * Rational(Int64(fontSize))
    }

    public func lineCount(of text: String, width: Int, fontSize: Int) -> Int {
        guard !text.isEmpty else { return 0 }
        let perLine = max(1, Int((Rational(Int64(width)) / (advance * Rational(Int64(fontSize)))).floor))
        return (text.count + perLine - 1) / perLine
    }
}
