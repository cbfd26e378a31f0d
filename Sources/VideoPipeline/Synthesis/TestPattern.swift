import Foundation
import MediaCore

/// The moving picture of a synthetic test source, with its frame stamp on top.
///
/// Two sets of diagonal bands scroll against each other (a plaid that gives an encoder texture and motion to
/// work on everywhere) and a striped disc wanders over them; the colours follow a hue derived from the source id,
/// so that people can tell sources apart. Luma stays within 60...160, which keeps the pattern distinguishable from
/// the stamp's white ring and from black background (see `StampLayout`).
///
/// Drawing is row-wise: each row of bands is a lookup into a precomputed periodic table, the disc a span per
/// row, so a 640x360 frame takes about 25 µs in a release build.
public struct TestPattern: Sendable {
    /// The smallest picture a pattern is drawn at: each stamp cell is then at least 2 pixels each way.
    public static let minimumSize = PixelSize(width: 108, height: 60)

    public let sourceID: String
    public let size: PixelSize

    private let bandsA: [UInt8], periodA: Int, speedA: Int
    private let bandsB: [UInt8], periodB: Int, speedB: Int
    private let backgroundChroma: (cb: UInt8, cr: UInt8)
    private let discChroma: (cb: UInt8, cr: UInt8)

    /// Prepares the pattern of source `sourceID` at `size`.
    ///
    /// - Throws: `TestSourceError.invalidSourceID` for an id a stamp cannot carry, `.invalidPictureSize` for an
    ///   odd side or a picture smaller than `minimumSize`.
    public init(sourceID: String, size: PixelSize) throws(TestSourceError) {
        try FrameStamp.validate(sourceID: sourceID)
        guard size.width % 2 == 0, size.height % 2 == 0,
              size.width >= TestPattern.minimumSize.width, size.height >= TestPattern.minimumSize.height else {
            throw .invalidPictureSize(width: size.width, height: size.height)
        }
        self.sourceID = sourceID
        self.size = size
        let scale = (size.width + size.height) / 12
        periodA = max(16, scale & ~1)
        periodB = max(24, (scale * 3 / 2) & ~1)
        speedA = max(1, periodA / 16)
        speedB = max(1, periodB / 20)
        bandsA = TestPattern.bandTable(period: periodA, length: size.width + periodA)
        bandsB = TestPattern.bandTable(period: periodB, length: size.width + periodB)
        let hue = Double(TestPattern.hash(sourceID) % 360) * .pi / 180
        let saturation = 48.0
        let cb = saturation * cos(hue), cr = saturation * sin(hue)
        backgroundChroma = (UInt8(128 + cb.rounded()), UInt8(128 + cr.rounded()))
        discChroma = (UInt8(128 - cb.rounded()), UInt8(128 - cr.rounded()))
    }

    /// Draws frame `frame` (stamp included unless `stamped` is false) into yuv420p planes of `size`.
    ///
    /// - Parameters:
    ///   - luma: the Y plane, `size.width` × `size.height`.
    ///   - cb: the U plane, half the width and height of `luma`.
    ///   - cr: the V plane, likewise.
    ///   - stamped: `false` only to make unstamped pictures (tests that a reader refuses them).
    /// - Throws: `TestSourceError.frameIndexOutOfRange` when `frame` is outside what a stamp can carry.
    func draw(frame: Int, luma: PlaneView, cb: PlaneView, cr: PlaneView, stamped: Bool = true) throws(TestSourceError) {
        let stamp = try FrameStamp(sourceID: sourceID, frameIndex: frame)
        let w = size.width, h = size.height
        precondition(luma.width == w && luma.height == h && cb.width == w / 2 && cb.height == h / 2
                     && cr.width == w / 2 && cr.height == h / 2, "planes do not match a \(size) yuv420p picture")
        let disc = discPosition(frame: frame)
        let shiftA = frame % periodA * speedA % periodA, shiftB = frame % periodB * speedB % periodB
        bandsA.withUnsafeBufferPointer { a in
            bandsB.withUnsafeBufferPointer { b in
                for y in 0..<h {
                    let row = luma.row(y)
                    // Band A depends on x + y (falling diagonals), band B on x - y (rising ones).
                    let pa = a.baseAddress! + (y + shiftA) % periodA
                    let pb = b.baseAddress! + ((shiftB - y) % periodB + periodB) % periodB
                    for x in 0..<w { row[x] = UInt8((UInt16(pa[x]) + UInt16(pb[x])) >> 1) }
                    if let span = disc.span(row: Double(y) + 0.5, width: w) {
                        // Stripes four pixels high move with the disc, so its motion has texture too.
                        let stripe: UInt8 = ((y - Int(disc.centreY.rounded(.down))) >> 2) & 1 == 0 ? 78 : 142
                        (row + span.lowerBound).update(repeating: stripe, count: span.count)
                    }
                }
            }
        }
        for y in 0..<h / 2 {
            cb.row(y).update(repeating: backgroundChroma.cb, count: w / 2)
            cr.row(y).update(repeating: backgroundChroma.cr, count: w / 2)
            if let span = disc.span(row: Double(2 * y) + 1, width: w) {
                let lo = span.lowerBound / 2, hi = (span.upperBound + 1) / 2
                (cb.row(y) + lo).update(repeating: discChroma.cb, count: hi - lo)
                (cr.row(y) + lo).update(repeating: discChroma.cr, count: hi - lo)
            }
        }
        if stamped { StampWriter.draw(stamp, luma: luma, cb: cb, cr: cr) }
    }

    /// Where the disc is in frame `frame`: a Lissajous path with periods of 97 and 61 frames (about 3.2 and 2
    /// seconds at 30 fps), so that it never repeats within a short clip.
    private func discPosition(frame: Int) -> Disc {
        let w = Double(size.width), h = Double(size.height)
        let t = Double(frame)
        return Disc(centreX: w / 2 + 0.32 * w * sin(2 * .pi * t / 97),
                    centreY: h / 2 + 0.30 * h * sin(2 * .pi * t / 61 + 1),
                    radius: 0.14 * min(w, h))
    }

    private struct Disc {
        var centreX: Double, centreY: Double, radius: Double

        /// The pixels of the row whose centre is at `row` that lie inside the disc.
        func span(row: Double, width: Int) -> Range<Int>? {
            let dy = row - centreY
            guard abs(dy) < radius else { return nil }
            let half = (radius * radius - dy * dy).squareRoot()
            let lo = max(0, Int((centreX - half).rounded())), hi = min(width, Int((centreX + half).rounded()))
            return lo < hi ? lo..<hi : nil
        }
    }

    /// One period of a triangle wave from 60 to 160, repeated to `length` entries.
    private static func bandTable(period: Int, length: Int) -> [UInt8] {
        (0..<length).map { i in
            let phase = i % period, half = period / 2
            let ramp = phase < half ? phase : period - phase
            return UInt8(60 + 100 * ramp / half)
        }
    }

    /// FNV-1a of the id: a stable hue for each source, the same on every run and machine.
    private static func hash(_ id: String) -> UInt32 {
        id.utf8.reduce(2_166_136_261 as UInt32) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }
}
