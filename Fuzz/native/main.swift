import AdScreen
import FuzzSupport

/// Fuzz target `native`: any bytes through the native response reader must give a block within its limits or a
/// `NativeError`, and every card of a block must lay out with the default template without a negative size.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzNative(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    let parser = NativeResponseParser()
    guard let block = try? parser.parse(bytes, source: "fuzz.json") else { return 0 }
    precondition(block.ads.count <= parser.limits.maximumAds && block.assets.count <= parser.limits.maximumAssets)
    for ad in block.ads {
        precondition(ad.assets.count <= parser.limits.maximumAssets)
        let layout = NativeCardLayout(ad: ad, template: .default, availableWidth: 393, measurer: MonospaceTextMeasurer())
        precondition(layout.frames.allSatisfy { $0.rect.width >= 0 && $0.rect.height >= 0 }, "a negative size for \(ad.id)")
        _ = layout.bindingFailure(ad.assets)
    }
    return 0
}

FuzzDriver.run { fuzzNative($0, $1) }
