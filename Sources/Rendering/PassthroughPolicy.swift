import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

/// A passthrough render's policy and its state, owned by its stitcher: frame by frame, which pictures are held back
/// to be copied and which are drawn, the runs it copies and the partial GOPs it encodes (through the output stage),
/// each ad's file opened for copying its pictures or sound, what became of each ad, the keyframes forced on held
/// frames, and why the content is copied less or not at all. In a render that copies nothing every frame is drawn.
struct PassthroughPolicy {
    private let stage: OutputStage
    private let content: MediaSource
    private let media: AdMedia
    /// The runs of content held back to be copied; `nil` when every frame is encoded.
    private(set) var runs: PassthroughRuns?
    /// The ads whose pictures are copied, opened for it.
    private var adCopySources: [AdReference: CopySource] = [:]
    /// With the content's sound copied, each ad's sound opened for copying, or `nil` when it is not AAC-LC in the
    /// output's format (then encoded).
    private var adSounds: [AdReference: AudioPacketSource?] = [:]
    /// What became of each ad's pictures, decided when it is first shown.
    private(set) var ads: [AdReference: PassthroughAd] = [:]
    /// Whether each frame held back (in output order) was to be a keyframe, for when it is encoded.
    private var heldKeyframes: [Bool] = []
    /// What limited the copying of the content.
    private(set) var notes: [String] = []
    /// Why a passthrough render (`.auto`) encodes every frame, or `nil`.
    let refusal: PassthroughRefusal?

    /// The policy of a render whose output stage `outputStage(_:format:content:source:)` made (with `refusal`).
    init(request: RenderRequest, stage: OutputStage, refusal: PassthroughRefusal?, content: MediaSource, media: AdMedia) {
        self.stage = stage
        self.content = content
        self.media = media
        self.refusal = refusal
        runs = stage.copyable.map { PassthroughRuns(keyframes: $0.keyframes, contentFrames: $0.frames) }
        if let open = stage.copyable?.openGOPKeyframes, open > 0 {
            notes.append("\(request.content.path): \(open) of its keyframes are not IDRs (open GOPs), so its pictures are copied only from one IDR to the next")
        }
    }

    /// The render's output stage: with `request.passthrough` on or auto and a render that allows it, one that can
    /// copy the content's pictures; with auto and one that does not, an ordinary stage and the reason.
    ///
    /// - Throws: `.output` with the reason when passthrough is `on` and cannot be used.
    static func outputStage(_ request: RenderRequest, format: OutputFormat, content info: MediaInfo,
                            source: MediaSource) throws(RenderError) -> (OutputStage, PassthroughRefusal?) {
        func plain() throws(RenderError) -> OutputStage {
            do {
                return try OutputStage(destination: request.output.writesMedia ? request.output.path : nil, format: format,
                                       encoding: request.encoding, frameHashPath: request.output.frameHashPath)
            } catch { throw .output(error) }
        }
        guard request.passthrough.mode != .off else { return (try plain(), nil) }
        var reason = refusal(request, format: format, content: info, source: source)
        if reason == nil {
            do {
                let stage = try OutputStage(destination: request.output.path, format: format, encoding: request.encoding,
                                            passthrough: request.content.path, copySound: request.passthrough.sound == .copy)
                return (stage, nil)
            } catch {
                guard case .cannotCopy(_, let why) = error else { throw .output(error) }
                reason = .cannotCopy(why)
            }
        }
        guard let refusal = reason else { preconditionFailure("a passthrough stage neither made nor refused") }
        guard request.passthrough.mode == .auto else {
            throw .output(.invalidSetting(name: "--passthrough", value: "on", reason: "--passthrough: \(request.content.path): \(refusal)"))
        }
        return (try plain(), refusal)
    }

    /// Why this render cannot copy the content's pictures, or `nil`: passthrough copies a full-screen H.264
    /// content at the output's own size, shape and rate into an MP4, alone on screen.
    private static func refusal(_ request: RenderRequest, format: OutputFormat, content info: MediaInfo,
                                source: MediaSource) -> PassthroughRefusal? {
        guard let video = info.bestVideo else { return .noVideo }
        if video.codec != "h264" { return .cannotCopy(.videoCodec(video.codec)) }
        if request.encoding.profile != .delivery { return .losslessProfile }
        if !request.output.writesMedia { return .nothingWritten }
        if request.output.frameHashPath != nil { return .frameHash }
        if request.device.screen != nil || !request.device.players.isEmpty { return .composedScreen }
        if request.content.start != .zero { return .startOffset }
        if source.displayAspect != format.size.displayAspect() { return .pictureShape }
        if source.nominalFrameRate != format.frameRate { return .frameRate(content: source.nominalFrameRate, output: format.frameRate) }
        return nil
    }

    /// What a frame of a passthrough render does with its picture.
    enum Frame {
        /// Drawn and encoded as in any render (after the held-back pictures it ends, if any, were encoded).
        case drawn
        /// Held back, not decoded. Once the frame is written, `runs` is the rule's state, and `thenCopy` is to
        /// copy, when the run is complete.
        case held(thenCopy: PassthroughRuns.Ticks?, runs: PassthroughRuns)

        var isHeld: Bool { if case .held = self { true } else { false } }
    }

    /// The passthrough rule for `decision` (`.drawn` in a render that copies nothing). A run the frame ends is
    /// encoded now; the frame's own hold takes effect in `written(_:keyframe:)`, once the frame is in the output (an
    /// ad that fails while its frame is written is replaced at that frame).
    mutating func step(_ decision: FrameDecision) throws(RenderError) -> Frame {
        guard var runs else { return .drawn }
        var shown: (source: SourceKey, tick: Int64)?
        if decision.screen == nil, decision.pip == nil, !decision.isPaused {
            switch decision.source {
            case .content(let t): shown = (.content, t)
            case .ad(let ad, let t): if allowCopying(ad, into: &runs) { shown = (.ad(ad), t) }
            }
        }
        let flushed = runs.cut(before: shown)
        self.runs = runs
        if let flushed { try encodeHeld(flushed) }
        switch runs.take(frame: decision.frame, shown: shown, encodingFirst: nil) {
        case .hold(_, let copy): return .held(thenCopy: copy, runs: runs)
        case .draw: return .drawn
        }
    }

    /// After a frame was written (as a forced `keyframe` or not): its hold takes effect, and a run it completes is
    /// copied.
    mutating func written(_ frame: Frame, keyframe: Bool) throws(RenderError) {
        guard case .held(let copy, let runs) = frame else { return }
        self.runs = runs
        heldKeyframes.append(keyframe)
        if let copy {
            // Copied pictures are keyframes where the file has them, whatever was forced.
            heldKeyframes.removeFirst(copy.range.count)
            let file: CopySource? = switch copy.source {
            case .content: nil
            case .ad(let ad): adCopySources[ad] ?? { preconditionFailure("ad \(ad) copied after its file was closed") }()
            }
            do { try stage.copyVideo(copy.range, from: file) } catch { throw .output(error) }
        }
    }

    /// Before ad `ad` is closed (it failed): the pictures of it still held back are encoded while it is open.
    mutating func encodeHeld(before ad: AdReference) throws(RenderError) {
        guard runs?.pending?.source == .ad(ad), let held = runs?.cut(before: nil) else { return }
        try encodeHeld(held)
    }

    /// Whether the pictures of ad `ad` may be copied: decided when it is first shown, from its media file (coded
    /// with the content's parameter sets, at the output's size and rate); the reason when not is kept for the
    /// render's summary.
    private mutating func allowCopying(_ ad: AdReference, into runs: inout PassthroughRuns) -> Bool {
        if runs.allows(.ad(ad)) { return true }
        guard ads[ad] == nil, let source = media.source(ad) else { return false }
        do throws(MediaError) {
            guard let copy = try stage.copySource(source.path) else { return false }
            runs.allow(.ad(ad), keyframes: copy.keyframes, frames: copy.frames)
            adCopySources[ad] = copy
            ads[ad] = .copied
        } catch {
            if case .cannotCopy(_, let why) = error { ads[ad] = .encoded(why) } else { ads[ad] = .unreadable(error) }
        }
        return runs.allows(.ad(ad))
    }

    /// When the content resumes and the ads' media are closed: their files too. An ad shown again later (after a
    /// seek back) is encoded.
    mutating func closeCopiedAds() {
        for ad in adCopySources.keys { runs?.forget(.ad(ad)) }
        adCopySources.removeAll()
        adSounds.removeAll()
    }

    /// Encodes held-back ticks `ticks`, decoded now.
    private mutating func encodeHeld(_ ticks: PassthroughRuns.Ticks) throws(RenderError) {
        for t in ticks.range {
            let picture: VideoPicture
            switch ticks.source {
            case .content:
                do { picture = try content.picture(atTick: t) } catch { throw .content(error) }
            case .ad(let ad):
                guard let source = media.source(ad) else { preconditionFailure("held-back ad \(ad) closed before its pictures were encoded") }
                do { picture = try source.picture(atTick: t) } catch { throw .heldAd(error) }
            }
            // An HLS render forced a keyframe at this frame when it was held back (a segment may start there).
            let forced = heldKeyframes.isEmpty ? false : heldKeyframes.removeFirst()
            do { try stage.writeDeferredVideo(picture, keyframe: forced) } catch { throw .output(error) }
        }
    }

    /// At the end of the render: the run still held back is encoded.
    mutating func finish() throws(RenderError) {
        guard let rest = runs?.finish() else { return }
        try encodeHeld(rest)
    }

    /// In passthrough with the content's sound copied, the sound of `key` (at `path`) whose AAC packets may be copied:
    /// the content's, or an ad's opened the first time it plays; `nil` when it must be encoded.
    mutating func copyableSound(_ key: SourceKey, source: MediaSource) -> AudioPacketSource? {
        guard let content = stage.contentSound else { return nil }
        // A gained sound is not the file's: it is encoded (the render's summary says so, `gainedSoundNotes`).
        if let gain = source.soundGain, !gain.isIdentity { return nil }
        let path = source.path
        guard let ad = key.ad else { return content }
        if let opened = adSounds[ad] { return opened }
        // An ad whose sound cannot be copied (another codec or format, or unreadable: its own decoder says so) is
        // encoded like any other sound.
        let opened = try? stage.soundSource(path)
        adSounds[ad] = .some(opened)
        return opened
    }

    /// In passthrough with sound copied, why the sources whose loudness `normaliser` changed had their sound encoded.
    func gainedSoundNotes(_ normaliser: LoudnessNormaliser?) -> [String] {
        guard stage.contentSound != nil, let normaliser else { return [] }
        return normaliser.records.compactMap { record in
            guard record.gain != 0 || record.limited else { return nil }
            let who = record.breakIndex.map { "ad \(record.adIndex ?? 0) of break \($0)" } ?? "content"
            let why = record.gain != 0 ? "its loudness gain is \(LoudnessNormaliser.signed(record.gain)) dB" : "the limiter acts on it"
            return "\(who): sound encoded, not copied: \(why) (--loudness)"
        }
    }
}
