import AdCore
import MediaCore
import VideoPipeline

/// `render --passthrough`: whether the content's own H.264 packets are copied where the output shows it whole.
public enum PassthroughMode: String, Sendable, CaseIterable {
    /// Every frame is encoded.
    case off
    /// Copy, or fail with the reason when the content or the render does not allow it.
    case on
    /// Copy when possible; otherwise encode every frame and say why.
    case auto
}

/// The rule of a passthrough render, frame by frame: a run of content frames shown whole, one after the other from
/// an IDR, is held back (its sound written, its picture not even decoded) until it reaches the content's next IDR,
/// and then copied; a run cut before that (an ad break, a pause, a seek, picture-in-picture) has the pictures it held
/// decoded and encoded. So only the partial GOPs around each cut are encoded: from the cut to the next IDR where the
/// content resumes, from the last IDR to the cut where it pauses.
struct PassthroughRuns {
    /// The content's IDR pictures and picture count (output ticks: the content's rate is the output's).
    let keyframes: Set<Int64>
    let contentFrames: Int64
    /// The run held back: content ticks `start..<next`, output frames from `outStart`.
    private(set) var pending: (start: Int64, next: Int64, outStart: Int64)?
    /// Output frame ranges whose pictures were copied.
    private(set) var copied: [Range<Int64>] = []

    init(keyframes: [Int64], contentFrames: Int64) {
        self.keyframes = Set(keyframes)
        self.contentFrames = contentFrames
    }

    /// What to do with output frame `frame`, showing content tick `tick` whole (`nil`: anything else).
    enum Step: Equatable {
        /// Hold this frame's picture back; copy `copy` (content ticks) now when the run has reached an IDR.
        case hold(copy: Range<Int64>?)
        /// Draw and encode this frame as usual, after encoding the held-back ticks `encode` first.
        case draw(encode: Range<Int64>?)
    }

    mutating func step(frame: Int64, tick: Int64?) -> Step {
        var flushed: Range<Int64>?
        if let run = pending, tick != run.next {
            flushed = run.start..<run.next
            pending = nil
        }
        guard let tick else { return .draw(encode: flushed) }
        if pending == nil {
            guard keyframes.contains(tick), flushed == nil else { return .draw(encode: flushed) }
            pending = (tick, tick, frame)
        }
        pending!.next += 1
        let run = pending!
        guard keyframes.contains(run.next) || run.next == contentFrames else { return .hold(copy: nil) }
        copied.append(run.outStart..<(run.outStart + run.next - run.start))
        pending = nil
        return .hold(copy: run.start..<run.next)
    }

    /// At the end: the ticks still held back, to encode.
    mutating func finish() -> Range<Int64>? {
        defer { pending = nil }
        return pending.map { $0.start..<$0.next }
    }
}
