/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH` (both positive); `nil` otherwise.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var area: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in pixels, origin at the top left.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(size: PixelSize) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The part of this rectangle inside `other`; empty (zero width or height, at the nearer corner) when they
    /// do not meet.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(0, min(maxX, other.maxX) - x0), height: max(0, min(maxY, other.maxY) - y0))
    }

    /// The largest rectangle of display aspect `aspect` (width / height) centred in this one: a letterbox when the
    /// picture is wider than the rectangle, a pillarbox when it is narrower.
    ///
    /// Sides are the exact aspect rounded to the nearest pixel (at least 1) and the bars differ by at most one
    /// pixel, the extra one on the right or bottom: the compositor draws into any rectangle exactly, so nothing
    /// is rounded to even pixels here (that used to leave a 2-pixel bar on one side of a 641x361 picture).
    public func fitting(aspect: Rational) -> PixelRect {
        precondition(aspect > .zero)
        let own = Rational(Int64(width), Int64(height))
        var w: Int, h: Int
        if aspect > own {
            w = width
            h = Int((Rational(Int64(width)) / aspect).rounded)
        } else {
            h = height
            w = Int((Rational(Int64(height)) * aspect).rounded)
        }
        w = max(1, min(width, w))
        h = max(1, min(height, h))
        return PixelRect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}

extension PixelSize {
    /// The shape a picture of this storage size takes on screen, given its sample (pixel) aspect ratio.
    public func displayAspect(sampleAspect: Rational = .one) -> Rational {
        Rational(Int64(width), Int64(height)) * (sampleAspect > .zero ? sampleAspect : .one)
    }
}
