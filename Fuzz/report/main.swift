import AdPlayback
import Foundation
import FuzzSupport
import MediaCore
@testable import Rendering
@testable import Verification

/// Fuzz target `report`: any bytes as a render's timeline and event log (cut at the first NUL), read as
/// `pipctl report` reads them — the timeline decoded and checked against an output of its own stated size (at
/// most 10,000 frames: the page's size follows the segments and events, not the frames), the event log under the
/// report's limits — then the lanes, the page and the strip written, all without a crash and in time linear in
/// the input. No media.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = FuzzInput.pieces(UnsafeRawBufferPointer(start: data, count: size), limit: 2)
    guard let timeline = try? RenderReportReader.decodeTimeline(pieces[0], path: "t.json") else { return 0 }
    let out = timeline.output
    let rendered = Timeline.RenderedMedia(frames: max(0, min(out.frames, 10_000)), length: nil,
                                          size: PixelSize(width: max(0, min(out.width, 4096)), height: max(0, min(out.height, 4096))),
                                          audio: out.sampleRate > 0 ? (out.sampleRate, max(1, min(out.channels, 8))) : nil)
    guard (try? RenderReportReader.check(timeline, path: "t.json", against: rendered)) != nil else { return 0 }
    let events = pieces.count > 1 ? ((try? RenderReportReader.decodeEvents(pieces[1], path: "e.jsonl")) ?? []) : []
    guard let report = try? RenderReport(title: "out.mp4", timeline: timeline, events: events, isCancelled: { false }) else { return 0 }
    _ = try? ReportPage(report: report).data(isCancelled: { false })
    _ = ThumbnailPlan.frames(timeline)
    return 0
}

FuzzDriver.run { fuzzReport($0, $1) }
