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

/// What a passthrough render does with sound it could copy (`--passthrough-sound`).
public enum PassthroughSoundMode: String, Sendable, CaseIterable {
    /// Copy the AAC packets of the content, and of ads with sound in the output's format, each run read up to half a
    /// packet from its picture's place onto the output's packet grid.
    case copy
    /// Encode all of the sound, every sample where its picture puts it.
    case encode
}

/// What a passthrough render did with an ad's pictures.
public enum PassthroughAd: Hashable, Sendable {
    /// Copied where the ad was shown whole (it was coded with the content's parameter sets, at the output's size
    /// and rate).
    case copied
    /// Encoded: its file's packets cannot join the output's track.
    case encoded(CopyRefusal)
    /// Encoded: its file could not be opened for copying (it plays, decoded, as any ad).
    case unreadable(MediaError)

    /// Why it was encoded; `nil` when it was copied.
    public var reason: String? {
        switch self {
        case .copied: nil
        case .encoded(let refusal): refusal.description
        case .unreadable(let error): error.description
        }
    }
}

/// Why `--passthrough` copies nothing of a render: the render, or the content's pictures, do not allow it.
public enum PassthroughRefusal: Hashable, Sendable, CustomStringConvertible {
    case noVideo
    case losslessProfile
    case nothingWritten
    case frameHash
    case composedScreen
    case startOffset
    case pictureShape
    case frameRate(content: FrameRate, output: FrameRate)
    /// The content's pictures cannot be copied as they are.
    case cannotCopy(CopyRefusal)

    public var description: String {
        switch self {
        case .noVideo: "it has no video"
        case .losslessProfile: "the lossless profile encodes FFV1, not H.264"
        case .nothingWritten: "nothing is written"
        case .frameHash: "--framehash needs every picture decoded"
        case .composedScreen: "a device or session screen composes every frame"
        case .startOffset: "--start-at moves the content off its own frame grid"
        case .pictureShape: "its picture's shape differs from the output's"
        case .frameRate(let content, let output): "its frame rate \(content) is not the output's \(output)"
        case .cannotCopy(let refusal): refusal.description
        }
    }
}

/// The rule of a passthrough render, frame by frame: a run of frames of one copyable file (the content, or an ad
/// coded like it) shown whole, one after the other from an IDR, is held back (its sound written, its picture not
/// even decoded) until it reaches the file's next IDR or its end, and then copied; a run cut before that (an ad
/// break, a pause, a seek, picture-in-picture, a skipped ad) has the pictures it held decoded and encoded. So only
/// the partial GOPs around each cut are encoded: from the cut to the next IDR where a file resumes, from the last
/// IDR to the cut where it pauses.
struct PassthroughRuns {
    /// Ticks `range` of the file `source` (output ticks: a copyable file's rate is the output's).
    struct Ticks: Equatable {
        var source: SourceKey
        var range: Range<Int64>
    }

    /// The IDR pictures and picture count of each file that may be copied.
    private var files: [SourceKey: (keyframes: Set<Int64>, frames: Int64)] = [:]
    /// The run held back: ticks `start..<next` of `source`, output frames from `outStart`.
    private(set) var pending: (source: SourceKey, start: Int64, next: Int64, outStart: Int64)?
    /// Output frame ranges whose pictures were copied.
    private(set) var copied: [Range<Int64>] = []

    init(keyframes: [Int64], contentFrames: Int64) {
        allow(.content, keyframes: keyframes, frames: contentFrames)
    }

    /// Lets the pictures of `source` be copied too.
    mutating func allow(_ source: SourceKey, keyframes: [Int64], frames: Int64) {
        files[source] = (Set(keyframes), frames)
    }

    /// Stops `source`'s pictures from being copied (its file was closed); it must not be the run held back.
    mutating func forget(_ source: SourceKey) {
        precondition(pending?.source != source, "\(source) forgotten while its run is held back")
        files[source] = nil
    }

    /// Whether `source`'s pictures may be copied.
    func allows(_ source: SourceKey) -> Bool { files[source] != nil }

    /// What to do with output frame `frame`.
    enum Step: Equatable {
        /// Encode the held-back ticks `encode` of the run this frame ends, if any; hold this frame's picture back;
        /// then copy `copy` when the run it is in has reached an IDR or the file's end.
        case hold(encode: Ticks? = nil, copy: Ticks? = nil)
        /// Draw and encode this frame as usual, after encoding the held-back ticks `encode` first.
        case draw(encode: Ticks?)
    }

    /// Both halves of a frame's step: `cut`, then `take`.
    /// - Parameter shown: the file and tick the frame shows whole, or `nil` for anything else (a frame that
    ///   composes, pauses, or shows a file that cannot be copied).
    mutating func step(frame: Int64, shown: (source: SourceKey, tick: Int64)?) -> Step {
        let flushed = cut(before: shown)
        return take(frame: frame, shown: shown, encodingFirst: flushed)
    }

    /// Ends the held run when `shown` does not continue it; its ticks, to encode before anything else is written.
    mutating func cut(before shown: (source: SourceKey, tick: Int64)?) -> Ticks? {
        guard let run = pending, shown?.source != run.source || shown?.tick != run.next else { return nil }
        pending = nil
        return Ticks(source: run.source, range: run.start..<run.next)
    }

    /// After `cut`: whether the frame is held, and the run to copy when it completes one.
    mutating func take(frame: Int64, shown: (source: SourceKey, tick: Int64)?, encodingFirst flushed: Ticks?) -> Step {
        guard let shown, let file = files[shown.source] else { return .draw(encode: flushed) }
        if pending == nil {
            guard file.keyframes.contains(shown.tick) else { return .draw(encode: flushed) }
            pending = (shown.source, shown.tick, shown.tick, frame)
        }
        pending!.next += 1
        let run = pending!
        guard file.keyframes.contains(run.next) || run.next == file.frames else { return .hold(encode: flushed) }
        copied.append(run.outStart..<(run.outStart + run.next - run.start))
        pending = nil
        return .hold(encode: flushed, copy: Ticks(source: run.source, range: run.start..<run.next))
    }

    /// At the end: the ticks still held back, to encode.
    mutating func finish() -> Ticks? {
        defer { pending = nil }
        return pending.map { Ticks(source: $0.source, range: $0.start..<$0.next) }
    }
}
