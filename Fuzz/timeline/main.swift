import AdPlayback
import Foundation
import FuzzSupport
import MediaCore
@testable import Rendering
@testable import Verification

/// Fuzz target `timeline`: any bytes as the timeline `pipctl verify` reads: decoded, its rates parsed and its
/// segments checked for continuity (the parts of verify that need no media), all without a crash and in time
/// linear in the input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTimeline(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    guard let timeline = try? JSONDecoder().decode(Timeline.self, from: bytes) else { return 0 }
    _ = FrameRate(parsing: timeline.output.fps)
    for segment in timeline.segments { _ = FrameRate(parsing: segment.sourceFps) }
    _ = Verifier.continuity(timeline, seekFrames: [])
    return 0
}

FuzzDriver.run { fuzzTimeline($0, $1) }
