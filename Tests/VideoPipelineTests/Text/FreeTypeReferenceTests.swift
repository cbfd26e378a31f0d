import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The rasterizer's text held against FreeType's own output through the ffmpeg tool's `drawtext` (same font file,
/// same pixel size), from the decoded gray pixels.
///
/// Glyph by glyph: FFmpeg 5.1's `drawtext` asks `FT_Get_Kerning` with character codes where FreeType takes glyph
/// indices, so its kerning is not the face's and a kerned pair sits a pixel apart from ours. The shapes, their
/// coverage and their spacing to within that pixel are what is compared.
@Suite(.enabled(if: FFmpegTool.isAvailable && FileManager.default.fileExists(atPath: FontFace.defaultPath)))
struct FreeTypeReferenceTests {
    /// Checks one line: the ink boxes agree in size to a pixel or two (one per kerned pair), there are as many
    /// glyph ink runs, each starts within a pixel of drawtext's counted from the run before it, has the same
    /// width and coverage within 2 %, and its pixels match drawtext's glyph closely.
    private func expectSameInk(_ mine: CoverageGrid, _ text: String, pixelSize: Int) throws {
        let reference = try DrawtextReference.render(text, fontFile: FontFace.defaultPath, pixelSize: pixelSize,
                                                     canvas: PixelSize(width: mine.width + 4 * pixelSize, height: 3 * pixelSize))
        let box = try #require(mine.inkBox), referenceBox = try #require(reference.inkBox)
        #expect(abs(box.width - referenceBox.width) <= 2 && box.height == referenceBox.height,
                "\(text): ink \(box.size) here, \(referenceBox.size) from drawtext")
        let runs = mine.inkColumns, referenceRuns = reference.inkColumns
        try #require(runs.count == referenceRuns.count, "\(text): \(runs.count) ink runs here, \(referenceRuns.count) from drawtext")
        for index in runs.indices {
            let run = runs[index], other = referenceRuns[index]
            let start = run.columns.lowerBound - (index > 0 ? runs[index - 1].columns.lowerBound : 0)
            let otherStart = other.columns.lowerBound - (index > 0 ? referenceRuns[index - 1].columns.lowerBound : 0)
            #expect(abs(start - otherStart) <= 1 && run.columns.count == other.columns.count,
                    "\(text): glyph ink at columns \(run.columns) here, \(other.columns) from drawtext")
            #expect(abs(run.coverage - other.coverage) * 100 <= 2 * other.coverage,
                    "\(text): glyph ink \(run.coverage) here, \(other.coverage) from drawtext at columns \(other.columns)")
            let difference = mine.meanDifference(ofRun: run.columns, against: reference, run: other.columns)
            #expect(difference < 1.5, "\(text): glyph at columns \(run.columns) differs by \(difference) on average")
        }
    }

    @Test(arguments: [("Sponsored", 32), ("Реклама", 32), ("Install now: 4.8 of 5", 24), ("Ёжик в тумане — 18+", 20)])
    func aLineMatchesFreeTypeThroughDrawtext(text: String, pixelSize: Int) throws {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        let rendered = try rasterizer.render(text, pixelSize: pixelSize)
        #expect(rendered.measurement.lines == [text])
        try expectSameInk(CoverageGrid(rendered.mask), text, pixelSize: pixelSize)
    }

    /// A long title wraps to two lines within its width, the second cut with an ellipsis, and each drawn line is
    /// FreeType's rendering of that line's text.
    @Test func aLongTitleWrapsToTwoLinesWithAnEllipsis() throws {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        let title = "Новый кроссовер: полный привод, семь мест и гарантия пять лет — запишитесь на тест-драйв"
        let rendered = try rasterizer.render(title, pixelSize: 20, width: 300, lineLimit: 2)
        let measurement = rendered.measurement
        #expect(measurement.lines.count == 2 && measurement.isTruncated)
        #expect(measurement.lines[1].hasSuffix("…") && !measurement.lines[0].hasSuffix("…"))
        #expect(measurement.lineWidths.allSatisfy { $0 <= 300 })
        #expect(rendered.mask.size == PixelSize(width: measurement.lineWidths.max()!, height: 2 * measurement.lineHeight))
        for (number, line) in measurement.lines.enumerated() {
            let band = (number * measurement.lineHeight)..<((number + 1) * measurement.lineHeight)
            try expectSameInk(CoverageGrid(rendered.mask, rows: band), line, pixelSize: 20)
        }
    }
}
