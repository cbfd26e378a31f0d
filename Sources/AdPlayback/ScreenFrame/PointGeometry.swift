import MediaCore

/// A size in points (iOS) or density-independent pixels (Android), the unit apps lay out in.
///
/// Whole points, because every published device number, divider and inset used here is whole; pixels come only
/// from `PointScale`, so no fractional layout ever accumulates.
public struct PointSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH` (both positive); `nil` otherwise.
    public init?(parsing text: String) {
        guard let pixels = PixelSize(parsing: text) else { return nil }
        self.init(width: pixels.width, height: pixels.height)
    }

    /// The same size turned a quarter: width and height swapped.
    public var transposed: PointSize { PointSize(width: height, height: width) }
    public var longSide: Int { max(width, height) }
    public var shortSide: Int { min(width, height) }
    public var description: String { "\(width)x\(height)" }

    /// Whether something of `other`'s size fits inside this size without turning.
    public func fits(_ other: PointSize) -> Bool { other.width <= width && other.height <= height }
}

/// A rectangle in points, origin at the top left of the active display.
public struct PointRect: Hashable, Sendable, CustomStringConvertible {
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

    public init(origin x: Int, _ y: Int, size: PointSize) {
        self.init(x: x, y: y, width: size.width, height: size.height)
    }

    public var size: PointSize { PointSize(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// This rectangle less `insets` on each edge (never negative in size).
    public func inset(by insets: EdgeInsets) -> PointRect {
        PointRect(x: x + insets.left, y: y + insets.top, width: max(0, width - insets.left - insets.right),
                  height: max(0, height - insets.top - insets.bottom))
    }
}

/// Distances in points from each edge, as `UIEdgeInsets`/`WindowInsets` give safe areas.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    public var top: Int
    public var left: Int
    public var bottom: Int
    public var right: Int

    public init(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()
    public var description: String { "top \(top) left \(left) bottom \(bottom) right \(right)" }
}
