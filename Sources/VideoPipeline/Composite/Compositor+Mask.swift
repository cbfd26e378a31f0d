import MediaCore

extension Compositor {
    /// Blends `color` into the canvas through `mask`, its top-left at `rect`'s, cut to `rect` and the canvas.
    ///
    /// Luma is blended pixel by pixel. A chroma sample covers 2x2 luma pixels, so it is blended by the mean of
    /// their four coverages (pixels outside the mask count as uncovered): what subsampling the blended 4:4:4
    /// screen would give, the rule pictures follow at their odd edges.
    /// - Parameter clip: the only part of the canvas it may touch, if any.
    /// - Returns: the part of the canvas the mask could touch.
    @discardableResult
    public func blend(_ mask: CoverageMask, color: YUVColor, in rect: PixelRect, clip: PixelRect? = nil) throws(MediaError) -> PixelRect {
        let reach = PixelRect(x: rect.x, y: rect.y, width: min(rect.width, mask.size.width), height: min(rect.height, mask.size.height))
        let area = clipped(clip.map { reach.intersection($0) } ?? reach)
        guard area.width > 0, area.height > 0 else { return area }
        try ensureWritable()
        func coverage(_ x: Int, _ y: Int) -> Int {
            area.x <= x && x < area.maxX && area.y <= y && y < area.maxY ? Int(mask[x - rect.x, y - rect.y]) : 0
        }
        if let luma = canvas.dataPointer(0) {
            let stride = canvas.lineSize(0)
            for y in area.y..<area.maxY {
                for x in area.x..<area.maxX {
                    let a = coverage(x, y)
                    guard a > 0 else { continue }
                    let i = y * stride + x
                    luma[i] = UInt8((Int(luma[i]) * (255 - a) + Int(color.y) * a + 127) / 255)
                }
            }
        }
        for (plane, value) in [(1, color.u), (2, color.v)] {
            guard let chroma = canvas.dataPointer(plane) else { continue }
            let stride = canvas.lineSize(plane)
            for cy in (area.y / 2)..<((area.maxY + 1) / 2) {
                for cx in (area.x / 2)..<((area.maxX + 1) / 2) {
                    let sum = coverage(2 * cx, 2 * cy) + coverage(2 * cx + 1, 2 * cy) + coverage(2 * cx, 2 * cy + 1)
                        + coverage(2 * cx + 1, 2 * cy + 1)
                    guard sum > 0 else { continue }
                    let i = cy * stride + cx
                    chroma[i] = UInt8((Int(chroma[i]) * (1020 - sum) + Int(value) * sum + 510) / 1020)
                }
            }
        }
        return area
    }
}
