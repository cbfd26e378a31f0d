import AdCore
import MediaCore
import VideoPipeline

extension Stitcher {
    /// The render's output stage: with `request.passthrough` on or auto and a render that allows it, one that can
    /// copy the content's pictures; with auto and one that does not, an ordinary stage and the reason.
    ///
    /// - Throws: `.output` with the reason when passthrough is `on` and cannot be used.
    static func outputStage(_ request: RenderRequest, format: OutputFormat, content info: MediaInfo,
                            source: MediaSource) throws(RenderError) -> (OutputStage, String?) {
        func plain() throws(RenderError) -> OutputStage {
            do {
                return try OutputStage(destination: request.writesMedia ? request.outputPath : nil, format: format,
                                       encoding: request.encoding, frameHashPath: request.frameHashPath)
            } catch { throw .output(error) }
        }
        guard request.passthrough != .off else { return (try plain(), nil) }
        var reason = passthroughRefusal(request, format: format, content: info, source: source)
        if reason == nil {
            do {
                let stage = try OutputStage(destination: request.outputPath, format: format, encoding: request.encoding,
                                            passthrough: request.contentPath)
                return (stage, nil)
            } catch {
                guard case .cannotCopy(_, let why) = error else { throw .output(error) }
                reason = why
            }
        }
        let refusal = "--passthrough: \(request.contentPath): \(reason!)"
        guard request.passthrough == .auto else { throw .output(.invalidSetting(name: "--passthrough", value: "on", reason: refusal)) }
        return (try plain(), refusal)
    }

    /// Why this render cannot copy the content's pictures, or `nil`: passthrough copies a full-screen H.264
    /// content at the output's own size, shape and rate into an MP4, alone on screen.
    private static func passthroughRefusal(_ request: RenderRequest, format: OutputFormat, content info: MediaInfo,
                                           source: MediaSource) -> String? {
        guard let video = info.bestVideo else { return "it has no video" }
        if video.codec != "h264" { return "its video is \(video.codec), not H.264" }
        if request.encoding.profile != .delivery { return "the lossless profile encodes FFV1, not H.264" }
        if !request.writesMedia { return "nothing is written" }
        if request.frameHashPath != nil { return "--framehash needs every picture decoded" }
        if request.hls != nil { return "an HLS render encodes every frame (passthrough HLS is not built yet)" }
        if request.screen != nil || !request.players.isEmpty { return "a device or session screen composes every frame" }
        if request.contentStart != .zero { return "--start-at moves the content off its own frame grid" }
        if source.displayAspect != format.size.displayAspect() { return "its picture's shape differs from the output's" }
        if source.nominalFrameRate != format.frameRate { return "its frame rate \(source.nominalFrameRate) is not the output's \(format.frameRate)" }
        return nil
    }

    /// What a frame of a passthrough render does with its picture.
    enum PassthroughFrame {
        /// Drawn and encoded as in any render (after the held-back content it ends, if any, was encoded).
        case drawn
        /// Held back, not decoded; once its sound is written, `thenCopy` (content ticks), when the run is complete.
        case held(thenCopy: Range<Int64>?)

        var isHeld: Bool { if case .held = self { true } else { false } }
    }

    /// The passthrough rule for `decision` (`.drawn` in a render that copies nothing).
    func passthroughStep(_ decision: FrameDecision) throws(RenderError) -> PassthroughFrame {
        guard var runs = passthroughRuns else { return .drawn }
        var whole: Int64?
        if case .content(let t) = decision.source, decision.screen == nil, decision.pip == nil, !decision.isPaused { whole = t }
        let step = runs.step(frame: decision.frame, tick: whole)
        passthroughRuns = runs
        switch step {
        case .hold(let copy):
            return .held(thenCopy: copy)
        case .draw(let encode):
            if let encode { try encodeHeld(encode) }
            return .drawn
        }
    }

    /// Encodes held-back content ticks `ticks`, decoded now.
    func encodeHeld(_ ticks: Range<Int64>) throws(RenderError) {
        for t in ticks {
            let picture: VideoPicture
            do { picture = try content.picture(atTick: t) } catch { throw .content(error) }
            do { try stage.writeDeferredVideo(picture) } catch { throw .output(error) }
        }
    }

    /// At the end of the render: the run still held back is encoded.
    func finishPassthrough() throws(RenderError) {
        guard let rest = passthroughRuns?.finish() else { return }
        try encodeHeld(rest)
    }
}
