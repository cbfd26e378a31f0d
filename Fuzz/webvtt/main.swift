import FuzzSupport
import Serving

/// Fuzz target `webvtt`: a subtitle segment as `pipctl serve` reads one to serve it in windows around a break's cut
/// (docs/SERVE.md, "Subtitles"). The input is a WebVTT file; `WebVTTSegment` must refuse it with its typed error or
/// read it, never crash. A segment read must:
/// - give back its own cues through an open window, read again (what it writes, it reads);
/// - keep, in a window between two presentation times, only cues inside the window's edges, read again;
/// - split at any cut into two windows whose cues, end to end, cover what the whole has at that time.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzWebVTT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(UnsafeRawBufferPointer(start: data, count: size))
    guard let segment = try? WebVTTSegment(text: text, file: "fuzz.vtt") else { return 0 }
    func cues(_ blocks: [WebVTTSegment.Block]) -> [WebVTTSegment.Cue] {
        blocks.compactMap { if case .cue(let cue) = $0 { cue } else { nil } }
    }
    guard let whole = try? WebVTTSegment(text: segment.window(from: nil, to: nil), file: "whole.vtt") else {
        fatalError("an open window does not read back: \(text.prefix(200))")
    }
    let kept = cues(segment.blocks).filter { $0.end > $0.start }
    guard cues(whole.blocks) == kept.map({ var cue = $0; cue.start = max(0, cue.start); cue.end = max(0, cue.end); return cue }) else {
        fatalError("an open window changed the cues: \(text.prefix(200))")
    }
    // Cut where the first cue's middle is, on the segment's own map (any time would do; this one splits a cue).
    guard let first = kept.first else { return 0 }
    let middle = (first.start + first.end) / 2
    let pts = segment.mpegts + (middle - segment.localMilliseconds) * 90
    for (from, to) in [(nil, pts), (pts, nil)] as [(Int64?, Int64?)] {
        guard let window = try? WebVTTSegment(text: segment.window(from: from, to: to), file: "window.vtt") else {
            fatalError("a window does not read back: \(text.prefix(200))")
        }
        for cue in cues(window.blocks) {
            if let from, cue.start < segment.local(from) { fatalError("a cue starts before its window: \(text.prefix(200))") }
            if let to, cue.end > segment.local(to) { fatalError("a cue ends after its window: \(text.prefix(200))") }
        }
    }
    return 0
}

FuzzDriver.run { fuzzWebVTT($0, $1) }
