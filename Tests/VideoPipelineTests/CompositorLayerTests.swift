import MediaCore
import Testing
@testable import VideoPipeline

@Suite struct CompositorLayerTests {
    /// Layers are drawn bottom first, each over what is below, and a letterboxed picture reports where it landed.
    @Test func layersAreDrawnInOrderAndAPictureReportsWhereItLanded() throws {
        let compositor = try Compositor(size: PixelSize(width: 64, height: 32))
        // A 16x16 grey picture: in a 32x16 window it is pillarboxed to 16x16 at x 8 of the window.
        let source = try Compositor(size: PixelSize(width: 16, height: 16))
        try source.fill(PixelRect(x: 0, y: 0, width: 16, height: 16), with: YUVColor(y: 128, u: 128, v: 128))
        let landed = try compositor.draw([
            .color(YUVColor(y: 71, u: 128, v: 128), in: PixelRect(x: 0, y: 0, width: 64, height: 32)),
            .color(YUVColor(y: 200, u: 128, v: 128), in: PixelRect(x: 0, y: 16, width: 64, height: 16)),
            .picture(source.picture, .letterbox, in: PixelRect(x: 32, y: 0, width: 32, height: 16)),
        ])
        #expect(landed == [PixelRect(x: 0, y: 0, width: 64, height: 32), PixelRect(x: 0, y: 16, width: 64, height: 16),
                           PixelRect(x: 40, y: 0, width: 16, height: 16)])
        let luma = compositor.picture.frame.planeView(0)
        #expect(luma[0, 0] == 71 && luma[0, 20] == 200)
        // The window's bars are black, the picture grey.
        #expect(luma[33, 5] == 16 && luma[45, 5] == 128 && luma[60, 5] == 16)
    }

    /// A filling picture covers its whole rectangle, stretched.
    @Test func aFillingPictureCoversItsRectangle() throws {
        let compositor = try Compositor(size: PixelSize(width: 64, height: 32))
        let source = try Compositor(size: PixelSize(width: 16, height: 16))
        try source.fill(PixelRect(x: 0, y: 0, width: 16, height: 16), with: YUVColor(y: 128, u: 128, v: 128))
        try compositor.draw([.picture(source.picture, .fill, in: PixelRect(x: 8, y: 4, width: 40, height: 10))])
        let luma = compositor.picture.frame.planeView(0)
        #expect((4..<14).allSatisfy { y in (8..<48).allSatisfy { x in luma[x, y] == 128 } })
        #expect(luma[7, 5] == 16 && luma[48, 5] == 16 && luma[8, 3] == 16 && luma[8, 14] == 16)
    }
}
