import MediaCore
import Testing
@testable import VideoPipeline

@Suite struct CompositorClipTests {
    /// A clipped colour, rounded rectangle and picture touch only the canvas inside their clip.
    @Test func aClippedLayerTouchesOnlyItsClip() throws {
        let compositor = try Compositor(size: PixelSize(width: 64, height: 32))
        let clip = PixelRect(x: 16, y: 0, width: 32, height: 32)
        try compositor.draw([
            CompositorLayer(.color(YUVColor(y: 200, u: 128, v: 128)), in: PixelRect(x: 0, y: 0, width: 64, height: 8), clip: clip),
            CompositorLayer(.roundedRect(YUVColor(y: 150, u: 128, v: 128), radius: 2), in: PixelRect(x: 0, y: 8, width: 64, height: 8), clip: clip),
        ])
        let luma = compositor.picture.frame.planeView(0)
        // The colour fills its rectangle's part inside the clip; the rounded rectangle, cut at its straight middle,
        // has no rounded corner at the clip's edges.
        #expect((0..<8).allSatisfy { y in (0..<64).allSatisfy { x in luma[x, y] == ((16..<48).contains(x) ? 200 : 16) } })
        #expect((10..<14).allSatisfy { y in (0..<64).allSatisfy { x in luma[x, y] == ((16..<48).contains(x) ? 150 : 16) } })
    }

    /// A picture half out of its clip shows the half of its source that lands inside: the left half of a
    /// picture whose left half is dark and right half light, drawn with its right half cut off, is all dark.
    @Test func aPictureHalfOutOfItsClipShowsItsInsideHalf() throws {
        let source = try Compositor(size: PixelSize(width: 16, height: 16))
        try source.fill(PixelRect(x: 0, y: 0, width: 8, height: 16), with: YUVColor(y: 40, u: 128, v: 128))
        try source.fill(PixelRect(x: 8, y: 0, width: 8, height: 16), with: YUVColor(y: 220, u: 128, v: 128))
        let compositor = try Compositor(size: PixelSize(width: 64, height: 32))
        let landed = try compositor.draw([
            CompositorLayer(.picture(source.picture, .fill), in: PixelRect(x: 0, y: 0, width: 32, height: 32),
                            clip: PixelRect(x: 0, y: 0, width: 16, height: 32)),
        ])
        #expect(landed == [PixelRect(x: 0, y: 0, width: 16, height: 32)])
        let luma = compositor.picture.frame.planeView(0)
        #expect((0..<32).allSatisfy { y in (0..<16).allSatisfy { x in abs(Int(luma[x, y]) - 40) <= 2 } })
        #expect((0..<32).allSatisfy { y in (16..<64).allSatisfy { x in luma[x, y] == 16 } })
    }
}
