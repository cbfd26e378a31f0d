/// Breaks text into lines no wider than a width, left to right, by a width function it is given.
///
/// Kept apart from FreeType so the rule reads in one place: paragraphs at hard breaks (LF, CR, CRLF, U+2028,
/// U+2029, U+0085); inside one, lines break at spaces (a run of spaces is one, and none is kept at a line's ends);
/// a word wider than the line on its own is broken between characters (at least one per line, so a line narrower
/// than one character still makes progress). With a line limit, the last line shown keeps as much as fits beside
/// an ellipsis ("…"), its trailing spaces dropped; an ellipsis wider than the line is left out.
struct LineBreaker {
    static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// The widest a line may be; `nil` breaks only at hard breaks.
    var width: Int?
    var lineLimit: Int?

    /// The lines of `text`, and whether the line limit cut text off.
    func lines(_ text: String, width measure: ([Unicode.Scalar]) throws(FontError) -> Int) throws(FontError)
        -> (lines: [[Unicode.Scalar]], truncated: Bool) {
        func fits(_ scalars: [Unicode.Scalar]) throws(FontError) -> Bool {
            guard let width else { return true }
            return try measure(scalars) <= width
        }
        var lines: [[Unicode.Scalar]] = []
        let limit = lineLimit.map { max(0, $0) }
        paragraphs: for paragraph in Self.paragraphs(text) {
            var line: [Unicode.Scalar] = []
            for word in Self.words(paragraph) {
                if let limit, lines.count > limit { break paragraphs }
                let candidate = line.isEmpty ? word : line + [" "] + word
                if try fits(candidate) {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                var rest = word[...]
                while rest.count > 1, try !fits(Array(rest)) {
                    var count = 1
                    while count < rest.count, try fits(Array(rest.prefix(count + 1))) { count += 1 }
                    lines.append(Array(rest.prefix(count)))
                    rest = rest.dropFirst(count)
                }
                line = Array(rest)
            }
            lines.append(line)
        }
        guard let limit, lines.count > limit else { return (lines, false) }
        lines.removeLast(lines.count - limit)
        guard var last = lines.popLast() else { return ([], true) }
        while !last.isEmpty, try !fits(last + [Self.ellipsis]) { last.removeLast() }
        while last.last == " " { last.removeLast() }
        if try fits(last + [Self.ellipsis]) { last.append(Self.ellipsis) }
        lines.append(last)
        return (lines, true)
    }

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
