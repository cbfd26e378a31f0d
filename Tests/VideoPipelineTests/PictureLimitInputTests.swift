import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// A creative whose container states no picture size (an image file: FFmpeg learns it only by decoding) is held to
/// `PictureLimit` too: its decoder refuses the picture (`max_pixels`) in `avformat_find_stream_info`, and a size
/// still unknown then is refused, instead of the file being decoded whole later without the limit.
@Suite struct PictureLimitInputTests {
    /// A PNG whose IHDR says `width`x`height`, 8-bit RGBA, with an empty IDAT: no pixels to inflate.
    static func png(width: UInt32, height: UInt32) -> Data {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C])
            + chunk("IEND", []))
    }

    @Test func anImageOverTheLimitWhoseContainerStatesNoSizeIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("big.png")
        try Self.png(width: 16000, height: 16000).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: MediaError.self) { _ = try InputFile(path: path, pictureLimit: .creatives) }
        guard case .pictureTooLarge(let named, let detail)? = error else {
            Issue.record("expected pictureTooLarge, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(detail.hasPrefix("video stream #0's picture size is unknown after avformat_find_stream_info"), "\(detail)")
    }
}
