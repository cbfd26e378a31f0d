import MediaCore

/// How much of each pixel of a rectangle a shape covers, 0 (none) to 255 (all): what the compositor blends a colour
/// through (text, rounded rectangles).
public struct CoverageMask: Hashable, Sendable {
    public let size: PixelSize
    /// Row by row, `size.width` values a row.
    public private(set) var values: [UInt8]

    /// A mask covering nothing.
    public init(size: PixelSize) {
        self.size = PixelSize(width: max(0, size.width), height: max(0, size.height))
        values = [UInt8](repeating: 0, count: self.size.width * self.size.height)
    }

    public subscript(x: Int, y: Int) -> UInt8 { values[y * size.width + x] }

    /// Lays `coverage` (`width` x `rows`) over the mask with its top-left at (x, y), as one translucent shape over
    /// another (1 − (1 − a)(1 − b)), cut to the mask.
    mutating func composite(_ coverage: [UInt8], width: Int, rows: Int, x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(size.width, x + width), y0 = max(0, y), y1 = min(size.height, y + rows)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 {
                let a = Int(coverage[(row - y) * width + column - x]), i = row * size.width + column
                let b = Int(values[i])
                values[i] = UInt8(a + b - (a * b + 127) / 255)
            }
        }
    }

    /// The mask of what this one leaves uncovered (each value 255 − it): the corners outside a rounded
    /// rectangle, to round a picture's corners by drawing its background's colour over them.
    public func inverted() -> CoverageMask {
        var mask = self
        mask.values = values.map { 255 - $0 }
        return mask
    }

    /// A rectangle with corners rounded to `radius` pixels (at most half the shorter side: a capsule), its edges
    /// anti-aliased.
    ///
    /// Coverage is exact inside and along the straight edges; a corner pixel is sampled on an 8x8 grid (64
    /// levels), each sample inside when it lies within `radius` of the rectangle inset by `radius`.
    public static func roundedRect(_ size: PixelSize, radius: Int) -> CoverageMask {
        var mask = CoverageMask(size: size)
        let w = mask.size.width, h = mask.size.height
        let r = max(0, min(radius, min(w, h) / 2))
        // In sixteenths of a pixel, so the 8x8 samples at odd sixteenths stay integers.
        let r16 = 16 * r, innerX = (16 * r)...(16 * (w - r)), innerY = (16 * r)...(16 * (h - r))
        for y in 0..<h {
            for x in 0..<w {
                let inCorner = (x < r || x >= w - r) && (y < r || y >= h - r)
                guard inCorner else {
                    mask.values[y * w + x] = 255
                    continue
                }
                var inside = 0
                for i in 0..<8 {
                    for j in 0..<8 {
                        let sx = 16 * x + 2 * i + 1, sy = 16 * y + 2 * j + 1
                        let dx = sx - min(max(sx, innerX.lowerBound), innerX.upperBound)
                        let dy = sy - min(max(sy, innerY.lowerBound), innerY.upperBound)
                        if dx * dx + dy * dy <= r16 * r16 { inside += 1 }
                    }
                }
                mask.values[y * w + x] = UInt8((inside * 255 + 32) / 64)
            }
        }
        return mask
    }
}
