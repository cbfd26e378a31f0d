import AdDecisioning
import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

// One frame as the stitcher draws and writes it: the primary player's source, the frame's plan, its layers drawn,
// its sound, the timeline's record.
extension Stitcher {
    /// Draws and writes the frame `decision` is the primary player's decision of.
    func render(_ decision: FrameDecision) throws {
        let source: MediaSource
        let key: SourceKey
        let tick = decision.source.tick
        switch decision.source {
        case .content:
            source = content
            key = .content
        case .ad(let ad, _):
            key = .ad(ad)
            guard let s = library.ads.source(ad) else {
                throw AdFailure(ad: ad, error: AdError(.mediaDisplay, "break \(ad.breakIndex) ad \(ad.adIndex): its media is not open"))
            }
            source = s
        }
        let breakIndex = key.ad?.breakIndex
        let plan = plan(decision, source: source)
        let picture: PixelRect
        let hold = try passthrough.step(decision)
        do {
            if hold.isHeld {
                // Copied later, its picture not even decoded: the content, whole, in the whole frame.
                picture = PixelRect(size: format.size)
            } else {
                let landed = try output.compositor.draw(resolve(plan, primary: try source.picture(atTick: tick)))
                picture = plan.playerLayer.map { landed[$0] } ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            }
        } catch {
            mediaReports.removeAll()
            throw key.ad.map { AdFailure(ad: $0, error: AdError(.mediaDisplay, "\(error)")) } ?? RenderError.content(error)
        }
        if !mediaReports.isEmpty {
            // The session decides this frame again without what failed; nothing of it was written.
            for report in mediaReports { director.report(report) }
            mediaReports.removeAll()
            throw FramePlanChanged()
        }

        // Audio: the frame owns samples [A(n), A(n+1)) of the output; the stage asks for exactly those.
        let n = decision.frame
        var read = FrameSound()
        let keyframe = output.keyframes?.forces(frame: n, breakIndex: breakIndex) ?? false
        try output.stage.write(frame: n, picture: hold.isHeld ? nil : output.compositor.picture, keyframe: keyframe,
                               outputFailure: { RenderError.output($0) as any Error }) {
            (span: OutputStage.SampleSpan, audio: AudioBuffer) throws(any Error) in
            try readSound(of: plan, frame: n, source: source, key: key, tick: tick, span: span, into: audio, read: &read)
        }
        output.keyframes?.wrote(frame: n, breakIndex: breakIndex, keyframe: keyframe)
        shownLayers = hold.isHeld ? [] : plan.timeline ?? []
        try passthrough.written(hold, keyframe: keyframe)
        records.timeline.add(TimelineBuilder.Frame(
            outFrame: n,
            shown: .init(kind: key.ad == nil ? .content : .ad, source: source.path, sourceFps: source.nominalFrameRate.perSecond.fraction,
                         ad: key.ad, tick: tick, paused: decision.isPaused, pip: decision.pip, picture: picture),
            audio: .init(start: sound.clock.sample(atFrame: n), sourceStart: read.sourceStart, padded: read.padded, drift: read.drift,
                         startsRun: read.startsRun),
            screen: decision.screen.map { screen in
                .init(display: screen.display, scenes: screen.scenes.map {
                    Timeline.Scene(id: $0.id, rect: .init($0.rect), safeArea: .init($0.safeArea), state: $0.state, banner: $0.banner)
                }, layers: hold.isHeld ? nil : plan.timeline)
            }))
        if key.ad == nil {
            library.ads.closeAll()
            passthrough.closeCopiedAds()
        }
    }
}

/// An ad whose media failed while it played.
struct AdFailure: Error {
    var ad: AdReference
    var error: AdError
}

/// The frame being drawn was reported back to the session (`MediaReport`), which decides it again.
struct FramePlanChanged: Error {}

/// Whose audio and pictures a frame reads: the content or one ad of the plan.
enum SourceKey: Hashable {
    case content
    case ad(AdReference)

    var ad: AdReference? {
        if case .ad(let ad) = self { return ad }
        return nil
    }
}
