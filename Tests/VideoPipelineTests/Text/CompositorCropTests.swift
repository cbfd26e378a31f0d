import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// A picture cropped to fill a frame of another shape (`Fit.crop`), checked against ffmpeg's own crop and scale.
@Suite struct CompositorCropTests {
    /// Across the longer side, centred; a quarter turn cuts the coded side that shows as that one.
    @Test func theCroppedPartIsCentredAcrossTheLongerSide() {
        let wide = PixelSize(width: 160, height: 80)
        #expect(Compositor.croppedSource(coded: wide, displayAspect: Rational(2), swapsSides: false, window: PixelSize(width: 40, height: 40))
                == PixelRect(x: 40, y: 0, width: 80, height: 80))
        #expect(Compositor.croppedSource(coded: wide, displayAspect: Rational(2), swapsSides: false, window: PixelSize(width: 40, height: 10))
                == PixelRect(x: 0, y: 20, width: 160, height: 40))
        // Turned a quarter, the 160x80 picture shows 80 wide and 160 tall: a square window keeps the middle of the
        // upright height, which is the coded width.
        #expect(Compositor.croppedSource(coded: wide, displayAspect: Rational(1, 2), swapsSides: true, window: PixelSize(width: 50, height: 50))
                == PixelRect(x: 40, y: 0, width: 80, height: 80))
        // Same shape: nothing cut.
        #expect(Compositor.croppedSource(coded: wide, displayAspect: Rational(2), swapsSides: false, window: PixelSize(width: 30, height: 15))
                == PixelRect(size: wide))
    }

    /// An image with dark and light side bands, cropped into a square, shows only its middle: the same pixels as
    /// ffmpeg's `crop` then `scale` of the file, and nothing outside the window is touched.
    @Test(.enabled(if: FFmpegTool.isAvailable))
    func aCroppedImageMatchesFFmpegsCropAndScale() throws {
        let dir = TemporaryDirectory("crop")
        let image = dir.path("bands.png")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "color=c=0x808080:s=160x80", "-frames:v", "1", "-vf",
                              "drawbox=x=0:y=0:w=40:h=80:color=0x202020:t=fill,drawbox=x=120:y=0:w=40:h=80:color=0xE0E0E0:t=fill,"
                                  + "drawbox=x=60:y=30:w=40:h=20:color=0x2060C0:t=fill", image)
        let source = try MediaSource(path: image, format: OutputFormat(size: PixelSize(width: 160, height: 80), frameRate: FrameRate(30)))
        let compositor = try Compositor(size: PixelSize(width: 64, height: 48))
        let window = PixelRect(x: 8, y: 4, width: 40, height: 40)
        let landed = try compositor.draw([.picture(try source.picture(atTick: 0), .crop, in: window)])
        #expect(landed == [window])
        let reference = try FFmpegTool.run(FFmpegTool.ffmpegPath, ["-hide_banner", "-v", "error", "-i", image, "-vf",
                                                                    "crop=80:80:40:0,scale=40:40", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let expected = YUVImage(width: 40, height: 40, rawFrames: reference, index: 0)
        let frame = compositor.picture.frame
        let luma = frame.planeView(0), u = frame.planeView(1)
        var difference = 0
        for y in 0..<40 {
            for x in 0..<40 { difference += abs(Int(luma[window.x + x, window.y + y]) - Int(expected.luma[x, y])) }
        }
        #expect(Double(difference) / 1600 < 3, "mean luma difference \(Double(difference) / 1600) from ffmpeg's crop and scale")
        var chromaDifference = 0
        for y in 0..<20 {
            for x in 0..<20 { chromaDifference += abs(Int(u[window.x / 2 + x, window.y / 2 + y]) - Int(expected.cb[x, y])) }
        }
        #expect(Double(chromaDifference) / 400 < 3)
        // The side bands were cut off: no dark or light column inside, and the canvas around is still black.
        #expect((0..<40).allSatisfy { x in luma[window.x + x, window.y + 2] > 60 && luma[window.x + x, window.y + 2] < 200 })
        #expect(luma[window.x - 1, 10] == 16 && luma[window.maxX, 10] == 16 && luma[20, window.maxY] == 16)
    }
}
