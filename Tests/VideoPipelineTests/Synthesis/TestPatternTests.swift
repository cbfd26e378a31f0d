import MediaCore
import Testing
@testable import VideoPipeline

@Suite struct TestPatternTests {
    static let size = PixelSize(width: 640, height: 360)

    /// Pixels outside the stamp block.
    func outsideStamp(_ image: YUVImage) -> [UInt8] {
        let block = StampGeometry(picture: PixelRect(size: image.size)).block
        var values: [UInt8] = []
        for y in 0..<image.height {
            for x in 0..<image.width where !block.contains(PixelRect(x: x, y: y, width: 1, height: 1)) {
                values.append(image.luma[x, y])
            }
        }
        return values
    }

    @Test(arguments: [PixelSize(width: 640, height: 360), PixelSize(width: 360, height: 640),
                      PixelSize(width: 1280, height: 720), PixelSize(width: 480, height: 270),
                      PixelSize(width: 320, height: 240), TestPattern.minimumSize])
    func keepsItsLumaBetween60And160SoNothingLooksLikeAStampOrBlack(size: PixelSize) throws {
        for frame in [0, 13, 47] {
            let values = outsideStamp(try YUVImage.pattern("ad15", size, frame: frame))
            #expect(values.min()! >= 60 && values.max()! <= 160)
        }
    }

    @Test func moves() throws {
        let a = try YUVImage.pattern("content", Self.size, frame: 10)
        let b = try YUVImage.pattern("content", Self.size, frame: 11)
        let pa = outsideStamp(a), pb = outsideStamp(b)
        let changed = zip(pa, pb).filter { $0 != $1 }.count
        // Scrolling bands change nearly every pixel from one frame to the next.
        #expect(changed * 2 > pa.count)
    }

    @Test func hasTexture() throws {
        let values = outsideStamp(try YUVImage.pattern("content", Self.size, frame: 0))
        #expect(Set(values).count > 50)
    }

    @Test func isTheSameEveryTimeAFrameIsDrawn() throws {
        let a = try YUVImage.pattern("ad5-a", Self.size, frame: 1234)
        let b = YUVImage(width: 640, height: 360, y: 99, u: 1, v: 2)
        try TestPattern(sourceID: "ad5-a", size: Self.size).draw(frame: 1234, luma: b.luma, cb: b.cb, cr: b.cr)
        #expect(a.data == b.data)
    }

    @Test func colourFollowsTheSourceID() throws {
        let corner = PixelRect(x: 0, y: 0, width: 4, height: 4)
        var hues: Set<[Double]> = []
        for id in ["content", "ad15", "ad5-a", "ad30"] {
            let image = try YUVImage.pattern(id, Self.size, frame: 0)
            hues.insert([image.cb.mean(of: corner)!, image.cr.mean(of: corner)!])
        }
        #expect(hues.count == 4)
    }

    @Test func stampsEveryFrameWithItsIndex() throws {
        let pattern = try TestPattern(sourceID: "ad30", size: Self.size)
        let image = YUVImage(width: 640, height: 360)
        for frame in 0..<60 {
            try pattern.draw(frame: frame, luma: image.luma, cb: image.cb, cr: image.cr)
            #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: Self.size))
                    == (try FrameStamp(sourceID: "ad30", frameIndex: frame)))
        }
    }

    @Test(arguments: [(641, 360), (640, 361), (106, 60), (108, 58), (0, 0), (-2, 100)])
    func refusesOddOrTooSmallSizes(width: Int, height: Int) {
        #expect(throws: TestSourceError.invalidPictureSize(width: width, height: height)) {
            try TestPattern(sourceID: "a", size: PixelSize(width: width, height: height))
        }
    }

    @Test func refusesFramesAStampCannotCarry() throws {
        let pattern = try TestPattern(sourceID: "a", size: Self.size)
        let image = YUVImage(width: 640, height: 360)
        #expect(throws: TestSourceError.frameIndexOutOfRange(1 << 25)) {
            try pattern.draw(frame: 1 << 25, luma: image.luma, cb: image.cb, cr: image.cr)
        }
        #expect(throws: TestSourceError.invalidSourceID("A")) { try TestPattern(sourceID: "A", size: Self.size) }
    }
}
