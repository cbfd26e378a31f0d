import MediaCore

/// Reads frame stamps back from decoded pictures.
///
/// A reader averages the centre of each cell and compares it with a threshold halfway between the stamp's own
/// white ring and black, so it tolerates blur, ringing, scaling with odd offsets and full-range decodes. It
/// returns `nil` rather than a wrong stamp: the ring must be white all round, the 84 bits must pass the CRC-16 and
/// spell a valid id. It touches about 130 small boxes of pixels per attempt, never whole rows.
enum StampReader {
    /// The stamp of the picture drawn at `picture` in `luma`, or `nil` when there is none there.
    ///
    /// `picture` may be off by a couple of pixels (a letterbox or PiP rectangle rounded differently from the
    /// scaler's): when the exact grid does not read, grids shifted by a quarter and a half cell are tried.
    static func read(luma: PlaneView, picture: PixelRect) -> FrameStamp? {
        guard picture.width > 0, picture.height > 0 else { return nil }
        return readNear(luma: luma, geometry: StampGeometry(picture: picture))?.stamp
    }

    /// Cell offsets tried around a grid, nearest first.
    private static let shifts: [(dx: Double, dy: Double)] = {
        let steps = [0.0, -0.25, 0.25, -0.5, 0.5]
        return steps.flatMap { dx in steps.map { dy in (dx, dy) } }
            .sorted { abs($0.0) + abs($0.1) < abs($1.0) + abs($1.1) }
    }()

    /// The stamp read on `geometry` or on a grid shifted by up to half a cell, with the grid that read.
    static func readNear(luma: PlaneView, geometry: StampGeometry) -> (stamp: FrameStamp, geometry: StampGeometry)? {
        for shift in shifts {
            var g = geometry
            g.x += shift.dx * g.cellWidth
            g.y += shift.dy * g.cellHeight
            if let stamp = readExactly(luma: luma, geometry: g) { return (stamp, g) }
        }
        return nil
    }

    /// Cells thinner than this (in pixels) are not read. After x264 at CRF 23, stamps read reliably down to
    /// cells of about 1.8 pixels (a 16:9 picture 96 pixels wide) and not at all below 1.6.
    static let minimumCellSize = 1.5

    /// The stamp read on exactly `geometry`, or `nil`.
    static func readExactly(luma: PlaneView, geometry g: StampGeometry) -> FrameStamp? {
        guard g.cellWidth >= minimumCellSize, g.cellHeight >= minimumCellSize,
              luma.bounds.contains(g.block) else { return nil }
        var ring = [Double]()
        ring.reserveCapacity(StampGeometry.ringCells.count)
        for cell in StampGeometry.ringCells {
            guard let m = luma.mean(of: g.sampleRect(column: cell.column, row: cell.row)) else { return nil }
            ring.append(m)
        }
        ring.sort()
        let white = ring[ring.count / 2]
        // Anything the pattern can draw (Y ≤ 160) is not a ring; decoders keep stamp white above 200.
        guard white >= 180 else { return nil }
        let threshold = (white + Double(StampLayout.black)) / 2
        let clearlyWhite = threshold + (white - Double(StampLayout.black)) / 4
        // Two ring cells may be hidden (an overlay edge, a compression artefact); more means no stamp here.
        guard ring[2] >= clearlyWhite else { return nil }
        var cells: UInt128 = 0
        for row in 0..<StampLayout.dataRows {
            for column in 0..<StampLayout.dataColumns {
                guard let m = luma.mean(of: g.sampleRect(column: column + 1, row: row + 1)) else { return nil }
                if m > threshold { cells |= UInt128(1) << (row * StampLayout.dataColumns + column) }
            }
        }
        return FrameStamp(bits: StampLayout.bits(fromCells: cells))
    }
}
