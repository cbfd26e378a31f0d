import MediaCore
import Testing

@Suite struct DisplayGeometryTests {
    @Test func theContainerSampleAspectWinsOverTheBitstreams() {
        let geometry = DisplayGeometry(codedSize: PixelSize(width: 640, height: 360), bitstreamSampleAspect: .one,
                                       containerSampleAspect: Rational(3, 4))
        #expect(geometry.sampleAspect == Rational(3, 4))
        #expect(geometry.displayAspect == Rational(4, 3))
        #expect(geometry.displaySize == PixelSize(width: 480, height: 360))
    }

    @Test func theBitstreamSampleAspectCountsWhenTheContainerStatesNone() {
        // A zero ratio is FFmpeg's "not stated".
        let geometry = DisplayGeometry(codedSize: PixelSize(width: 853, height: 480), bitstreamSampleAspect: Rational(32, 27),
                                       containerSampleAspect: .zero)
        #expect(geometry.containerSampleAspect == nil)
        #expect(geometry.sampleAspect == Rational(32, 27))
        // 853 × 32/27 = 1010.96: 1011 wide, 1010 for the canvas (even sides).
        #expect(geometry.displaySize == PixelSize(width: 1011, height: 480))
        #expect(geometry.canvasSize == PixelSize(width: 1010, height: 480))
    }

    @Test(arguments: [(90, true), (270, true), (180, false), (0, false)])
    func aQuarterTurnSwapsTheSides(rotation: Int, swaps: Bool) {
        let geometry = DisplayGeometry(codedSize: PixelSize(width: 320, height: 180),
                                       orientation: DisplayOrientation(rotation: rotation))
        #expect(geometry.displaySize == (swaps ? PixelSize(width: 180, height: 320) : PixelSize(width: 320, height: 180)))
        #expect(geometry.displayAspect == (swaps ? Rational(9, 16) : Rational(16, 9)))
    }

    @Test func rotationIsTakenModuloAFullTurn() {
        #expect(DisplayOrientation(rotation: -90) == DisplayOrientation(rotation: 270))
        #expect(DisplayOrientation(rotation: 450).rotation == 90)
    }

    /// Each corner of a 3x2 picture, followed by hand through each turn: the top-right pixel of the decoded picture
    /// is the top-left of a picture turned a quarter counterclockwise.
    @Test func sourcePixelsFollowTheTurn() {
        let decoded = PixelSize(width: 3, height: 2)
        func corners(_ o: DisplayOrientation) -> [[Int]] {
            let shown = o.turned(decoded)
            return [(0, 0), (shown.width - 1, 0), (0, shown.height - 1)].map { p in
                let s = o.source(x: p.0, y: p.1, shown: shown)
                return [s.x, s.y]
            }
        }
        #expect(corners(.upright) == [[0, 0], [2, 0], [0, 1]])
        #expect(corners(DisplayOrientation(rotation: 90)) == [[2, 0], [2, 1], [0, 0]])
        #expect(corners(DisplayOrientation(rotation: 180)) == [[2, 1], [0, 1], [2, 0]])
        #expect(corners(DisplayOrientation(rotation: 270)) == [[0, 1], [0, 0], [2, 1]])
        #expect(corners(DisplayOrientation(rotation: 0, mirrored: true)) == [[2, 0], [0, 0], [2, 1]])
        #expect(corners(DisplayOrientation(rotation: 90, mirrored: true)) == [[2, 1], [2, 0], [0, 1]])
    }
}
