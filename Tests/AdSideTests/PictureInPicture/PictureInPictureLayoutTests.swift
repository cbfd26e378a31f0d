@testable import AdPlayback
import MediaCore
import Testing

@Suite struct PictureInPictureLayoutTests {
    static let screen = PixelSize(width: 1920, height: 1080)

    @Test func defaultWindowIsAThirdOfTheWidthWithTheContentShapeBottomRightSixteenPixelsIn() {
        let layout = PictureInPictureLayout(canvas: Self.screen, contentAspect: Rational(16, 9),
                                            settings: PictureInPictureSettings())
        #expect(layout.window == PixelRect(x: 1264, y: 704, width: 640, height: 360))
    }

    @Test func onASmallScreenTheWindowKeepsEvenEdgesInsideTheMargin() {
        // 640 / 3 = 213.3 → 212 wide (even), 212 × 9/16 = 119.25 → 118 high; 16 px from the bottom-right corner.
        let layout = PictureInPictureLayout(canvas: PixelSize(width: 640, height: 360), contentAspect: Rational(16, 9),
                                            settings: PictureInPictureSettings())
        #expect(layout.window == PixelRect(x: 412, y: 226, width: 212, height: 118))
    }

    @Test(arguments: [
        (PictureInPictureSettings.Corner.topLeft, PixelRect(x: 16, y: 16, width: 640, height: 480)),
        (.topRight, PixelRect(x: 1264, y: 16, width: 640, height: 480)),
        (.bottomLeft, PixelRect(x: 16, y: 584, width: 640, height: 480)),
        (.bottomRight, PixelRect(x: 1264, y: 584, width: 640, height: 480)),
    ])
    func placesTheWindowInEachCorner(corner: PictureInPictureSettings.Corner, expected: PixelRect) {
        let layout = PictureInPictureLayout(canvas: Self.screen, contentAspect: Rational(4, 3),
                                            settings: PictureInPictureSettings(corner: corner))
        #expect(layout.window == expected)
    }

    @Test func keepsEvenEdgesAndAtLeastTheMarginForOddValues() {
        let layout = PictureInPictureLayout(canvas: PixelSize(width: 1280, height: 720), contentAspect: Rational(239, 100),
                                            settings: PictureInPictureSettings(widthFraction: Rational(2, 5), corner: .topLeft, margin: 15))
        // 1280 × 2/5 = 512 wide, 512 / 2.39 = 214.2 → 214 high; the 15 px margin becomes 16 to stay even.
        #expect(layout.window == PixelRect(x: 16, y: 16, width: 512, height: 214))
        let right = PictureInPictureLayout(canvas: PixelSize(width: 1280, height: 720), contentAspect: Rational(16, 9),
                                           settings: PictureInPictureSettings(margin: 15))
        #expect(right.window.maxX <= 1280 - 15 && right.window.maxY <= 720 - 15)
        #expect([right.window.x, right.window.y, right.window.width, right.window.height].allSatisfy { $0 % 2 == 0 })
    }

    @Test func aPortraitContentWindowTooTallForTheScreenShrinksToFit() {
        let layout = PictureInPictureLayout(canvas: Self.screen, contentAspect: Rational(9, 16),
                                            settings: PictureInPictureSettings(widthFraction: Rational(1, 2)))
        #expect(layout.window.height <= 1080 - 32 && layout.window.width % 2 == 0)
        #expect(layout.window.maxX == 1920 - 16 && layout.window.maxY == 1080 - 16)
    }

    @Test func animatesLinearlyBetweenTheScreenAndTheWindow() {
        let layout = PictureInPictureLayout(canvas: Self.screen, contentAspect: Rational(16, 9),
                                            settings: PictureInPictureSettings(transitionFrames: 4))
        let full = PixelRect(size: Self.screen)
        #expect(layout.rect(state: .inactive, transitionStart: 0, frame: 9) == nil)
        #expect(layout.rect(state: .starting, transitionStart: 10, frame: 10) == full)
        #expect(layout.rect(state: .starting, transitionStart: 10, frame: 12) == PixelRect(x: 632, y: 352, width: 1280, height: 720))
        #expect(layout.rect(state: .active, transitionStart: 10, frame: 14) == layout.window)
        #expect(layout.rect(state: .stopping, transitionStart: 20, frame: 21) == PixelRect(x: 948, y: 528, width: 960, height: 540))
    }
}
