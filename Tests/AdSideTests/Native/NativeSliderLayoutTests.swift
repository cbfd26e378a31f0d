@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// The slider's geometry in points, derived by hand for five default cards in a 393 pt wide slider.
@Suite struct NativeSliderLayoutTests {
    static func layout(width: Int = 393) throws -> NativeSliderLayout {
        let block = try NativeFixtures.block(NativeSliderRunTests.five)
        return NativeSliderLayout(origin: (0, 59), width: width, blockAssets: block.assets,
                                  cards: block.ads.enumerated().map { (index: $0.offset, ad: $0.element) },
                                  template: .default, measurer: MonospaceTextMeasurer())
    }

    @Test func theBlockLabelSitsAboveARowOfCardsEightPointsApart() throws {
        let layout = try Self.layout()
        // "Ads" at 12 pt type: 3 × 7.2 = 21.6 → 22 pt, one 16 pt line under the 12 pt padding; the row 8 pt below.
        #expect(layout.header.frames.map(\.rect) == [PointRect(x: 12, y: 12, width: 22, height: 16)])
        #expect(layout.rowY == 36)
        #expect(layout.frame == PointRect(x: 0, y: 59, width: 393, height: 36 + 304 + 12))
        #expect((0..<3).map { layout.cardRect($0, offset: .zero).x } == [Rational(12), Rational(340), Rational(668)])
    }

    @Test func positionsAreViewAlignedAndStopAtTheRowsEnd() throws {
        let layout = try Self.layout()
        // The row: 12 + 5 × 320 + 4 × 8 + 12 = 1656 pt, 1263 pt more than the viewport.
        #expect(layout.maximumOffset == 1263)
        #expect((0...5).map(layout.offset(ofPosition:)) == [0, 328, 656, 984, 1263, 1263])
        #expect(layout.lastPosition == 4)
        // A wide screen shows the whole row: nothing to scroll.
        #expect(try Self.layout(width: 2000).maximumOffset == 0)
    }

    @Test func theVisibleShareIsExactAtAnyOffset() throws {
        let layout = try Self.layout()
        let display = PointRect(x: 0, y: 0, width: 393, height: 852)
        #expect(layout.visibleFraction(0, offset: .zero, within: display) == .one)
        // Card 1 spans 340…660 pt: 53 of its 320 pt are inside the 393 pt viewport.
        #expect(layout.visibleFraction(1, offset: .zero, within: display) == Rational(53, 320))
        // Half a point of offset moves the share by exactly 1/640.
        #expect(layout.visibleFraction(1, offset: Rational(1, 2), within: display) == Rational(107, 640))
        // A window that ends 100 pt into the card (y 95…399) leaves 100/304 of its height.
        #expect(layout.visibleFraction(0, offset: .zero, within: PointRect(x: 0, y: 0, width: 393, height: 195)) == Rational(100, 304))
    }
}
