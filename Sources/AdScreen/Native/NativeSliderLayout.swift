import AdPlayback
import MediaCore

/// The slider in points: the block's own assets above a horizontal row of cards 8 pt apart, scrolled by a
/// horizontal offset; a pure function of the slider's frame, the bound cards and the offset.
///
/// Positions are view-aligned: position `k` puts card `k`'s leading edge at the row's leading inset, except
/// that the row never scrolls past its last card (the last position shows the end of the row).
public struct NativeSliderLayout: Hashable, Sendable {
    /// One card in the row: its index in the response's `ads`, its ad id and its layout.
    public struct Card: Hashable, Sendable {
        public let index: Int
        public let ad: String
        public let layout: NativeCardLayout
    }

    /// The gap between two cards, in points (the guide's 8).
    public static let cardSpacing = 8
    /// How long a swipe animates the offset, linearly, on the output clock: 3/10 s (UIKit's default animation
    /// is 0.3 s; linear keeps every intermediate offset an exact rational).
    public static let swipeDuration = MediaDuration(seconds: Rational(3, 10))

    /// The slider's rectangle on the display, in points: its width is the viewport cards are seen through.
    public let frame: PointRect
    /// The block assets' layout (relative to the slider's top left).
    public let header: NativeCardLayout
    public let cards: [Card]
    /// Where the row of cards starts, relative to the slider's top.
    public let rowY: Int
    public let inset: Int
    public let cardWidth: Int

    /// Lays out `block`'s assets and `cards` (already bound, in row order) in a slider of `width` points at `origin`.
    public init(origin: (x: Int, y: Int), width: Int, blockAssets: [NativeAsset], cards: [(index: Int, ad: NativeAd)],
                template: NativeCardTemplate, measurer: any TextMeasurer) {
        inset = template.padding
        let cardWidth = max(0, min(template.width, width - 2 * template.padding))
        self.cardWidth = cardWidth
        // The block's assets: its sponsored label (and any other text) on the row under the padding, cut to the width.
        let headerTemplate = NativeCardTemplate(slots: [.sponsored, .domain, .age, .title], width: width, padding: template.padding,
                                                spacing: 0, iconSize: 0, feedbackSize: 0, titleLines: 1,
                                                rowFontSize: template.rowFontSize)
        header = blockAssets.isEmpty ? NativeCardLayout(assets: [], template: headerTemplate, availableWidth: 0, measurer: measurer)
            : NativeCardLayout(assets: blockAssets, template: headerTemplate, availableWidth: width, measurer: measurer)
        let headerBottom = header.frames.map(\.rect.maxY).max() ?? 0
        rowY = headerBottom > 0 ? headerBottom + template.spacing : template.padding
        self.cards = cards.map { Card(index: $0.index, ad: $0.ad.id,
                                      layout: NativeCardLayout(ad: $0.ad, template: template, availableWidth: cardWidth, measurer: measurer)) }
        let rowHeight = self.cards.map(\.layout.size.height).max() ?? 0
        frame = PointRect(x: origin.x, y: origin.y, width: width, height: rowY + rowHeight + template.padding)
    }

    /// The offset that scrolls as far as the row allows: the row's length past the viewport.
    public var maximumOffset: Int {
        let row = 2 * inset + cards.count * cardWidth + max(0, cards.count - 1) * Self.cardSpacing
        return max(0, row - frame.width)
    }

    /// The offset of view-aligned position `position` (clamped to the cards).
    public func offset(ofPosition position: Int) -> Int {
        min(max(0, min(position, cards.count - 1)) * (cardWidth + Self.cardSpacing), maximumOffset)
    }

    /// The last position that still moves the row: later positions show the same end.
    public var lastPosition: Int {
        guard cardWidth + Self.cardSpacing > 0 else { return 0 }
        return (0..<max(1, cards.count)).first { offset(ofPosition: $0) == maximumOffset } ?? 0
    }

    /// Card `row`'s rectangle on the display at `offset`, in exact points (x may be fractional mid-animation).
    public func cardRect(_ row: Int, offset: Rational) -> (x: Rational, y: Int, width: Int, height: Int) {
        let x = Rational(Int64(frame.x + inset + row * (cardWidth + Self.cardSpacing))) - offset
        let size = cards[row].layout.size
        return (x, frame.y + rowY, size.width, size.height)
    }

    /// The share of card `row`'s area (or of `part` of it, relative to the card's top left) inside the slider's
    /// viewport and `bounds` (its scene's window) at `offset`; 0 for a card (or part) of zero size.
    public func visibleFraction(_ row: Int, of part: PointRect? = nil, offset: Rational, within bounds: PointRect) -> Rational {
        let card = cardRect(row, offset: offset)
        let r = part.map { (x: card.x + Rational(Int64($0.x)), y: card.y + $0.y, width: $0.width, height: $0.height) } ?? card
        guard r.width > 0, r.height > 0 else { return .zero }
        let left = Rational.max(r.x, Rational(Int64(max(frame.x, bounds.x))))
        let right = Rational.min(r.x + Rational(Int64(r.width)), Rational(Int64(min(frame.maxX, bounds.maxX))))
        let top = max(r.y, bounds.y), bottom = min(r.y + r.height, bounds.maxY)
        guard right > left, bottom > top else { return .zero }
        return (right - left) * Rational(Int64(bottom - top)) / Rational(Int64(r.width * r.height))
    }
}

extension PointScale {
    /// The even pixel nearest to `points × scale` for an exact, possibly fractional, point edge.
    public func pixels(exactly points: Rational) -> Int {
        2 * Int((points * pixelsPerPoint / Rational(2)).rounded)
    }
}
