import MediaCore
import Testing
@testable import VideoPipeline

@Suite struct CompositorCanvasTests {
    /// An encoder keeps a reference to the canvas it was given until it has encoded it; drawing the next frame
    /// must go to a fresh buffer, or the picture waiting to be encoded changes under it.
    @Test func drawingNeverChangesAPictureSomeoneElseStillHolds() throws {
        let compositor = try Compositor(size: PixelSize(width: 32, height: 16))
        let held = try compositor.picture.frame.reference()
        try compositor.fill(PixelRect(x: 0, y: 0, width: 32, height: 16), with: YUVColor(y: 235, u: 128, v: 128))
        let heldLuma = held.planeView(0), drawnLuma = compositor.picture.frame.planeView(0)
        #expect((0..<16).allSatisfy { y in (0..<32).allSatisfy { x in heldLuma[x, y] == 16 } })
        #expect((0..<16).allSatisfy { y in (0..<32).allSatisfy { x in drawnLuma[x, y] == 235 } })
    }
}
