import MediaCore

/// Output pixels per point: how the screen model's points become the rendered canvas (`--point-scale`).
///
/// Each rectangle is converted edge by edge: an edge at `e` points lands at the even pixel nearest to `e × scale`
/// (halves away from zero). Rounding edges, not sizes, keeps neighbours touching (a Split View scene ends where
/// the divider starts) and even edges keep 4:2:0 chroma aligned; a size is off by at most 2 pixels.
public struct PointScale: Hashable, Sendable, CustomStringConvertible {
    public let pixelsPerPoint: Rational

    public init(_ pixelsPerPoint: Rational) {
        precondition(pixelsPerPoint > .zero)
        self.pixelsPerPoint = pixelsPerPoint
    }

    /// Reads a `--point-scale` value: a positive number of pixels per point (`1.5`, `3/2`); `nil` otherwise.
    public init?(parsing text: String) {
        guard let value = Rational(parsing: text), value > .zero else { return nil }
        self.init(value)
    }

    /// The even pixel nearest to `points × scale`.
    public func pixels(_ points: Int) -> Int {
        2 * Int((Rational(Int64(points)) * pixelsPerPoint / Rational(2)).rounded)
    }

    /// The pixel nearest to `points × scale` (halves away from zero): where a point, such as a tap's, lands. Unlike a
    /// rectangle's edges (`pixels(_:)`, even) it may be odd: at 3/2 points 133 and 467 are pixels 200 and 701.
    public func pixel(nearest points: Int) -> Int {
        Int((Rational(Int64(points)) * pixelsPerPoint).rounded)
    }

    /// The point nearest to `pixels / scale`, halves rounded up: where a pixel a person pointed at (`play --show`'s
    /// mouse) lies in the device's points.
    public func point(nearest pixels: Int) -> Int {
        Int((Rational(Int64(pixels)) / pixelsPerPoint).rounded)
    }

    /// A size in pixels (each side from 0, so at least 0).
    public func pixels(_ size: PointSize) -> PixelSize {
        PixelSize(width: pixels(size.width), height: pixels(size.height))
    }

    /// A rectangle in pixels, edge by edge, offset by `origin` pixels.
    public func pixels(_ rect: PointRect, origin: (x: Int, y: Int) = (0, 0)) -> PixelRect {
        let x0 = pixels(rect.x), y0 = pixels(rect.y)
        return PixelRect(x: origin.x + x0, y: origin.y + y0, width: pixels(rect.maxX) - x0, height: pixels(rect.maxY) - y0)
    }

    public var description: String { pixelsPerPoint.description }
}
