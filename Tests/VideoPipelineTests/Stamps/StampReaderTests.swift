import MediaCore
import Testing
@testable import VideoPipeline

/// Reading stamps from pictures as drawn (no encoder): round trips, refusals, damage and imprecise rectangles.
@Suite struct StampReaderTests {
    static let sizes = [PixelSize(width: 640, height: 360), PixelSize(width: 1280, height: 720),
                        PixelSize(width: 360, height: 640), PixelSize(width: 480, height: 270),
                        PixelSize(width: 320, height: 240), TestPattern.minimumSize]

    @Test(arguments: sizes)
    func readsBackWhatWasDrawn(size: PixelSize) throws {
        let ids = ["content", "ad15", "ad5-a", "x", "12345678", "--__--__"]
        let indexes = [0, 1, 30, 1799, 65_535, 9_999_999, FrameStamp.frameIndexLimit - 1]
        let image = YUVImage(width: size.width, height: size.height)
        for id in ids {
            for index in indexes {
                try TestPattern(sourceID: id, size: size).draw(frame: index, luma: image.luma, cb: image.cb,
                                                               cr: image.cr)
                let expected = try FrameStamp(sourceID: id, frameIndex: index)
                #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: size)) == expected)
                #expect(StampReader.locate(luma: image.luma)?.stamp == expected)
            }
        }
    }

    @Test func writerNeutralisesTheChromaUnderTheStamp() throws {
        let image = try YUVImage.pattern("ad15", PixelSize(width: 640, height: 360), frame: 3)
        let block = StampGeometry(picture: PixelRect(size: image.size)).block
        let chroma = PixelRect(x: block.x / 2, y: block.y / 2, width: block.width / 2, height: block.height / 2)
        #expect(image.cb.mean(of: chroma) == 128 && image.cr.mean(of: chroma) == 128)
        let outside = PixelRect(x: chroma.x - 4, y: chroma.y, width: 2, height: 2)
        #expect(image.cb.mean(of: outside) != 128)
    }

    // MARK: Refusals

    static func unstamped() throws -> [(String, YUVImage)] {
        let size = PixelSize(width: 640, height: 360)
        let noise = YUVImage(width: 640, height: 360)
        noise.fillWithNoise(seed: 7)
        let checker = YUVImage(width: 640, height: 360)
        for y in 0..<360 { for x in 0..<640 { checker.luma[x, y] = ((x / 8 + y / 8) % 2 == 0) ? 16 : 235 } }
        let white = YUVImage(width: 640, height: 360, y: 235)
        // A white ring with nothing valid inside: the data cells of a stamp, each inverted.
        let hollow = try YUVImage.pattern("ad15", size, frame: 9)
        let g = StampGeometry(picture: PixelRect(size: size))
        for row in 1...StampLayout.dataRows {
            for column in 1...StampLayout.dataColumns {
                let cell = g.cellRect(column: column, row: row)
                let white = hollow.luma.mean(of: cell)! > 128
                hollow.luma.fill(cell, with: white ? StampLayout.black : StampLayout.white)
            }
        }
        return [
            ("noise", noise), ("flat grey", YUVImage(width: 640, height: 360, y: 126)),
            ("black", YUVImage(width: 640, height: 360)), ("white", white), ("checkerboard", checker),
            ("pattern without stamp", try YUVImage.pattern("ad15", size, frame: 5, stamped: false)),
            ("inverted data", hollow),
        ]
    }

    @Test func refusesPicturesWithoutAStamp() throws {
        for (name, image) in try Self.unstamped() {
            #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: image.size)) == nil, "\(name)")
            #expect(StampReader.locate(luma: image.luma) == nil, "\(name)")
            #expect(StampReader.locateAll(luma: image.luma).isEmpty, "\(name)")
        }
    }

    @Test func refusesAStampWithAnyDataCellFlipped() throws {
        let size = PixelSize(width: 640, height: 360)
        let g = StampGeometry(picture: PixelRect(size: size))
        for row in 1...StampLayout.dataRows {
            for column in 1...StampLayout.dataColumns {
                let image = try YUVImage.pattern("content", size, frame: 77)
                let cell = g.cellRect(column: column, row: row)
                let white = image.luma.mean(of: cell)! > 128
                image.luma.fill(cell, with: white ? StampLayout.black : StampLayout.white)
                #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: size)) == nil,
                        "cell \(column), \(row)")
            }
        }
    }

    @Test func refusesAStampWhoseRingIsCovered() throws {
        let size = PixelSize(width: 640, height: 360)
        let image = try YUVImage.pattern("content", size, frame: 77)
        let g = StampGeometry(picture: PixelRect(size: size))
        // A third of the top edge under something else: more ring cells than the reader tolerates.
        for column in 0..<5 { image.luma.fill(g.cellRect(column: column, row: 0), with: 100) }
        #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: size)) == nil)
    }

    // MARK: Imprecise rectangles and levels

    @Test(arguments: [PixelSize(width: 640, height: 360), PixelSize(width: 320, height: 240),
                      PixelSize(width: 214, height: 120)])
    func readsWithTheRectangleOffByUpToTwoPixels(size: PixelSize) throws {
        let picture = PixelRect(x: 40, y: 30, width: size.width, height: size.height)
        let image = YUVImage(width: size.width + 80, height: size.height + 60)
        try image.drawPattern("ad15", frame: 321, in: picture)
        let expected = try FrameStamp(sourceID: "ad15", frameIndex: 321)
        for dx in -2...2 {
            for dy in -2...2 {
                for (dw, dh) in [(0, 0), (2, 0), (0, -2), (-2, 2), (dx, dy)] {
                    let guess = PixelRect(x: picture.x + dx, y: picture.y + dy,
                                          width: picture.width + dw, height: picture.height + dh)
                    #expect(StampReader.read(luma: image.luma, picture: guess) == expected, "\(guess)")
                }
            }
        }
    }

    @Test func readsFullRangeLevels() throws {
        let image = try YUVImage.pattern("ad5-a", PixelSize(width: 480, height: 270), frame: 12)
        for y in 0..<270 {
            for x in 0..<480 {
                image.luma[x, y] = UInt8(max(0, min(255, (Int(image.luma[x, y]) - 16) * 255 / 219)))
            }
        }
        #expect(StampReader.read(luma: image.luma, picture: PixelRect(size: image.size))
                == (try FrameStamp(sourceID: "ad5-a", frameIndex: 12)))
    }

    // MARK: Locating

    @Test func locatesALetterboxedAndAPillarboxedPictureExactly() throws {
        let screen = PixelRect(x: 0, y: 0, width: 640, height: 360)
        for (aspect, id) in [(Rational(21, 9), "wide"), (Rational(9, 16), "tall"), (Rational(4, 3), "tv")] {
            // Even sides, as the test pattern needs (the compositor's own fit of 9:16 is 203 wide).
            let fitted = screen.fitting(aspect: aspect)
            let picture = PixelRect(x: fitted.x & ~1, y: fitted.y & ~1, width: fitted.width & ~1, height: fitted.height & ~1)
            let image = YUVImage(width: 640, height: 360)
            try image.drawPattern(id, frame: 58, in: picture)
            let found = StampReader.locate(luma: image.luma)
            #expect(found?.stamp == (try FrameStamp(sourceID: id, frameIndex: 58)))
            #expect(found?.picture == picture)
        }
    }

    @Test(arguments: [YUVColor.black, YUVColor.slate])
    func locatesAPictureInPictureWindowOverADarkBackdropExactly(backdrop: YUVColor) throws {
        let window = PixelRect(x: 412, y: 226, width: 214, height: 120)
        let image = YUVImage(width: 640, height: 360, y: backdrop.y, u: backdrop.u, v: backdrop.v)
        try image.drawPattern("ad15", frame: 3, in: window)
        #expect(StampReader.nonBlackBounds(image.luma) == window)
        let found = StampReader.locate(luma: image.luma)
        #expect(found?.stamp == (try FrameStamp(sourceID: "ad15", frameIndex: 3)))
        #expect(found?.picture == window)
    }

    @Test func boundsLeaveOutARingingLineAlongThePictureEdge() throws {
        let window = PixelRect(x: 400, y: 200, width: 214, height: 120)
        let slate = YUVColor.slate
        let image = YUVImage(width: 640, height: 360, y: slate.y, u: slate.u, v: slate.v)
        try image.drawPattern("ad15", frame: 3, in: window)
        // What an encoder leaves below and to the right of the picture: the backdrop lifted a little.
        image.luma.fill(PixelRect(x: window.x, y: window.maxY, width: window.width, height: 1), with: slate.y + 14)
        image.luma.fill(PixelRect(x: window.maxX, y: window.y, width: 1, height: window.height), with: slate.y + 12)
        #expect(StampReader.nonBlackBounds(image.luma) == window)
        #expect(StampReader.locate(luma: image.luma)?.picture == window)
    }

    @Test func locatesEveryPictureOfAComposition() throws {
        let image = YUVImage(width: 1280, height: 720)
        try image.drawPattern("content", frame: 900, in: PixelRect(x: 0, y: 0, width: 1280, height: 720))
        let windows = [PixelRect(x: 24, y: 24, width: 426, height: 240),
                       PixelRect(x: 830, y: 456, width: 426, height: 240)]
        try image.drawPattern("ad5-a", frame: 17, in: windows[0])
        try image.drawPattern("ad15", frame: 4, in: windows[1])
        let found = StampReader.locateAll(luma: image.luma)
        #expect(found.map(\.stamp) == [try FrameStamp(sourceID: "ad5-a", frameIndex: 17),
                                       try FrameStamp(sourceID: "content", frameIndex: 900),
                                       try FrameStamp(sourceID: "ad15", frameIndex: 4)])
        let rects = found.map(\.picture)
        #expect(rects.count == 3)
        if rects.count == 3 {
            #expect(rects[1] == PixelRect(x: 0, y: 0, width: 1280, height: 720))
            for (got, want) in zip([rects[0], rects[2]], windows) {
                #expect(abs(got.x - want.x) <= 1 && abs(got.y - want.y) <= 1
                        && abs(got.maxX - want.maxX) <= 1 && abs(got.maxY - want.maxY) <= 1, "\(got) for \(want)")
            }
        }
        #expect(StampReader.locate(luma: image.luma)?.stamp == (try FrameStamp(sourceID: "content", frameIndex: 900)))
    }
}
