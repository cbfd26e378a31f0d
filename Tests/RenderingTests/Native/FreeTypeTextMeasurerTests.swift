import AdPlayback
import Foundation
import MediaCore
@testable import Rendering
import Testing
import VideoPipeline

@Suite(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath), "needs fonts-dejavu-core"))
struct FreeTypeTextMeasurerTests {
    /// The layout's answers are the drawing's: the lines FreeType draws at the scaled size and width, and the
    /// widest line's advance back in points.
    @Test(arguments: ["Ride further on one charge", "Чай с горных плантаций: доставка за два дня"])
    func measuresAsTheRasterizerDrawsAtThePointScale(text: String) throws {
        let scale = PointScale(Rational(3, 2))
        let measurer = try FreeTypeTextMeasurer(font: nil, scale: scale)
        // 15 pt at 3/2 is 22.5 px, 22 by the point scale's even rule; 120 pt is 180 px.
        #expect(scale.pixels(15) == 22 && scale.pixels(120) == 180)
        let drawn = try TextRasterizer(font: try FontFace.defaultFont()).render(text, pixelSize: 22, width: 180)
        #expect(measurer.lineCount(of: text, width: 120, fontSize: 15) == drawn.measurement.lines.count)
        #expect(drawn.measurement.lines.count > 1)
        let oneLine = try TextRasterizer(font: try FontFace.defaultFont()).measure(text, pixelSize: 22)
        // The advance and the 2 pixels a rectangle's width may lose to its even edges.
        #expect(measurer.width(of: text, fontSize: 15) == Rational(Int64(oneLine.lineWidths[0] + 2), 1) / Rational(3, 2))
    }

    /// A one-line label laid out at its measured width (rounded up to whole points, as the card's row does) is
    /// drawn whole wherever its edges land on the pixel grid: never "12+" cut to "1…".
    @Test(arguments: ["1/2", "1", "3/2", "3"])
    func aLabelLaidOutAtItsMeasuredWidthIsDrawnWholeAtAnyPosition(scale text: String) throws {
        let scale = try #require(PointScale(parsing: text))
        let measurer = try FreeTypeTextMeasurer(font: nil, scale: scale)
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        for label in ["12+", "0+", "18+", "ЧайДом", "chaidom.example"] {
            let width = Int(measurer.width(of: label, fontSize: 12).ceiling)
            for x in 0..<16 {
                let pixels = scale.pixels(x + width) - scale.pixels(x)
                let drawn = try rasterizer.measure(label, pixelSize: scale.pixels(12), width: pixels, lineLimit: 1)
                #expect(drawn.lines == [label], "\(label) at x=\(x) pt, \(pixels) px wide at \(scale): \(drawn.lines)")
            }
        }
    }

    @Test func aFontThatCannotBeOpenedIsAnError() {
        #expect(throws: FontError.fileNotFound(path: "/nonexistent/font.ttf")) {
            try FreeTypeTextMeasurer(font: "/nonexistent/font.ttf", scale: PointScale(.one))
        }
    }
}
