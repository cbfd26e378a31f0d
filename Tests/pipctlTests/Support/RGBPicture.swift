import Foundation
import MediaCore

/// One frame of a file as RGB, decoded by the `ffmpeg` command line (not by pipctl), to check the colour shown in
/// a rectangle of the screen.
struct RGBPicture {
    let size: PixelSize
    let bytes: [UInt8]

    /// Frame `index` of `file`'s first video stream, `size` being the file's picture size.
    init(file: String, size: PixelSize, frame index: Int) throws {
        bytes = [UInt8](try FFmpegCommand.run(["-i", file, "-map", "0:v:0", "-vf", "select=eq(n\\,\(index))",
                                               "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        guard bytes.count == size.width * size.height * 3 else {
            throw FFmpegCommand.Failure(description: "\(file): \(bytes.count) bytes for a \(size) rgb24 frame")
        }
        self.size = size
    }

    /// The mean red, green and blue of `rect`, rounded.
    func mean(in rect: PixelRect) -> [Int] {
        var sums = [0, 0, 0]
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                for c in 0..<3 { sums[c] += Int(bytes[(y * size.width + x) * 3 + c]) }
            }
        }
        let count = max(1, rect.width * rect.height)
        return sums.map { ($0 + count / 2) / count }
    }

    /// Whether the mean colour of `rect` is within `tolerance` of `rgb` (`0xRRGGBB`) in each component.
    func shows(_ rgb: Int, in rect: PixelRect, tolerance: Int = 16) -> Bool {
        zip(mean(in: rect), [rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF]).allSatisfy { abs($0 - $1) <= tolerance }
    }
}
