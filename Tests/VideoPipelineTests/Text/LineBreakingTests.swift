import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Line breaking, line limits and the ellipsis, checked by measurement with the default font.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath)))
struct LineBreakingTests {
    let rasterizer: TextRasterizer

    init() throws {
        rasterizer = TextRasterizer(font: try FontFace.defaultFont())
    }

    private func width(_ text: String, _ size: Int = 20) throws -> Int {
        try rasterizer.measure(text, pixelSize: size).lineWidths.first ?? 0
    }

    /// Lines break at the last space that fits: at exactly the width of "Sponsored by" the next word moves down,
    /// one pixel less and "by" moves down too.
    @Test func linesBreakAtTheLastSpaceThatFits() throws {
        let exact = try width("Sponsored by")
        #expect(try rasterizer.measure("Sponsored by Acme", pixelSize: 20, width: exact).lines == ["Sponsored by", "Acme"])
        #expect(try rasterizer.measure("Sponsored by Acme", pixelSize: 20, width: exact - 1).lines == ["Sponsored", "by Acme"])
        // Without a width only hard breaks break.
        #expect(try rasterizer.measure("Sponsored by Acme", pixelSize: 20).lines == ["Sponsored by Acme"])
    }

    /// Every line of a wrapped paragraph fits, the words come back in order, and no line could have taken the
    /// next word.
    @Test func wrappedLinesFitAndAreGreedy() throws {
        let text = "Реклама помогает нам делать бесплатный контент: спасибо, что смотрите её вместе с нами"
        let measurement = try rasterizer.measure(text, pixelSize: 18, width: 170)
        #expect(measurement.lines.count > 2 && !measurement.isTruncated)
        #expect(measurement.lines.joined(separator: " ") == text)
        for (line, lineWidth) in zip(measurement.lines, measurement.lineWidths) {
            let measured = try width(line, 18)
            #expect(lineWidth <= 170 && lineWidth == measured)
        }
        for (line, next) in zip(measurement.lines, measurement.lines.dropFirst()) {
            let nextWord = String(next.split(separator: " ")[0])
            #expect(try width(line + " " + nextWord, 18) > 170, "\(line) could have taken \(nextWord)")
        }
        #expect(measurement.size == PixelSize(width: measurement.lineWidths.max()!, height: measurement.lines.count * measurement.lineHeight))
    }

    /// Hard breaks (LF, CRLF, CR, U+2028) start new lines, an empty line kept; a run of spaces is one space.
    @Test func hardBreaksStartNewLines() throws {
        let lines = try rasterizer.measure("Age\n18+\r\nwarning\r\rend\u{2028}x   y", pixelSize: 16, width: 1000).lines
        #expect(lines == ["Age", "18+", "warning", "", "end", "x y"])
        #expect(try rasterizer.measure("", pixelSize: 16).size == PixelSize(width: 0, height: 0))
    }

    /// A word wider than the line is broken between characters, each piece as long as fits.
    @Test func aWordLongerThanTheLineIsBrokenByCharacters() throws {
        let word = "Антиквариат"
        let lineWidth = try width("Антик")
        let lines = try rasterizer.measure(word, pixelSize: 20, width: lineWidth).lines
        #expect(lines.count > 1 && lines.joined() == word && lines.first == "Антик")
        for (line, next) in zip(lines, lines.dropFirst()) {
            #expect(try width(line) <= lineWidth)
            #expect(try width(line + String(next.first!)) > lineWidth)
        }
        // The next word still starts its own line when it does not fit beside the last piece.
        #expect(try rasterizer.measure(word + " ok", pixelSize: 20, width: lineWidth).lines.last?.hasSuffix("ok") == true)
        // A line narrower than any character still takes one character a line.
        #expect(try rasterizer.measure("abc", pixelSize: 20, width: 1).lines == ["a", "b", "c"])
    }

    /// A line limit keeps that many lines; the last ends in an ellipsis that fits, with as much text as fits
    /// before it and no space before the ellipsis.
    @Test func aLineLimitEndsInAnEllipsisThatFits() throws {
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let lineWidth = try width("one two three")
        let all = try rasterizer.measure(text, pixelSize: 20, width: lineWidth)
        let cut = try rasterizer.measure(text, pixelSize: 20, width: lineWidth, lineLimit: 2)
        #expect(all.lines.count > 2 && !all.isTruncated)
        #expect(cut.isTruncated && cut.lines.count == 2 && cut.lines[0] == all.lines[0])
        let last = cut.lines[1]
        #expect(last.hasSuffix("…") && !last.hasSuffix(" …") && cut.lineWidths[1] <= lineWidth)
        // As much as fits: one more character of the uncut line would not.
        let kept = String(last.dropLast())
        #expect(all.lines[1].hasPrefix(kept))
        if kept.count < all.lines[1].count {
            let longer = String(all.lines[1].prefix(kept.count + 1))
            let longerWidth = try width(longer + "…")
            #expect(longer.hasSuffix(" ") || longerWidth > lineWidth)
        }
        // Text that fits its limit is not cut.
        #expect(try rasterizer.measure("one two", pixelSize: 20, width: lineWidth, lineLimit: 1).isTruncated == false)
        // An ellipsis wider than the line is left out rather than overflow it.
        let narrow = try rasterizer.measure(text, pixelSize: 20, width: try width("…") - 1, lineLimit: 1)
        #expect(narrow.isTruncated && narrow.lines.count == 1 && !narrow.lines[0].contains("…"))
    }

    /// Measuring and rendering agree: the mask is the measured size.
    @Test func theRenderedMaskIsTheMeasuredSize() throws {
        let text = "Sponsored · Реклама · 18+"
        let measured = try rasterizer.measure(text, pixelSize: 14, width: 120, lineLimit: 2)
        let rendered = try rasterizer.render(text, pixelSize: 14, width: 120, lineLimit: 2)
        #expect(rendered.measurement == measured && rendered.mask.size == measured.size)
        #expect(rendered.mask.values.contains { $0 > 0 })
    }

    /// Kerning from the face moves a pair closer than its advances: "AV" is narrower than "A" plus "V".
    @Test func kerningComesFromTheFace() throws {
        let pair = try width("AV", 40), a = try width("A", 40), v = try width("V", 40)
        #expect(pair < a + v)
    }

    /// The glyph cache stays bounded however many different glyphs are drawn.
    @Test func theGlyphCacheIsBounded() throws {
        let scalars = (0x400..<0x4FF).compactMap(Unicode.Scalar.init).map(Character.init)
        for size in 8..<14 { _ = try rasterizer.measure(String(scalars), pixelSize: size) }
        #expect(rasterizer.cachedGlyphCount <= TextRasterizer.glyphCacheLimit && rasterizer.cachedGlyphCount > 0)
    }
}
