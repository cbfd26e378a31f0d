import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Rounded rectangles and text blended into the canvas, checked from its Y, U and V planes.
@Suite struct CompositorMaskTests {
    private let grey = YUVColor(y: 100, u: 110, v: 150)
    private let amber = YUVColor(red: 255, green: 191, blue: 0)

    private func canvas(_ width: Int, _ height: Int) throws -> Compositor {
        let compositor = try Compositor(size: PixelSize(width: width, height: height))
        try compositor.fill(PixelRect(x: 0, y: 0, width: width, height: height), with: grey)
        return compositor
    }

    /// The covered area of a rounded rectangle is the rectangle less its four corners' (4 − π)r², its inside is
    /// the colour exactly, its corner tips and everything outside are untouched.
    @Test(arguments: [(PixelRect(x: 9, y: 5, width: 40, height: 20), 8), (PixelRect(x: 4, y: 7, width: 51, height: 21), 100)])
    func aRoundedRectCoversItsShape(rect: PixelRect, radius: Int) throws {
        let compositor = try canvas(64, 40)
        try compositor.draw([.roundedRect(amber, radius: radius, in: rect)])
        let frame = compositor.picture.frame
        let luma = frame.planeView(0), u = frame.planeView(1), v = frame.planeView(2)
        let r = Double(min(radius, min(rect.width, rect.height) / 2))
        // Coverage read back from luma: 0 at grey, 1 at the colour.
        var covered = 0.0
        for y in 0..<40 {
            for x in 0..<64 {
                let value = Int(luma[x, y])
                if !(rect.x..<rect.maxX).contains(x) || !(rect.y..<rect.maxY).contains(y) { #expect(value == Int(grey.y)) }
                covered += Double(value - Int(grey.y)) / Double(Int(amber.y) - Int(grey.y))
            }
        }
        let area = Double(rect.width * rect.height) - (4 - Double.pi) * r * r
        #expect(abs(covered - area) < 0.01 * area, "covered \(covered) pixels, the shape has \(area)")
        // The corner tip is outside the arc, the middle is solid, down to the chroma.
        #expect(luma[rect.x, rect.y] == grey.y && luma[rect.maxX - 1, rect.maxY - 1] == grey.y)
        let middle = (x: rect.x + rect.width / 2, y: rect.y + rect.height / 2)
        #expect(luma[middle.x, middle.y] == amber.y && u[middle.x / 2, middle.y / 2] == amber.u && v[middle.x / 2, middle.y / 2] == amber.v)
        // Chroma wholly outside is untouched.
        #expect(u[(rect.x - 2) / 2, middle.y / 2] == grey.u && v[(rect.x - 2) / 2, middle.y / 2] == grey.v)
    }

    /// Text is blended by its coverage: each luma pixel between the background and the colour in proportion, and
    /// each chroma sample the mean of its four pixels' blended chroma (subsampling the blended 4:4:4 picture),
    /// nothing outside the layer's rectangle touched.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath)))
    func textIsBlendedByItsCoverageInLumaAndChroma() throws {
        let text = try TextRasterizer(font: try FontFace.defaultFont()).render("Реклама Ad", pixelSize: 18)
        let mask = text.mask
        let compositor = try canvas(mask.size.width + 20, mask.size.height + 10)
        // At an odd offset, so chroma samples straddle the mask's edges; cut 3 pixels short on the right.
        let rect = PixelRect(x: 5, y: 3, width: mask.size.width - 3, height: mask.size.height)
        try compositor.draw([.text(text, amber, in: rect)])
        let frame = compositor.picture.frame
        let luma = frame.planeView(0)
        func coverage(_ x: Int, _ y: Int) -> Double {
            guard (rect.x..<rect.maxX).contains(x), (rect.y..<rect.maxY).contains(y) else { return 0 }
            return Double(mask[x - rect.x, y - rect.y]) / 255
        }
        func mix(_ background: UInt8, _ color: UInt8, _ a: Double) -> Double { Double(background) * (1 - a) + Double(color) * a }
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                #expect(abs(Double(luma[x, y]) - mix(grey.y, amber.y, coverage(x, y))) <= 0.5 + 1e-9, "luma at \(x),\(y)")
            }
        }
        #expect((0..<frame.height).contains { y in (0..<frame.width).contains { luma[$0, y] == amber.y } })
        for (plane, background, color) in [(1, grey.u, amber.u), (2, grey.v, amber.v)] {
            let chroma = frame.planeView(plane)
            for cy in 0..<frame.height / 2 {
                for cx in 0..<frame.width / 2 {
                    let pixels = [(0, 0), (1, 0), (0, 1), (1, 1)].map { mix(background, color, coverage(2 * cx + $0.0, 2 * cy + $0.1)) }
                    let expected = pixels.reduce(0, +) / 4
                    #expect(abs(Double(chroma[cx, cy]) - expected) <= 0.5 + 1e-9, "plane \(plane) at \(cx),\(cy)")
                }
            }
        }
        // Nothing right of the rectangle, where the mask was cut, was drawn.
        #expect((0..<frame.height).allSatisfy { y in (rect.maxX..<frame.width).allSatisfy { luma[$0, y] == grey.y } })
    }
}
