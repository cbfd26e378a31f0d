import Foundation
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

    /// The soft shadow a rounded rectangle casts around itself: the rectangle is this mask's size inset by `reach`
    /// on every side, with corners rounded to `radius` pixels; beside it the coverage is `peak`, and it falls off
    /// with the distance `d` from the shape as a Gaussian blur's tail does (`peak · erfc(d / (σ√2))`, σ = reach / 3)
    /// to 0 at `reach`. Inside the shape it is 0: what casts the shadow is drawn over it, so blending there would
    /// be work for nothing (as CSS draws a box shadow only outside its box).
    ///
    /// Each pixel is judged at its centre by the signed distance to the rounded rectangle, in closed form: bounded
    /// work per pixel, whatever the reach. The mask is symmetric left to right and top to bottom.
    /// - Parameters:
    ///   - size: the shadow's whole extent: the shape and `reach` pixels around it.
    ///   - radius: the shape's corner radius (at most half its shorter side).
    ///   - reach: how far the shadow falls beyond the shape, in pixels; 0 draws nothing.
    ///   - peak: the coverage beside the shape, 0...255 (the shadow's opacity).
    public static func shadow(_ size: PixelSize, radius: Int, reach: Int, peak: UInt8) -> CoverageMask {
        var mask = CoverageMask(size: size)
        let w = mask.size.width, h = mask.size.height
        let reach = max(0, reach)
        guard reach > 0, peak > 0 else { return mask }
        // The shape's half sizes and its inner rectangle (the corners' centres), from the mask's centre.
        let halfWidth = max(0, Double(w - 2 * reach) / 2), halfHeight = max(0, Double(h - 2 * reach) / 2)
        let r = Double(max(0, min(radius, Int(min(halfWidth, halfHeight)))))
        let innerX = halfWidth - r, innerY = halfHeight - r
        let centreX = Double(w) / 2, centreY = Double(h) / 2
        let sigma = Double(reach) / 3, limit = Double(reach)
        for y in 0..<h {
            let qy = abs(Double(y) + 0.5 - centreY) - innerY
            for x in 0..<w {
                let qx = abs(Double(x) + 0.5 - centreX) - innerX
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                let d = outside + min(max(qx, qy), 0) - r
                guard d > 0, d < limit else { continue }
                let value = Double(peak) * erfc(d / (sigma * 2.0.squareRoot()))
                mask.values[y * w + x] = UInt8(value.rounded())
            }
        }
        return mask
    }
}
