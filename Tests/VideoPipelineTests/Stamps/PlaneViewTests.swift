import MediaCore
import Testing
@testable import VideoPipeline

@Suite struct PlaneViewTests {
    @Test func fillIsClippedToThePlane() {
        let image = YUVImage(width: 8, height: 6, y: 0)
        image.luma.fill(PixelRect(x: -3, y: 4, width: 5, height: 10), with: 9)
        let filled = (0..<6).flatMap { y in (0..<8).filter { x in image.luma[x, y] == 9 }.map { "\($0),\(y)" } }
        #expect(filled == ["0,4", "1,4", "0,5", "1,5"])
    }

    @Test func meanCoversOnlyTheRectInsideThePlane() {
        let image = YUVImage(width: 8, height: 6, y: 10)
        image.luma.fill(PixelRect(x: 6, y: 0, width: 2, height: 6), with: 40)
        #expect(image.luma.mean(of: PixelRect(x: 4, y: 0, width: 10, height: 1)) == 25)
        #expect(image.luma.mean(of: PixelRect(x: 8, y: 0, width: 3, height: 3)) == nil)
        #expect(image.luma.mean(of: PixelRect(x: 2, y: 2, width: 0, height: 3)) == nil)
    }

    @Test func subplaneAddressesAWindowOfTheParent() {
        let image = YUVImage(width: 8, height: 6, y: 0)
        let window = image.luma.subplane(PixelRect(x: 2, y: 3, width: 4, height: 2))
        window.fill(window.bounds, with: 7)
        window[0, 1] = 8
        #expect(image.luma[2, 4] == 8 && image.luma[5, 3] == 7 && image.luma[6, 3] == 0 && image.luma[2, 2] == 0)
        #expect(image.luma.mean(of: PixelRect(x: 0, y: 0, width: 8, height: 6)) == Double(7 * 7 + 8) / 48)
    }
}
