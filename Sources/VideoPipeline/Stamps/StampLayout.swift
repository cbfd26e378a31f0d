import MediaCore

/// Where a frame stamp sits on its picture and how its bits become cells.
///
/// The stamp is a block of 14 × 9 cells centred on the picture: a white ring one cell thick around 12 × 7 data
/// cells, each black (Y=16) or white (Y=235). A cell is 1/54 of the picture's width and 1/30 of its height, so the
/// stamp scales with the picture and covers 26% × 30% of it (x from 37% to 63%), clear of a picture-in-picture
/// window a third of the picture wide in any corner, with a margin of up to 3.7% of the width. The moving test
/// pattern never goes below Y=60 or above Y=160, so a white ring is always a stamp, and black is always
/// background (letterbox bars, the dark around a PiP window).
///
/// The 84 bits are: the source id (43 bits: base 39, one digit per character, 0 for none), the frame index (25
/// bits) and a CRC-16/CCITT-FALSE of both (16 bits).
///
/// Data cell `i` (row-major, top left first) shows bit `i` of `FrameStamp.bits` XOR a fixed whitening mask, so
/// that no stamp is mostly black or mostly white.
enum StampLayout {
    static let dataColumns = 12
    static let dataRows = 7
    static let blockColumns = dataColumns + 2
    static let blockRows = dataRows + 2
    /// Cells across the picture's width and down its height.
    static let cellsAcross = 54.0
    static let cellsDown = 30.0
    /// The block's top left corner, in cells from the picture's top left.
    static let blockOriginX = (cellsAcross - Double(blockColumns)) / 2
    static let blockOriginY = (cellsDown - Double(blockRows)) / 2

    static let black: UInt8 = 16
    static let white: UInt8 = 235
    static let neutralChroma: UInt8 = 128

    /// XORed with the bits before drawing: balances black and white cells whatever the id and index.
    static let whitening: UInt128 = 0x9_B4E3_1C5A_D2F0_6A97_3C2B

    /// The state (white or not) of each data cell for `bits`, in cell order.
    static func cells(for bits: UInt128) -> UInt128 {
        (bits ^ whitening) & ((UInt128(1) << FrameStamp.totalBits) - 1)
    }

    /// The bits shown by data cells in state `cells`.
    static func bits(fromCells state: UInt128) -> UInt128 { cells(for: state) }
}

/// The stamp block of one picture in pixel coordinates, with fractional cell sizes.
///
/// Built either from the picture's rectangle (drawing, or reading where the caller knows the picture) or from the
/// block's own outline found on screen (`StampReader.locate`), from which the picture's rectangle follows.
struct StampGeometry: Equatable {
    /// The block's top left corner and the size of one cell, in pixels (pixel `k` covers `[k, k+1)`).
    var x: Double
    var y: Double
    var cellWidth: Double
    var cellHeight: Double

    init(x: Double, y: Double, cellWidth: Double, cellHeight: Double) {
        self.x = x
        self.y = y
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }

    init(picture: PixelRect) {
        cellWidth = Double(picture.width) / StampLayout.cellsAcross
        cellHeight = Double(picture.height) / StampLayout.cellsDown
        x = Double(picture.x) + StampLayout.blockOriginX * cellWidth
        y = Double(picture.y) + StampLayout.blockOriginY * cellHeight
    }

    /// The picture this block belongs to, rounded to whole pixels.
    var picture: PixelRect {
        let w = cellWidth * StampLayout.cellsAcross, h = cellHeight * StampLayout.cellsDown
        let px = x - StampLayout.blockOriginX * cellWidth, py = y - StampLayout.blockOriginY * cellHeight
        return PixelRect(x: Int(px.rounded()), y: Int(py.rounded()),
                         width: Int((px + w).rounded()) - Int(px.rounded()),
                         height: Int((py + h).rounded()) - Int(py.rounded()))
    }

    /// The block's outline, rounded to whole pixels.
    var block: PixelRect {
        let x0 = Int(x.rounded()), y0 = Int(y.rounded())
        return PixelRect(x: x0, y: y0,
                         width: Int((x + cellWidth * Double(StampLayout.blockColumns)).rounded()) - x0,
                         height: Int((y + cellHeight * Double(StampLayout.blockRows)).rounded()) - y0)
    }

    /// The pixels of block cell (`column`, `row`), edges rounded so that neighbouring cells tile exactly.
    func cellRect(column: Int, row: Int) -> PixelRect {
        let x0 = Int((x + Double(column) * cellWidth).rounded())
        let x1 = Int((x + Double(column + 1) * cellWidth).rounded())
        let y0 = Int((y + Double(row) * cellHeight).rounded())
        let y1 = Int((y + Double(row + 1) * cellHeight).rounded())
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The central part of block cell (`column`, `row`) that a reader averages: 40% of the cell each way, at
    /// least the one pixel nearest its centre. Away from the edges, it stays inside the cell under blur, ringing
    /// and a position error of a quarter of a cell.
    func sampleRect(column: Int, row: Int) -> PixelRect {
        let cx = x + (Double(column) + 0.5) * cellWidth, cy = y + (Double(row) + 0.5) * cellHeight
        let h = StampGeometry.centralSpan(cx, cellWidth), v = StampGeometry.centralSpan(cy, cellHeight)
        return PixelRect(x: h.start, y: v.start, width: h.count, height: v.count)
    }

    /// The pixels whose centres lie within 20% of a cell of `centre`, or the one nearest it.
    private static func centralSpan(_ centre: Double, _ cell: Double) -> (start: Int, count: Int) {
        let half = 0.2 * cell
        let first = Int((centre - half - 0.5).rounded(.up))
        let last = Int((centre + half - 0.5).rounded(.down))
        if last < first { return (Int(centre.rounded(.down)), 1) }
        return (first, last - first + 1)
    }

    /// The ring cells (column, row), clockwise from the top left.
    static let ringCells: [(column: Int, row: Int)] = {
        let c = StampLayout.blockColumns, r = StampLayout.blockRows
        var cells: [(Int, Int)] = []
        for i in 0..<c { cells.append((i, 0)) }
        for j in 1..<r { cells.append((c - 1, j)) }
        for i in stride(from: c - 2, through: 0, by: -1) { cells.append((i, r - 1)) }
        for j in stride(from: r - 2, through: 1, by: -1) { cells.append((0, j)) }
        return cells
    }()
}
