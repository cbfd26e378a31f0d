import CFFmpeg
import MediaCore

/// The mean colours of regions of one picture, read in yuv420p: how `pipctl verify` tells from the pixels which
/// layer covers a rectangle of the screen.
///
/// A mean over a block is what survives x264 (its noise averages out, a flat colour stays within a few levels),
/// and it needs no threshold on single pixels. The probe holds its own reference to the picture (or a yuv420p
/// conversion of it), so a reader or compositor may move on to its next picture while the probe is still read.
public struct ColorProbe {
    private let frame: Frame
    public var size: PixelSize { frame.size }

    /// Keeps `picture` for probing; any pixel format other than 8-bit yuv420p is converted by libswscale first.
    public init(_ picture: VideoPicture) throws(MediaError) {
        let source = picture.frame
        if source.pixelFormat == AV_PIX_FMT_YUV420P {
            frame = try source.reference()
            return
        }
        let converted = try Frame.picture(source.size)
        let (format, fullRange) = source.scalingFormat
        try Scaler(source: source.size, format: format, fullRange: fullRange, destination: source.size)
            .scale(source, into: converted)
        frame = converted
    }

    /// The mean luma of `rect` and the mean chroma of the chroma samples wholly inside it, rounded; `nil` when
    /// `rect` (clipped to the picture) holds no whole chroma sample.
    public func mean(in rect: PixelRect) -> YUVColor? {
        let x0 = max(0, rect.x), y0 = max(0, rect.y), x1 = min(frame.width, rect.maxX), y1 = min(frame.height, rect.maxY)
        let cx0 = (x0 + 1) / 2, cx1 = x1 / 2, cy0 = (y0 + 1) / 2, cy1 = y1 / 2
        guard cx1 > cx0, cy1 > cy0 else { return nil }
        func average(_ plane: Int, _ xs: Range<Int>, _ ys: Range<Int>) -> UInt8 {
            guard let base = frame.dataPointer(plane) else { return 0 }
            let stride = frame.lineSize(plane)
            var sum = 0
            for y in ys {
                let row = base + y * stride
                for x in xs { sum += Int(row[x]) }
            }
            let count = xs.count * ys.count
            return UInt8((sum + count / 2) / count)
        }
        return YUVColor(y: average(0, x0..<x1, y0..<y1), u: average(1, cx0..<cx1, cy0..<cy1), v: average(2, cx0..<cx1, cy0..<cy1))
    }
}
