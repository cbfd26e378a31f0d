import Foundation
import MediaCore
@testable import VideoPipeline

/// A yuv420p picture that owns its memory, laid out as ffmpeg's `rawvideo` (Y, then U, then V, no padding), so
/// that frames go to and from the ffmpeg tool byte for byte.
final class YUVImage {
    let width: Int
    let height: Int
    private let storage: UnsafeMutableBufferPointer<UInt8>

    static func byteCount(width: Int, height: Int) -> Int { width * height + 2 * (width / 2) * (height / 2) }

    /// A picture filled with one colour (black by default).
    init(width: Int, height: Int, y: UInt8 = 16, u: UInt8 = 128, v: UInt8 = 128) {
        precondition(width % 2 == 0 && height % 2 == 0)
        self.width = width
        self.height = height
        storage = .allocate(capacity: YUVImage.byteCount(width: width, height: height))
        let lumaCount = width * height, chromaCount = (width / 2) * (height / 2)
        storage[0..<lumaCount].initialize(repeating: y)
        storage[lumaCount..<lumaCount + chromaCount].initialize(repeating: u)
        storage[(lumaCount + chromaCount)...].initialize(repeating: v)
    }

    /// Frame `index` of raw yuv420p `data` holding frames of this size.
    convenience init(width: Int, height: Int, rawFrames data: Data, index: Int) {
        self.init(width: width, height: height)
        let n = storage.count
        _ = data.withUnsafeBytes { raw in
            raw[(index * n)..<((index + 1) * n)].copyBytes(to: UnsafeMutableRawBufferPointer(storage))
        }
    }

    deinit { storage.deallocate() }

    var size: PixelSize { PixelSize(width: width, height: height) }
    var luma: PlaneView { PlaneView(base: storage.baseAddress!, stride: width, width: width, height: height) }
    var cb: PlaneView {
        PlaneView(base: storage.baseAddress! + width * height, stride: width / 2, width: width / 2, height: height / 2)
    }
    var cr: PlaneView {
        PlaneView(base: storage.baseAddress! + width * height + (width / 2) * (height / 2), stride: width / 2,
                  width: width / 2, height: height / 2)
    }

    var data: Data { Data(buffer: storage) }

    /// Frame `frame` of the test pattern of `id`.
    static func pattern(_ id: String, _ size: PixelSize, frame: Int, stamped: Bool = true) throws -> YUVImage {
        let image = YUVImage(width: size.width, height: size.height)
        try TestPattern(sourceID: id, size: size).draw(frame: frame, luma: image.luma, cb: image.cb, cr: image.cr,
                                                       stamped: stamped)
        return image
    }
}

extension YUVImage {
    /// Draws frame `frame` of the test pattern of `id` into `rect` (even position and size) of this picture.
    func drawPattern(_ id: String, frame: Int, in rect: PixelRect, stamped: Bool = true) throws {
        let half = PixelRect(x: rect.x / 2, y: rect.y / 2, width: rect.width / 2, height: rect.height / 2)
        try TestPattern(sourceID: id, size: rect.size).draw(
            frame: frame, luma: luma.subplane(rect), cb: cb.subplane(half), cr: cr.subplane(half), stamped: stamped)
    }

    /// Fills the luma plane with values from a fixed pseudo-random sequence (the same on every run).
    func fillWithNoise(seed: UInt64) {
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                luma[x, y] = UInt8(16 + (state >> 33) % 220)
            }
        }
    }
}
