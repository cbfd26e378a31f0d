import AdScreen
import Foundation
import FuzzLoadPath
import FuzzSupport
import Rendering

/// Fuzz target `nativeload`: any bytes as a native response, through the whole load path of a render: parsed
/// (a block within its limits, or a `NativeError`), then shown by a slider session (media/slider.session.json's
/// device and placement, a short script that loads, swipes and taps) whose cards are laid out with the real text
/// measurer and evaluated frame by frame. scripts/fuzz runs it with -timeout=2, so a slow input is a finding.
let session = try! ScreenSession(sessionFile: Data("""
    {"device": "iphone-15", "scenes": [{"id": "feed", "state": "foregroundActive", "player": {"content": "content.mp4", "height": 221},
     "native": [{"id": "feed-slider", "source": "slider.response.json", "style": "slider", "top": 233}]}],
     "script": "load slider@0; swipe left@0.5; tap 200,700@1; swipe left@1.2; swipe right@1.5"}
    """.utf8), file: "fuzz.session.json")

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzNativeLoad(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    let parser = NativeResponseParser()
    guard let block = try? parser.parse(bytes, source: "fuzz.json") else { return 0 }
    precondition(block.ads.count <= parser.limits.maximumAds && block.assets.count <= parser.limits.maximumAssets)
    NativeLoadPath.run(session, block: block)
    return 0
}

FuzzDriver.run { fuzzNativeLoad($0, $1) }
