import MediaCore

/// One 8-bit plane of a picture (luma or a chroma plane), borrowed from whoever owns the memory.
///
/// The owner (an `AVFrame`, a test buffer) must keep the memory alive while the view is used. Helpers clip to
/// the plane, so stamp and pattern code never writes or reads outside it, whatever rectangle it is given.
struct PlaneView {
    var base: UnsafeMutablePointer<UInt8>
    /// Bytes from the start of one row to the start of the next (at least `width`).
    var stride: Int
    var width: Int
    var height: Int

    init(base: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0 && stride >= width, "plane \(width)x\(height) with stride \(stride)")
        self.base = base
        self.stride = stride
        self.width = width
        self.height = height
    }

    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at column `x`, row `y`; both must lie inside the plane.
    subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            return base[y * stride + x]
        }
        nonmutating set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            base[y * stride + x] = newValue
        }
    }

    /// The start of row `y`, which must lie inside the plane.
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        return base + y * stride
    }

    /// `rect` cut down to the plane; empty (zero width or height) when they do not overlap.
    func clipped(_ rect: PixelRect) -> PixelRect {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.maxX), y1 = min(height, rect.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The part of this plane inside `rect`, which must lie within it: lets a picture be drawn into a window
    /// (a letterbox, a PiP rectangle) of a larger one.
    func subplane(_ rect: PixelRect) -> PlaneView {
        precondition(bounds.contains(rect) && rect.width >= 0 && rect.height >= 0, "\(rect) outside \(width)x\(height)")
        return PlaneView(base: base + rect.y * stride + rect.x, stride: stride, width: rect.width, height: rect.height)
    }

    /// Sets every pixel of `rect` (clipped to the plane) to `value`.
    func fill(_ rect: PixelRect, with value: UInt8) {
        let r = clipped(rect)
        guard r.width > 0 else { return }
        for y in r.y..<r.maxY {
            (base + y * stride + r.x).update(repeating: value, count: r.width)
        }
    }

    /// The mean value of `rect` (clipped to the plane), or `nil` when nothing of it lies inside.
    func mean(of rect: PixelRect) -> Double? {
        let r = clipped(rect)
        guard r.width > 0, r.height > 0 else { return nil }
        var sum = 0
        for y in r.y..<r.maxY {
            let p = base + y * stride + r.x
            for x in 0..<r.width { sum &+= Int(p[x]) }
        }
        return Double(sum) / Double(r.width * r.height)
    }
}
