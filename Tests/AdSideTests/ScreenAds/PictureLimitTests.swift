@testable import AdDecisioning
@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// Pictures have a size budget (`PictureLimit.creatives`): an image creative's header, and a VAST MediaFile's
/// width and height, are checked before anything decodes them.
@Suite struct PictureLimitTests {
    /// The first bytes of an image of `size` (enough for `ImageHeader`; nothing decodes them).
    static func header(_ format: ImageHeader.Format, _ size: PixelSize) -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        switch format {
        case .png:
            return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8)
                        + be32(size.width) + be32(size.height) + [8, 2, 0, 0, 0] + be32(0))
        case .jpeg:
            // SOI, an APP0 to walk over, then SOF0: length 17, precision 8, height, width, three components.
            return Data([0xFF, 0xD8, 0xFF, 0xE0] + be16(16) + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
                        + [0xFF, 0xC0] + be16(17) + [8] + be16(size.height) + be16(size.width)
                        + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9])
        case .gif:
            return Data(Array("GIF89a".utf8) + [UInt8(size.width & 0xFF), UInt8(size.width >> 8),
                                                 UInt8(size.height & 0xFF), UInt8(size.height >> 8), 0, 0, 0])
        }
    }

    @Test(arguments: [
        (PixelSize(width: 4096, height: 2160), nil),
        (PixelSize(width: 2160, height: 3840), nil),
        (PixelSize(width: 3840, height: 2160), nil),
        (PixelSize(width: 4097, height: 1), "4097x1 is over the picture limit of 4096 pixels a side"),
        (PixelSize(width: 100_000, height: 1), "100000x1 is over the picture limit of 4096 pixels a side"),
        (PixelSize(width: 1, height: 30_000), "1x30000 is over the picture limit of 4096 pixels a side"),
        (PixelSize(width: 4096, height: 2161), "4096x2161 (8851456 pixels) is over the picture limit of 8847360 pixels in all"),
        (PixelSize(width: 4096, height: 4096), "4096x4096 (16777216 pixels) is over the picture limit of 8847360 pixels in all"),
    ] as [(PixelSize, String?)])
    func theCreativeLimitIs4096ASideAnd4096x2160InAll(size: PixelSize, refusal: String?) {
        #expect(PictureLimit.creatives.refusal(of: size) == refusal)
    }

    @Test(arguments: ImageHeader.Format.allCases)
    func anImageOverTheLimitIsRefusedFromItsHeaderNamingItsSource(format: ImageHeader.Format) async throws {
        let directory = try TemporaryDirectory()
        for size in [PixelSize(width: 16000, height: 16000), PixelSize(width: 30000, height: 30000), PixelSize(width: 65535, height: 1)] {
            if format == .gif && size.width > 65535 { continue }
            let file = try directory.write("big.\(format.rawValue)", Self.header(format, size))
            #expect(ImageHeader(try Data(contentsOf: URL(fileURLWithPath: file)))?.size == size)
            await #expect(throws: ScreenAdError.pictureTooLarge(source: file, detail: PictureLimit.creatives.refusal(of: size)!)) {
                try await ScreenAdLoader(directory: directory.path).load(.image(AdRequestTemplate("big.\(format.rawValue)")), url: "big.\(format.rawValue)")
            }
        }
        // Within the limit, the same header loads.
        let small = PixelSize(width: 4096, height: 2160)
        try directory.write("ok.\(format.rawValue)", Self.header(format, small))
        let creative = try await ScreenAdLoader(directory: directory.path).load(.image(AdRequestTemplate("ok.\(format.rawValue)")), url: "ok.\(format.rawValue)")
        guard case .image(_, let header, _) = creative.content else { Issue.record("not an image: \(creative)"); return }
        #expect(header.size == small)
    }

    @Test func theMessageOfAnOversizedImageNamesTheImage() {
        let error = ScreenAdError.pictureTooLarge(source: "/ads/wide.png", detail: "100000x1 is over the picture limit of 4096 pixels a side")
        #expect(error.description == "/ads/wide.png: 100000x1 is over the picture limit of 4096 pixels a side")
    }

    @Test func aRenditionOverTheLimitIsNotChosenAndAloneFailsWith403() {
        let big = MediaFile(url: "https://cdn.example/8k.mp4", delivery: "progressive", type: "video/mp4", width: 8192, height: 8192,
                            bitrate: 9000, id: "8k")
        let hd = MediaFile(url: "https://cdn.example/hd.mp4", delivery: "progressive", type: "video/mp4", width: 1280, height: 720,
                           bitrate: 2000, id: "hd")
        let selector = MediaSelector(settings: .init(window: PixelSize(width: 3840, height: 2160)))
        let (selection, failure) = selector.select([big, hd])
        #expect(failure == nil)
        #expect(selection.chosen?.id == "hd")
        #expect(selection.candidates[0] == .init(file: big, accepted: false, reason: "8192x8192 is over the picture limit of 4096 pixels a side"))
        #expect(selection.preference == [1])
        let (none, alone) = selector.select([big])
        #expect(none.chosen == nil)
        #expect(alone?.code == .noSupportedMedia)
        #expect(alone?.reason == "none of 1 MediaFile(s) can be played: 8192x8192 is over the picture limit of 4096 pixels a side")
    }
}
