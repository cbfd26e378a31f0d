import Foundation

/// A small luma signature of one picture that survives scaling, re-encoding and changes of brightness and
/// contrast: the picture shrunk to 32x32 gray with libswscale's area filter, less its mean, over its spread.
///
/// Why this one: an area (box) average is what any scaler converges to when it shrinks a picture a lot, so a
/// picture drawn at another size, letterboxed or in a picture-in-picture window gives nearly the same 32x32 cells;
/// codec noise averages out over the pixels of each cell. Removing the mean and dividing by the standard deviation
/// cancels brightness and contrast (full vs limited range, a 10-bit source). The distance of two signatures is the
/// mean squared difference of their cells, `2 × (1 − r)` with `r` their correlation: 0 for the same picture, about
/// 2 for unrelated ones. 32x32 rather than 16x16 (or a DCT's lowest terms) keeps enough detail to tell apart the
/// consecutive frames of slow motion (a zoom, a pan), which is what finding a lost or repeated frame needs.
public struct FrameSignature: Sendable, Hashable {
    /// The side of the thumbnail, in cells.
    public static let side = 32

    /// The normalised cells, row by row (`side × side`); all zero for a flat picture.
    public let cells: [Float]
    /// The thumbnail's standard deviation in 8-bit luma levels: near 0 for a black or flat picture.
    public let contrast: Float

    /// Below this spread (in luma levels) a picture is flat (black, a solid colour) and identifies nothing.
    public static let flatContrast: Float = 2

    public init(thumbnail: [UInt8]) {
        precondition(thumbnail.count == Self.side * Self.side)
        let count = Float(thumbnail.count)
        var sum: Float = 0
        for v in thumbnail { sum += Float(v) }
        let mean = sum / count
        var squares: Float = 0
        for v in thumbnail { let d = Float(v) - mean; squares += d * d }
        let deviation = (squares / count).squareRoot()
        contrast = deviation
        cells = deviation < Self.flatContrast ? [Float](repeating: 0, count: thumbnail.count)
            : thumbnail.map { (Float($0) - mean) / deviation }
    }

    /// A black or flat picture, whose normalised cells mean nothing.
    public var isFlat: Bool { contrast < Self.flatContrast }

    /// The mean squared difference of the normalised cells: 0 for the same picture, about 2 for unrelated ones
    /// (4 for a negative).
    public func distance(to other: FrameSignature) -> Float {
        var total: Float = 0
        cells.withUnsafeBufferPointer { a in
            other.cells.withUnsafeBufferPointer { b in
                for i in 0..<a.count { let d = a[i] - b[i]; total += d * d }
            }
        }
        return total / Float(cells.count)
    }
}
