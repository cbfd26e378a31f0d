/// Breaks text into lines no wider than a width, left to right, by the pen advance it is given.
///
/// Kept apart from FreeType so the rule reads in one place: paragraphs at hard breaks (LF, CR, CRLF, U+2028,
/// U+2029, U+0085); inside one, lines break at spaces (a run of spaces is one, and none is kept at a line's ends);
/// a word wider than the line on its own is broken between characters (at least one per line, so a line narrower
/// than one character still makes progress). With a line limit, the last line shown keeps as much as fits beside
/// an ellipsis ("…"), its trailing spaces dropped; an ellipsis wider than the line is left out.
///
/// The work is linear in the text, and with a line limit it stops at the first line past the limit: a line's width
/// is the sum of its pens' advances (`advance(previous, scalar)`, kerning included), so it grows by one advance per
/// character instead of being measured again (a 4096-character word used to cost 0.6 s a frame, issue 22).
struct LineBreaker {
    static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// The widest a line may be; `nil` breaks only at hard breaks.
    var width: Int?
    var lineLimit: Int?

    /// The lines of `text`, and whether the line limit cut text off.
    ///
    /// - Parameter advance: how far the pen moves for `scalar` drawn after `previous` (`nil` at a line's start),
    ///   kerning included; a line's width is the sum over its scalars.
    func lines(_ text: String, advance: (Unicode.Scalar?, Unicode.Scalar) throws(FontError) -> Int) throws(FontError)
        -> (lines: [[Unicode.Scalar]], truncated: Bool) {
        var lines: [[Unicode.Scalar]] = []
        let limit = lineLimit.map { max(0, $0) }
        var full: Bool { limit.map { lines.count > $0 } ?? false }
        paragraphs: for paragraph in Self.paragraphs(text) {
            if full { break }
            var line: [Unicode.Scalar] = [], lineWidth = 0
            for word in Self.words(paragraph) {
                if !line.isEmpty {
                    // The word after a space on this line, given up as soon as it passes the width.
                    var joined = try lineWidth + advance(line.last, " "), previous: Unicode.Scalar = " ", fits = true
                    for scalar in word {
                        joined += try advance(previous, scalar)
                        previous = scalar
                        if let width, joined > width { fits = false; break }
                    }
                    if fits {
                        line.append(" ")
                        line += word
                        lineWidth = joined
                        continue
                    }
                    lines.append(line)
                    if full { break paragraphs }
                    line = []
                    lineWidth = 0
                }
                // The word on a line of its own, broken before the first character that does not fit.
                for scalar in word {
                    let step = try advance(line.last, scalar)
                    if let width, !line.isEmpty, lineWidth + step > width {
                        lines.append(line)
                        if full { break paragraphs }
                        line = [scalar]
                        lineWidth = try advance(nil, scalar)
                    } else {
                        line.append(scalar)
                        lineWidth += step
                    }
                }
            }
            lines.append(line)
        }
        guard let limit, lines.count > limit else { return (lines, false) }
        lines.removeLast(lines.count - limit)
        guard let last = lines.popLast() else { return ([], true) }
        // The longest prefix of the last line, ending in no space, that fits beside an ellipsis, in one pass; none
        // when even the ellipsis alone is wider than the line (then the line is left empty).
        var kept: Int? = try fits(advance(nil, Self.ellipsis)) ? 0 : nil
        var pen = 0
        for (i, scalar) in last.enumerated() {
            pen += try advance(i == 0 ? nil : last[i - 1], scalar)
            guard fits(pen) else { break }
            if scalar != " ", try fits(pen + advance(scalar, Self.ellipsis)) { kept = i + 1 }
        }
        let shown = kept.map { Array(last.prefix($0)) + [Self.ellipsis] } ?? []
        lines.append(shown)
        return (lines, true)
    }

    private func fits(_ pen: Int) -> Bool { width.map { pen <= $0 } ?? true }

    /// The paragraphs between hard line breaks (an empty text has none).
    static func paragraphs(_ text: String) -> [[Unicode.Scalar]] {
        guard !text.isEmpty else { return [] }
        var paragraphs: [[Unicode.Scalar]] = [[]]
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\n" where afterCR: continue
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}": paragraphs.append([])
            default: paragraphs[paragraphs.count - 1].append(scalar)
            }
        }
        return paragraphs
    }

    /// The words of a paragraph: runs between breaking spaces (a no-break space joins its neighbours).
    static func words(_ paragraph: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        paragraph.split(whereSeparator: { $0.properties.isWhitespace && !["\u{A0}", "\u{2007}", "\u{202F}"].contains($0) })
            .map(Array.init)
    }
}
