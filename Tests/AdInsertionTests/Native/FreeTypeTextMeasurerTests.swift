import Foundation
import MediaCore
import Testing
@testable import AdInsertion
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
        #expect(measurer.width(of: text, fontSize: 15) == Rational(Int64(oneLine.lineWidths[0]), 1) / Rational(3, 2))
    }

    @Test func aFontThatCannotBeOpenedIsAnError() {
        #expect(throws: FontError.fileNotFound(path: "/nonexistent/font.ttf")) {
            try FreeTypeTextMeasurer(font: "/nonexistent/font.ttf", scale: PointScale(.one))
        }
    }
}
