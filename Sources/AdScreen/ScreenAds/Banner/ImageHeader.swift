import Foundation
import MediaCore

/// The format and pixel size of an image creative, read from its first bytes.
///
/// A banner or a still full-screen ad must be an image the compositor can draw; reading the header (not the
/// `Content-Type` an ad server claims, nor the `creativeType` a document declares) is what tells, before any
/// decoder runs, that the bytes are a PNG, JPEG or GIF and how large they are.
public struct ImageHeader: Hashable, Sendable {
    public enum Format: String, Hashable, Sendable, CaseIterable {
        case png, jpeg, gif
    }

    public let format: Format
    public let size: PixelSize

    public init(format: Format, size: PixelSize) {
        self.format = format
        self.size = size
    }

    /// The header of `data`; `nil` when it is not a PNG, JPEG or GIF whose size can be read.
    public init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(1 << 16))
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
           bytes[12..<16].elementsEqual("IHDR".utf8) {
            self.init(.png, width: be32(16), height: be32(20))
        } else if bytes.count >= 10, bytes.starts(with: Array("GIF8".utf8)) {
            self.init(.gif, width: le16(6), height: le16(8))
        } else if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            // Walk the JPEG segments to the first start-of-frame (SOF0…SOF15 but DHT, JPG and DAC), which holds
            // the height then the width.
            var i = 2
            while i + 9 < bytes.count, bytes[i] == 0xFF {
                let marker = bytes[i + 1]
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    self.init(.jpeg, width: be16(i + 7), height: be16(i + 5))
                    return
                }
                i += 2 + be16(i + 2)
            }
            return nil
        } else {
            return nil
        }
    }

    private init?(_ format: Format, width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        self.init(format: format, size: PixelSize(width: width, height: height))
    }
}
