import MediaCore

/// Draws frame stamps into pictures.
enum StampWriter {
    /// Draws `stamp` onto the picture that covers the whole of `luma`, and makes the chroma under it neutral.
    ///
    /// Neutral chroma keeps colour bleeding from the picture around out of the cells once an encoder or scaler
    /// mixes the planes. Chroma planes may be subsampled by any factor; their share of the block is found from
    /// their size relative to `luma`.
    static func draw(_ stamp: FrameStamp, luma: PlaneView, cb: PlaneView? = nil, cr: PlaneView? = nil) {
        let geometry = StampGeometry(picture: luma.bounds)
        let cells = StampLayout.cells(for: stamp.bits)
        luma.fill(geometry.block, with: StampLayout.white)
        for row in 0..<StampLayout.dataRows {
            for column in 0..<StampLayout.dataColumns {
                let bit = row * StampLayout.dataColumns + column
                if (cells >> bit) & 1 == 0 {
                    luma.fill(geometry.cellRect(column: column + 1, row: row + 1), with: StampLayout.black)
                }
            }
        }
        for plane in [cb, cr].compactMap({ $0 }) {
            plane.fill(scaledOutward(geometry.block, from: luma, to: plane), with: StampLayout.neutralChroma)
        }
    }

    /// `rect` in `luma` pixels mapped onto `plane`, rounded outward so that it covers every chroma sample that
    /// touches it.
    private static func scaledOutward(_ rect: PixelRect, from luma: PlaneView, to plane: PlaneView) -> PixelRect {
        func down(_ v: Int, _ num: Int, _ den: Int) -> Int { (v * num) / den }
        func up(_ v: Int, _ num: Int, _ den: Int) -> Int { (v * num + den - 1) / den }
        let x0 = down(rect.x, plane.width, luma.width), x1 = up(rect.maxX, plane.width, luma.width)
        let y0 = down(rect.y, plane.height, luma.height), y1 = up(rect.maxY, plane.height, luma.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
