import AdScreen
import Foundation
import FuzzLoadPath
import FuzzSupport
import Rendering

/// Fuzz target `session`: any bytes as a `--session` file, through the whole load path: read and checked against
/// `SessionFileLimits` (or refused with a `SessionFileError`), its script parsed and checked, its canvas within the
/// output's size, its screen timeline and native placements evaluated with the real text measurer, each load
/// answered by media/slider.response.json. scripts/fuzz runs it with -timeout=2, so a slow input is a finding.
let block = try! NativeResponseParser().parse(Data(contentsOf: URL(fileURLWithPath: "media/slider.response.json")),
                                              source: "slider.response.json")

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    guard let session = try? ScreenSession(sessionFile: bytes, file: "fuzz.session.json") else { return 0 }
    precondition(session.screen.scenes.count <= SessionFileLimits.maximumScenes && session.players.count <= SessionFileLimits.maximumPlayers
                 && session.nativePlacements.count <= SessionFileLimits.maximumNativePlacements)
    NativeLoadPath.run(session, block: block)
    return 0
}

FuzzDriver.run { fuzzSession($0, $1) }
