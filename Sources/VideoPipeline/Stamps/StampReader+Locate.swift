import MediaCore

extension StampReader {
    /// Luma above this is picture, not background: the pattern never goes below 60, while bars are black (16)
    /// and the compositor's dark slate PiP backdrop (`YUVColor.slate`) is 43.
    static let backgroundCeiling: UInt8 = 52
    /// Luma at or above this is stamp white: the pattern never goes above 160.
    static let ringFloor: UInt8 = 190

    /// Finds a stamped picture anywhere in `luma` when nothing is known about where it was drawn.
    ///
    /// Tries, in order: the whole frame; the bounding box of what is brighter than a dark background (a
    /// letterboxed or pillarboxed picture, or a PiP window over black or the slate backdrop); then a search for the stamp's white ring anywhere (a
    /// picture inside another, such as a PiP window over content). In the first two cases the rectangle is exact;
    /// in the last it is derived from the ring's outline, within about 2 pixels.
    ///
    /// - Returns: the stamp and the rectangle of the picture that carries it, or `nil` when no stamp reads.
    static func locate(luma: PlaneView) -> (stamp: FrameStamp, picture: PixelRect)? {
        if let stamp = read(luma: luma, picture: luma.bounds) { return (stamp, luma.bounds) }
        if let box = nonBlackBounds(luma), box != luma.bounds, let stamp = read(luma: luma, picture: box) {
            return (stamp, box)
        }
        return locateAll(luma: luma).first
    }

    /// Every stamped picture whose white ring shows in `luma` (a main picture and a PiP window, say), top to bottom.
    ///
    /// Scans every row for white runs as wide as a ring's top or bottom edge, checks that white columns of
    /// equal height hang at both ends, measures the ring's edges to a fraction of a pixel and reads inside. Costs
    /// one pass over the rows plus a few reads per candidate.
    static func locateAll(luma: PlaneView) -> [(stamp: FrameStamp, picture: PixelRect)] {
        var found: [(stamp: FrameStamp, picture: PixelRect, block: PixelRect)] = []
        var rejected: [PixelRect] = []
        let minRun = Int(minimumCellSize * Double(StampLayout.blockColumns))
        for y in 0..<luma.height {
            let row = luma.row(y)
            var x = 0
            while x < luma.width {
                guard row[x] >= ringFloor else { x += 1; continue }
                let start = x
                while x < luma.width, row[x] >= ringFloor { x += 1 }
                let run = PixelRect(x: start, y: y, width: x - start, height: 1)
                guard run.width >= minRun, !found.contains(where: { $0.block.intersects(run) }),
                      let block = ringOutline(luma: luma, runStart: start, runEnd: x, y: y),
                      !rejected.contains(block) else { continue }
                let rough = StampGeometry(
                    x: Double(block.x), y: Double(block.y),
                    cellWidth: Double(block.width) / Double(StampLayout.blockColumns),
                    cellHeight: Double(block.height) / Double(StampLayout.blockRows))
                let refined = refine(rough, luma: luma)
                if let hit = readNear(luma: luma, geometry: refined) ?? readNear(luma: luma, geometry: rough) {
                    // Blur can make a later row's run start a pixel outside this outline: cover a cell around it.
                    let mx = Int(rough.cellWidth) + 1, my = Int(rough.cellHeight) + 1
                    let margin = PixelRect(x: block.x - mx, y: block.y - my,
                                           width: block.width + 2 * mx, height: block.height + 2 * my)
                    found.append((hit.stamp, snap(hit.geometry.picture, luma: luma, stamp: hit.stamp), margin))
                } else {
                    rejected.append(block)
                }
            }
        }
        return found.map { ($0.stamp, $0.picture) }
    }

    /// The white block whose top or bottom edge the white run `runStart..<runEnd` on row `y` would be: white
    /// columns of one height must hang at both ends of the run, and the shape must be one a stamp can take.
    private static func ringOutline(luma: PlaneView, runStart: Int, runEnd: Int, y: Int) -> PixelRect? {
        let inset = max(0, (runEnd - runStart) / (2 * StampLayout.blockColumns))
        guard let left = tallestWhiteSpan(luma: luma, near: runStart + inset, y: y),
              let right = tallestWhiteSpan(luma: luma, near: runEnd - 1 - inset, y: y),
              abs(left.lowerBound - right.lowerBound) <= 2, abs(left.upperBound - right.upperBound) <= 2 else {
            return nil
        }
        let top = min(left.lowerBound, right.lowerBound), bottom = max(left.upperBound, right.upperBound)
        let block = PixelRect(x: runStart, y: top, width: runEnd - runStart, height: bottom - top)
        // A cell is 1/54 of the width by 1/30 of the height: its aspect follows the picture's (9:16 to 21:9 and
        // a margin either way).
        let cellAspect = (Double(block.width) / Double(StampLayout.blockColumns))
            / (Double(block.height) / Double(StampLayout.blockRows))
        guard Double(block.height) >= minimumCellSize * Double(StampLayout.blockRows),
              (0.2...2.5).contains(cellAspect) else { return nil }
        return block
    }

    /// The tallest white stretch through row `y` in column `x` or a neighbour: with cells two or three pixels
    /// wide, blur leaves only one column of the ring solidly white, and the run's ends are a pixel uncertain.
    private static func tallestWhiteSpan(luma: PlaneView, near x: Int, y: Int) -> Range<Int>? {
        [x, x - 1, x + 1].compactMap { whiteSpan(luma: luma, x: $0, y: y) }.max { $0.count < $1.count }
    }

    /// The rows `top..<bottom` of the white stretch through (`x`, `y`) in column `x`.
    private static func whiteSpan(luma: PlaneView, x: Int, y: Int) -> Range<Int>? {
        guard x >= 0, x < luma.width, luma[x, y] >= ringFloor else { return nil }
        var top = y, bottom = y + 1
        while top > 0, luma[x, top - 1] >= ringFloor { top -= 1 }
        while bottom < luma.height, luma[x, bottom] >= ringFloor { bottom += 1 }
        return top..<bottom
    }

    /// `rough` with its outline moved onto the ring's measured outer edges (where luma crosses halfway between
    /// the ring and the picture outside it), each edge the median of one measurement per cell along it.
    static func refine(_ rough: StampGeometry, luma: PlaneView) -> StampGeometry {
        let g = rough, columns = StampLayout.blockColumns, rows = StampLayout.blockRows
        let right = g.x + Double(columns) * g.cellWidth, bottom = g.y + Double(rows) * g.cellHeight
        // Across the ring from the middle of its band to a cell outside, at the middle of each cell along the
        // edge (corners left out).
        func edge(cells: Int, first: Double, cell: Double, horizontal: Bool, from: Double, to: Double) -> Double? {
            let values = (1..<(cells - 1)).compactMap { i in
                edgeCrossing(luma: luma, fixed: first + (Double(i) + 0.5) * cell, from: from, to: to,
                             horizontal: horizontal)
            }.sorted()
            return values.isEmpty ? nil : values[values.count / 2]
        }
        let halfWidth = g.cellWidth / 2, halfHeight = g.cellHeight / 2
        guard let l = edge(cells: rows, first: g.y, cell: g.cellHeight, horizontal: true,
                           from: g.x + halfWidth, to: g.x - g.cellWidth),
              let r = edge(cells: rows, first: g.y, cell: g.cellHeight, horizontal: true,
                           from: right - halfWidth, to: right + g.cellWidth),
              let t = edge(cells: columns, first: g.x, cell: g.cellWidth, horizontal: false,
                           from: g.y + halfHeight, to: g.y - g.cellHeight),
              let b = edge(cells: columns, first: g.x, cell: g.cellWidth, horizontal: false,
                           from: bottom - halfHeight, to: bottom + g.cellHeight),
              r > l, b > t
        else { return rough }
        return StampGeometry(x: l, y: t, cellWidth: (r - l) / Double(columns), cellHeight: (b - t) / Double(rows))
    }

    /// Where luma falls from white (at `from`) to the level outside (at `to`) along one row (`horizontal`, at
    /// row `fixed`) or one column, interpolated between pixel centres; `nil` when it never does.
    private static func edgeCrossing(luma: PlaneView, fixed: Double, from: Double, to: Double,
                                     horizontal: Bool) -> Double? {
        let f = Int(fixed.rounded(.down))
        let a = Int(from.rounded(.down)), b = Int(to.rounded(.down))
        let limit = horizontal ? luma.width : luma.height
        guard f >= 0, f < (horizontal ? luma.height : luma.width), a >= 0, a < limit else { return nil }
        let end = min(max(b, 0), limit - 1)
        func value(_ p: Int) -> Double { Double(horizontal ? luma[p, f] : luma[f, p]) }
        let level = (value(a) + value(end)) / 2
        guard value(a) - value(end) > 40 else { return nil }
        let step = end > a ? 1 : -1
        var p = a
        while p != end {
            let q = p + step
            let vp = value(p), vq = value(q)
            if vq < level {
                // Pixel centres are at k + 0.5; the edge lies where the line between them crosses the level.
                let t = (vp - level) / (vp - vq)
                return Double(p) + 0.5 + Double(step) * t
            }
            p = q
        }
        return nil
    }

    /// `rect` replaced by the whole frame or by the non-black bounding box when it lies within 3 pixels of one of
    /// them on every side and the stamp reads there too: those are exact where the ring's outline is not.
    private static func snap(_ rect: PixelRect, luma: PlaneView, stamp: FrameStamp) -> PixelRect {
        for candidate in [luma.bounds, nonBlackBounds(luma)].compactMap({ $0 }) {
            let close = abs(candidate.x - rect.x) <= 3 && abs(candidate.y - rect.y) <= 3
                && abs(candidate.maxX - rect.maxX) <= 3 && abs(candidate.maxY - rect.maxY) <= 3
            if close, read(luma: luma, picture: candidate) == stamp { return candidate }
        }
        return rect
    }

    /// The smallest rectangle holding every pixel brighter than a dark background (two in a row, so a stray speck
    /// of noise in a bar does not count), or `nil` when the frame is all background.
    static func nonBlackBounds(_ luma: PlaneView) -> PixelRect? {
        func isPicture(_ row: UnsafeMutablePointer<UInt8>, _ x: Int) -> Bool {
            row[x] > backgroundCeiling && row[x + 1] > backgroundCeiling
        }
        guard luma.width >= 2 else { return nil }
        var top: Int?, bottom = 0, left = luma.width, right = 0
        for y in 0..<luma.height {
            let row = luma.row(y)
            var x = 0
            while x < luma.width - 1, !isPicture(row, x) { x += 1 }
            guard x < luma.width - 1 else { continue }
            if top == nil { top = y }
            bottom = y + 1
            left = min(left, x)
            var e = luma.width - 2
            while e > x, !isPicture(row, e) { e -= 1 }
            right = max(right, e + 2)
        }
        guard let top else { return nil }
        return trimmingRinging(PixelRect(x: left, y: top, width: right - left, height: bottom - top), luma: luma)
    }

    /// `box` without an outermost row or column that looks more like the background beyond it than like the
    /// picture within: the encoder's ringing along a picture's edge can lift a line of a grey backdrop just above
    /// `backgroundCeiling`.
    private static func trimmingRinging(_ box: PixelRect, luma: PlaneView) -> PixelRect {
        var b = box
        func mean(_ r: PixelRect) -> Double? { luma.bounds.contains(r) ? luma.mean(of: r) : nil }
        func isRinging(edge: PixelRect, inner: PixelRect, outer: PixelRect) -> Bool {
            guard let e = mean(edge), let i = mean(inner), let o = mean(outer) else { return false }
            return abs(e - o) < abs(e - i)
        }
        let row = { (y: Int) in PixelRect(x: b.x, y: y, width: b.width, height: 1) }
        let column = { (x: Int) in PixelRect(x: x, y: b.y, width: 1, height: b.height) }
        if b.height > 2, isRinging(edge: row(b.y), inner: row(b.y + 1), outer: row(b.y - 1)) {
            b.y += 1
            b.height -= 1
        }
        if b.height > 2, isRinging(edge: row(b.maxY - 1), inner: row(b.maxY - 2), outer: row(b.maxY)) {
            b.height -= 1
        }
        if b.width > 2, isRinging(edge: column(b.x), inner: column(b.x + 1), outer: column(b.x - 1)) {
            b.x += 1
            b.width -= 1
        }
        if b.width > 2, isRinging(edge: column(b.maxX - 1), inner: column(b.maxX - 2), outer: column(b.maxX)) {
            b.width -= 1
        }
        return b
    }
}

extension PixelRect {
    /// Whether the two rectangles share at least one pixel.
    fileprivate func intersects(_ other: PixelRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}
