import MediaCore
import Testing
@testable import VideoPipeline

/// The soft shadow of a rounded rectangle (`CoverageMask.shadow`): strongest beside the shape, fading with the
/// distance from it to nothing at its reach, nothing inside the shape, the same on opposite sides.
@Suite struct ShadowMaskTests {
    /// A 40x30 shape, corners 6, with a 12 px shadow: a 64x54 mask.
    static let mask = CoverageMask.shadow(PixelSize(width: 64, height: 54), radius: 6, reach: 12, peak: 80)

    @Test func fallsOffMonotonicallyAwayFromTheShape() {
        let m = Self.mask
        // Leftwards from the shape's left side (x 12) along its middle row, and upwards from its top (y 12).
        let left = (0..<12).reversed().map { Int(m[$0, 27]) }
        let up = (0..<12).reversed().map { Int(m[32, $0]) }
        for run in [left, up] {
            #expect(zip(run, run.dropFirst()).allSatisfy { $0 >= $1 }, "\(run)")
            #expect(run.first! > run.last!)
        }
        // Diagonally out of a rounded corner as well.
        let diagonal = (0..<12).map { Int(m[11 - $0 + 2, 11 - $0 + 2]) }
        #expect(zip(diagonal, diagonal.dropFirst()).allSatisfy { $0 >= $1 }, "\(diagonal)")
    }

    @Test func isBoundedByItsPeakAndStrongestBesideTheShape() {
        let m = Self.mask
        #expect(m.values.allSatisfy { $0 <= 80 })
        // Half a pixel out of the shape the Gaussian tail is almost its peak.
        #expect(m[11, 27] >= 70)
    }

    @Test func isZeroInsideTheShapeAndAtItsReach() {
        let m = Self.mask
        // Inside the shape: the caster covers it.
        #expect((12..<52).allSatisfy { x in (12..<42).allSatisfy { y in
            // The rounded corners leave a little outside the shape inside its bounding box.
            let cornerX = x < 18 || x >= 46, cornerY = y < 18 || y >= 36
            return (cornerX && cornerY) || m[x, y] == 0
        } })
        // At its reach and beyond (the mask's outer ring and the far corners): nothing.
        #expect((0..<64).allSatisfy { m[$0, 0] == 0 && m[$0, 53] == 0 })
        #expect((0..<54).allSatisfy { m[0, $0] == 0 && m[63, $0] == 0 })
        #expect(m[2, 2] == 0 && m[61, 51] == 0)
    }

    @Test func isSymmetric() {
        let m = Self.mask
        #expect((0..<54).allSatisfy { y in (0..<64).allSatisfy { x in m[x, y] == m[63 - x, y] && m[x, y] == m[x, 53 - y] } })
    }

    @Test func noReachOrNoPeakDrawsNothing() {
        #expect(CoverageMask.shadow(PixelSize(width: 20, height: 20), radius: 2, reach: 0, peak: 80).values.allSatisfy { $0 == 0 })
        #expect(CoverageMask.shadow(PixelSize(width: 20, height: 20), radius: 2, reach: 5, peak: 0).values.allSatisfy { $0 == 0 })
    }

    /// Drawn, the shadow darkens only around its caster, inside its layer's clip, and the same mask is reused.
    @Test func aShadowLayerDarkensAroundItsCasterInsideItsClip() throws {
        let compositor = try Compositor(size: PixelSize(width: 96, height: 48))
        let grey = YUVColor(y: 180, u: 128, v: 128)
        try compositor.fill(PixelRect(size: compositor.size), with: grey)
        let caster = PixelRect(x: 60, y: 0, width: 36, height: 48)
        let layer = CompositorLayer.shadow(of: caster, radius: 4, reach: 16, .black, opacity: 80)
        #expect(layer.rect == PixelRect(x: 44, y: -16, width: 68, height: 80))
        try compositor.draw([layer.clipped(to: PixelRect(size: compositor.size))])
        let luma = compositor.picture.frame.planeView(0)
        // Darker the nearer the caster, untouched at its reach and beyond, untouched under the caster.
        let row = (40..<64).map { Int(luma[$0, 24]) }
        #expect(row[0...4].allSatisfy { $0 == 180 }, "\(row)")
        #expect(zip(row, row.dropFirst()).prefix(19).allSatisfy { $0 >= $1 }, "\(row)")
        #expect(Int(luma[59, 24]) < 180 - 40)
        #expect((60..<96).allSatisfy { luma[$0, 24] == 180 })
        // Chroma stays grey's: blending black into grey changes only luma.
        #expect(compositor.picture.frame.planeView(1)[25, 12] == 128)
    }
}
