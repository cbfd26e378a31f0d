import Foundation
import MediaCore

/// One yuv420p frame of a file, decoded by the `ffmpeg` command line (not by pipctl), to check where a picture
/// was drawn and that nothing else was.
struct DecodedPicture {
    let size: PixelSize
    let luma: [UInt8]
    let cb: [UInt8]
    let cr: [UInt8]

    /// Frame `index` of `file`'s first video stream, `size` being the file's picture size. The file must be
    /// yuv420p already, so ffmpeg hands the samples over untouched.
    init(file: String, size: PixelSize, frame index: Int = 0) throws {
        let bytes = [UInt8](try FFmpegCommand.run(["-i", file, "-map", "0:v:0", "-vf", "select=eq(n\\,\(index))",
                                                   "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
        let lumaCount = size.width * size.height, chromaCount = ((size.width + 1) / 2) * ((size.height + 1) / 2)
        guard bytes.count == lumaCount + 2 * chromaCount else {
            throw FFmpegCommand.Failure(description: "\(file): \(bytes.count) bytes for a \(size) yuv420p frame")
        }
        self.size = size
        luma = Array(bytes[0..<lumaCount])
        cb = Array(bytes[lumaCount..<(lumaCount + chromaCount)])
        cr = Array(bytes[(lumaCount + chromaCount)...])
    }

    func y(_ x: Int, _ y: Int) -> UInt8 { luma[y * size.width + x] }

    /// The smallest rectangle holding every luma sample that is not black's 16.
    var nonBlackBounds: PixelRect? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for row in 0..<size.height {
            for column in 0..<size.width where y(column, row) != 16 {
                x0 = min(x0, column); x1 = max(x1, column); y0 = min(y0, row); y1 = max(y1, row)
            }
        }
        return x1 < 0 ? nil : PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// Every sample outside `rect` that is not exactly black (Y 16, Cb and Cr 128), described: luma samples outside
    /// the rectangle, and chroma samples wholly outside it (one that covers a pixel of the picture at an odd edge
    /// is shared with it).
    func samplesOtherThanBlack(outside rect: PixelRect) -> [String] {
        var found: [String] = []
        for row in 0..<size.height {
            for column in 0..<size.width where !(rect.x..<rect.maxX).contains(column) || !(rect.y..<rect.maxY).contains(row) {
                if y(column, row) != 16 { found.append("Y(\(column),\(row))=\(y(column, row))") }
            }
        }
        let chromaWidth = (size.width + 1) / 2
        for row in 0..<((size.height + 1) / 2) {
            for column in 0..<chromaWidth {
                let touches = 2 * column + 1 >= rect.x && 2 * column < rect.maxX && 2 * row + 1 >= rect.y && 2 * row < rect.maxY
                guard !touches else { continue }
                let u = cb[row * chromaWidth + column], v = cr[row * chromaWidth + column]
                if u != 128 || v != 128 { found.append("CbCr(\(column),\(row))=\(u),\(v)") }
            }
        }
        return found
    }

    /// The luma of `rect`, row after row.
    func luma(in rect: PixelRect) -> [UInt8] {
        (rect.y..<rect.maxY).flatMap { row in (rect.x..<rect.maxX).map { y($0, row) } }
    }
}

/// The mean absolute difference of two equally long sample arrays.
func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && !a.isEmpty)
    return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
}
