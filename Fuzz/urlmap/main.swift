import AdInsertion
import Foundation
import FuzzSupport

/// Fuzz target `urlmap`: any text as a `--url-map` file must give a map or a `DecisioningError`; the URL after
/// the first NUL byte (or a fixed one) is then mapped through it.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzURLMap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = FuzzInput.pieces(UnsafeRawBufferPointer(start: data, count: size), limit: 2)
    let text = String(decoding: pieces[0], as: UTF8.self)
    guard let map = try? URLMap(parsing: text, file: "fuzz.urlmap", directory: "/nonexistent/pipctl-fuzz") else { return 0 }
    let url = pieces.count > 1 ? String(decoding: pieces[1], as: UTF8.self) : "http://ads.example/media/ad.mp4"
    _ = map.localPath(for: url)
    if let location = ResourceLocation.file("/nonexistent/pipctl-fuzz/top.xml").resolving(url) {
        _ = map.apply(to: location)
    }
    return 0
}

FuzzDriver.run { fuzzURLMap($0, $1) }
