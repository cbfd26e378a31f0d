import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// Plays an ad plan over a content and writes what the screen shows: the stitcher that drives VideoPipeline.
///
/// Each output frame, the `PlaybackSession` decides what is on screen; the stitcher fetches that source's
/// picture at that tick, composites it (full screen, or in the picture-in-picture window over the background),
/// encodes it, and writes the frame's audio; it records the timeline and passes the session's events on. An ad
/// whose media fails (missing, unreadable, decode error mid-ad) is reported to the session with its VAST code and
/// the render goes on. On a screen where other scenes have players too (`request.players`), each is a
/// `ScenePlayback` stepped after the primary session and drawn in its own scene; the output's audio and length are
/// the primary's.
///
/// `render(_:control:)` runs a whole batch render. `pipctl play` drives `step()` itself, in real time, submitting
/// live commands to `session`.
public final class Stitcher {
    public let request: RenderRequest
    public let format: OutputFormat
    /// Decides every frame: the primary session, the other players' and the screen ads' playback.
    public let director: Director
    /// The primary player's session (`director.session`): `play` submits its live commands here.
    public var session: PlaybackSession { director.session }
    /// Frames expected in all (content plus the declared length of every ad), for progress; the real count can
    /// differ when ads fail or their media differs from what the ad server declared.
    public let estimatedFrames: Int64
    /// The plan's remote media, downloading from the end of `init` on. Cancelling it (Ctrl-C) ends a wait at once
    /// and makes the next `step()` throw `.interrupted`.
    public var downloads: MediaDownloads { library.ads.downloads }

    let content: MediaSource
    /// Every picture source besides the players: the ads' media, the backdrop, the screen ads' and native pictures.
    let library: MediaLibrary
    var players = OtherPlayers()
    /// The banner requests live screen commands cause (`play` only); their events wait in the director.
    let liveBanners: LiveBannerRequests?
    /// `play`'s native run, evaluated as the screen applies its commands (`request.liveNative`).
    let liveNative: LiveNativeRun?
    var output: FrameOutput
    var records: Records
    var sound: SoundTrack
    /// A passthrough render's policy: what is held back, what is copied, and why not.
    var passthrough: PassthroughPolicy
    /// What drawing the current frame found of its media (a full-screen video that failed part-way), reported to the
    /// session once the picture is drawn, which then decides the frame again: drawing itself changes no ad state.
    var mediaReports: [MediaReport] = []
    /// The timeline's layers of the last frame written (a device's; empty otherwise), where `play --show` finds what
    /// the mouse is over.
    public private(set) var shownLayers: [Timeline.Layer] = []

    /// A stretch of consecutive ticks of one source: its audio is read contiguously from `sourceStart`.
    struct AudioRun {
        var key: SourceKey
        var startFrame: Int64
        var sourceStart: Int64
        var lastTick: Int64
    }

    /// Opens the content, the background and the output, and creates the session.
    /// - Parameter isCancelled: polled while sources are measured for `--loudness` (before the first frame, and
    ///   when an ad is first opened), so that a signal does not wait for a long measurement to end.
    public init(request: RenderRequest, appDelegate: (any PictureInPictureDelegate)? = nil,
                mode: SessionConfiguration.Mode = .batch, isCancelled: @escaping () -> Bool = { false }) throws(RenderError) {
        // Checked before anything is opened or written: no output may replace a file the render reads.
        if let collision = request.fileCollision {
            throw .output(.outputNotWritable(path: collision.output.path, reason: "it is the same file as \(collision.other.description); nothing was written"))
        }
        self.request = request
        let info: MediaInfo
        let content: MediaSource
        if let probed = request.content.info, probed.path == request.content.path {
            info = probed
        } else {
            do { info = try MediaProbe.probe(request.content.path) } catch { throw .content(error) }
        }
        guard info.bestVideo != nil else { throw .content(.missingStream(path: request.content.path, kind: .video)) }
        let format = request.outputFormat(content: info, live: mode == .live)
        do { try format.validate() } catch { throw .output(error) }
        self.format = format
        do { content = try MediaSource(path: request.content.path, format: format, threads: request.encoding.threads) } catch {
            throw .content(error)
        }
        self.content = content
        let background: MediaSource?
        do { background = try request.pictureInPictureBackground.map { p throws(MediaError) in try MediaSource(path: p, format: format) } } catch {
            throw .background(error)
        }
        let screenAdPictures = try request.device.screenAds.map { run throws(RenderError) in
            try ScreenAdPictures(run: run, format: format, cache: request.mediaCache)
        }
        liveBanners = mode == .live ? screenAdPictures.flatMap { ads in
            ads.run.loader.map { LiveBannerRequests(driver: ads.run.driver, loader: $0) }
        } : nil
        let liveNative = mode == .live ? try Stitcher.liveNative(request, format: format) : nil
        self.liveNative = liveNative
        let native = request.device.nativeAds == nil && liveNative == nil ? nil
            : try NativePictures(ads: liveNative == nil ? request.device.nativeAds : nil, images: request.device.nativeAds?.images ?? [:], font: request.device.font,
                                 format: format, threads: request.encoding.threads, cache: request.mediaCache)
        // One download queue for every player's ads, so that Ctrl-C stops all of them at once.
        let cache = MediaCache(settings: request.mediaCache)
        let downloads = MediaDownloads(urls: ([request.plan] + request.device.players.map(\.plan)).flatMap {
            MediaDownloads(plan: $0, cache: cache).urls
        }, cache: cache, concurrency: request.mediaCache.concurrency)
        let media = AdMedia(format: format, threads: request.encoding.threads, downloads: downloads, reportsWaits: mode == .live)
        library = MediaLibrary(ads: media, background: background, screenAds: screenAdPictures, native: native, rate: format.frameRate)
        // `play` normalises only when asked: measuring a source takes a decode of its sound before it can start.
        let normalisation = request.loudness ?? (mode == .live ? .off : .default(plan: request.plan, screenAds: request.device.screenAds))
        let normaliser: LoudnessNormaliser?
        do { normaliser = normalisation == .off ? nil : try LoudnessNormaliser(normalisation, content: content, format: format,
                                                                                           control: JobControl(isCancelled: isCancelled)) } catch {
            if error == .interrupted { throw .interrupted }
            throw .content(error)
        }
        library.ads.normaliser = normaliser
        sound = SoundTrack(clock: format.sampleClock, normaliser: normaliser)
        let (stage, refusal) = try PassthroughPolicy.outputStage(request, format: format, content: info, source: content)
        passthrough = PassthroughPolicy(request: request, stage: stage, refusal: refusal, content: content, media: media)
        do {
            output = FrameOutput(compositor: try Compositor(size: format.size), stage: stage, keyframes: request.output.hls.map {
                KeyframeSchedule(interval: HLSSegmenter.frames(perSegment: $0.segmentDuration, rate: format.frameRate))
            })
            records = Records(timeline: TimelineBuilder(rate: format.frameRate),
                              timelineFile: try request.resolvedTimelinePath.map { try AtomicFile(destination: $0) },
                              eventLog: try request.resolvedEventsPath.map { try EventLog(destination: $0) })
        } catch let error as MediaError {
            throw .output(error)
        } catch let error as AtomicFile.Failure {
            throw .output(.outputNotWritable(path: error.path, reason: error.reason))
        } catch let error as EventLogError {
            throw .output(Stitcher.eventLogError(error, events: request.resolvedEventsPath ?? request.output.path))
        } catch {
            throw .output(.outputNotWritable(path: request.resolvedEventsPath ?? request.output.path, reason: "\(error)"))
        }
        let configuration = SessionConfiguration(
            frameRate: format.frameRate, canvas: format.size, contentFrameCount: content.frameCount,
            contentAspect: content.displayAspect, contentStart: request.content.start, ads: request.ads,
            pictureInPicture: request.pictureInPicture, script: request.script, mode: mode,
            clockOrigin: request.clockOrigin, cacheBusting: request.cacheBusting, contentEarlyEnd: content.earlyEnd)
        let playerScenes = (request.device.screen.map { [$0.scenes[0].id] } ?? []) + request.device.players.map(\.scene)
        do throws(ScriptError) { try request.script.checkScenes(players: playerScenes, scenes: request.device.screen?.scenes.map(\.id) ?? []) } catch {
            throw .session("\(error)")
        }
        for player in request.device.players {
            players.all.append(try ScenePlayback(player: player, format: format, threads: request.encoding.threads,
                                                 downloads: downloads, live: mode == .live))
        }
        let others = zip(request.device.players, players.all).map { player, playback in
            Director.PlayerSetup(scene: player.scene, plan: player.plan, content: playback.sessionContent, media: playback.media)
        }
        let planner = FramePlanner(canvas: format.size, frameRate: format.frameRate, background: request.pictureInPictureBackground,
                                   screenAdCreatives: library.screenAds != nil, pointScale: request.device.screen?.pointScale)
        do {
            director = try Director(plan: request.plan, configuration: configuration, media: media, appDelegate: appDelegate,
                                    others: others, screen: request.device.screen, screenAds: library.screenAds?.run, planner: planner)
        } catch {
            let path = error.scene.flatMap { scene in request.device.players.first { $0.scene == scene }?.contentPath } ?? request.content.path
            throw .session("\(path): \(error.error)")
        }
        estimatedFrames = content.frameCount + request.plan.breaks.flatMap(\.ads).reduce(0) { sum, planned in
            sum + (Stitcher.expectedDuration(of: planned).map { format.frameRate.frameCount(in: $0) } ?? 0)
        }
        // The content's loudness notes open the log, before the first frame's events.
        for note in normaliser?.takeNotes() ?? [] { director.report(.noted(note, scene: nil)) }
        director.screen?.recordsNativeCommands = liveNative != nil
        director.screen?.hasNativePlacements = request.device.nativeAds != nil || liveNative != nil
        // A render's native events are known before it starts; `play`'s come as it plays (`updateLiveNative`).
        if liveNative == nil { director.schedule(native: native?.events ?? []) }
        // Fetch ahead: every break's media starts downloading now, while the content before it plays.
        downloads.start()
    }

    /// Downloads still running when the render ends are stopped (what arrived is kept to be resumed).
    deinit {
        downloads.cancel()
        liveBanners?.cancel()
        liveNative?.cancel()
        director.screenAds?.cancel()
    }

    /// Also sends every event to `observer` (a beacon sender, a live printer).
    public func observe(_ observer: any SessionEventObserver) { records.observers.append(observer) }

    /// The number of output frames written so far.
    public var frameCount: Int64 { output.stage.frameCount }

    /// Renders the next output frame. Returns `false` once the session has ended (call `finish()` then).
    public func step() throws(RenderError) -> Bool {
        while true {
            let next = director.nextFrame()
            // The downloads were cancelled (Ctrl-C), perhaps while this very frame waited for an ad's media: stop
            // before that ad's AD_ERROR and error beacons go out; the ad did not fail, the run was stopped.
            if downloads.isCancelled { throw .interrupted }
            guard let decision = next else {
                try flushEvents()
                return false
            }
            updateLiveBanners(decision)
            updateLiveNative(decision)
            if decision.frame != players.steppedFrame {
                players.steppedFrame = decision.frame
                // Made in the same order as the director's sessions (`Director.PlayerSetup`).
                for (player, session) in zip(players.all, director.players) { try player.step(session, of: director) }
            }
            do {
                try render(decision)
            } catch let failure as AdFailure {
                try passthrough.encodeHeld(before: failure.ad)
                library.ads.close(failure.ad)
                director.report(.adFailed(failure.error))
                continue
            } catch is FramePlanChanged {
                continue
            } catch let error as RenderError {
                throw error
            } catch {
                throw .output(.outputNotWritable(path: request.output.path, reason: "\(error)"))
            }
            try flushEvents()
            return true
        }
    }

    /// Writes the trailer, the timeline and the event log, and moves them all into place with `alongside` (files of
    /// the caller's, such as `play`'s command log): all of them, or none when one fails.
    @discardableResult
    public func finish(alongside: [AtomicFile] = []) throws(RenderError) -> RenderResult {
        precondition(!records.finished)
        records.finished = true
        try passthrough.finish()
        let segments = records.timeline.finish()
        let stage = output.stage
        let output = Timeline.Output(
            path: request.output.path, fps: format.frameRate.perSecond.fraction, width: format.size.width,
            height: format.size.height, frames: stage.frameCount,
            duration: format.frameRate.time(ofFrame: stage.frameCount).seconds.doubleValue,
            sampleRate: format.sampleRate, channels: format.channels,
            audioSamples: sound.clock.sample(atFrame: stage.frameCount), profile: request.encoding.profile.rawValue,
            pointScale: request.device.screen?.pointScale.description)
        var result = Timeline(output: output, content: Timeline.Source(
            path: request.content.path, fps: content.nominalFrameRate.perSecond.fraction, frames: content.frameCount,
            duration: content.videoDuration.seconds.doubleValue), segments: segments)
        var passthroughSound = content.hasAudio ? stage.audioCopyRefusal.map { PassthroughSound.encoded($0) } : nil
        result.videoRuns = passthrough.runs.map { Timeline.VideoRun.runs(copied: $0.copied, frames: stage.frameCount) }
        result.loudness = sound.normaliser?.timeline
        // The content's path as given is relative to where the render ran (the ads' are absolute): made absolute,
        // so that verify and report read the timeline from any directory.
        result = result.withAbsolutePaths(in: FileManager.default.currentDirectoryPath)
        // Every file is finished under its temporary name first, then all are put in place together: a failure
        // at any point leaves every previous file at its destination exactly as it was.
        do {
            try records.timelineFile?.write(result.jsonData())
            var files: [AtomicFile] = []
            files += try stage.finishWriting()
            if let timelineFile = records.timelineFile { files.append(timelineFile) }
            if let eventLog = records.eventLog { files.append(try eventLog.finishWriting()) }
            try AtomicFile.commitAll(files + alongside)
            if let packets = stage.audioPackets { passthroughSound = .copied(packets: packets.copied, encoded: packets.encoded) }
        } catch let error as MediaError {
            throw .output(error)
        } catch let error as AtomicFile.Failure {
            throw .output(.outputNotWritable(path: error.path, reason: error.reason))
        } catch let error as EventLogError {
            throw .output(eventLogError(error))
        } catch {
            throw .output(.outputNotWritable(path: request.output.path, reason: "\(error)"))
        }
        let earlyEnds = (content.earlyEnd.map { [InputEarlyEnd(ad: nil, earlyEnd: $0)] } ?? []) + library.ads.earlyEnds
        return RenderResult(timeline: result, plan: session.plan, earlyEnds: earlyEnds, breaksNotReached: records.breaksNotReached,
                            passthroughRefusal: passthrough.refusal, passthroughAds: passthrough.ads,
                            passthroughNotes: passthrough.notes + passthrough.gainedSoundNotes(sound.normaliser), passthroughSound: passthroughSound)
    }

    /// Runs a whole batch render.
    public static func render(_ request: RenderRequest, control: JobControl = .none) throws(RenderError) -> RenderResult {
        let stitcher = try Stitcher(request: request, isCancelled: control.isCancelled)
        while try stitcher.step() {
            control.progress(stitcher.frameCount, max(stitcher.estimatedFrames, stitcher.frameCount))
            if control.isCancelled() { throw .interrupted }
        }
        return try stitcher.finish()
    }

    // MARK: - One frame

    private func render(_ decision: FrameDecision) throws {
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

    /// A placeholder for a presented full-screen ad without loaded creatives (`--device` alone): a plain colour, so
    /// that the layer's rectangle can still be checked from the pixels.
    package static let fullScreenColor = YUVColor(red: 0xCC, green: 0x33, blue: 0x66)
    /// A placeholder for a banner's landing screen, likewise.
    package static let overlayColor = YUVColor(red: 0xF0, green: 0xF0, blue: 0xF0)
    /// The Split View divider: a dark grey bar, told apart from black (16), the slate (43) and the bezel (71) by
    /// its luma, 57.
    static let dividerColor = YUVColor(red: 0x30, green: 0x30, blue: 0x32)
    /// A Slide Over window's rim: iOS's system grey (#8E8E93), luma 138, in a bar with rounded ends.
    static let slideOverEdgeColor = YUVColor(red: 0x8E, green: 0x8E, blue: 0x93)

    /// How strong a Slide Over window's shadow is beside it, 0...255: black at 30 %, fading over its reach, as
    /// subtle as iPadOS's.
    static let slideOverShadowOpacity: UInt8 = 77

    /// A Slide Over window's soft shadow, cast by `caster` (corners rounded to `radius`, reaching `reach` pixels) and
    /// drawn only in `drawn` (its part on the display); the painter of `verify` draws it with the same layer.
    package static func shadowLayer(caster: PixelRect, radius: Int, reach: Int, drawn: PixelRect) -> CompositorLayer {
        CompositorLayer.shadow(of: caster, radius: radius, reach: reach, .black, opacity: slideOverShadowOpacity).clipped(to: drawn)
    }

    private func flushEvents() throws(RenderError) {
        let events = director.drainEvents(written: frameCount)
        guard !events.isEmpty else { return }
        // The primary player's (in the screen's first scene on a device): the output's length is its content's.
        let primaryScene = request.device.screen?.scenes.first?.id
        records.breaksNotReached += events.compactMap {
            if $0.scene == primaryScene, case .adBreakSkipped(let b, .contentEnded, _) = $0.kind { b } else { nil }
        }
        do { for event in events { try records.eventLog?.append(event) } } catch {
            throw .output(eventLogError(error))
        }
        for observer in records.observers { observer.session(didRecord: events) }
    }

    private func eventLogError(_ error: EventLogError) -> MediaError {
        Stitcher.eventLogError(error, events: request.resolvedEventsPath ?? request.output.path)
    }

    /// An event log's failure as an output error that names the log once.
    static func eventLogError(_ error: EventLogError, events: String) -> MediaError {
        switch error {
        case .cannotCreate(let path, let reason), .cannotWrite(let path, let reason):
            .outputNotWritable(path: path, reason: reason)
        default:
            .outputNotWritable(path: events, reason: error.description)
        }
    }

    /// How long an ad should play, for progress: what the ad server declared, or (for a `--break` file, which
    /// declares nothing) its probed video length. The probe is an ad's: a file over `PictureLimit.creatives` is
    /// not decoded (its ad fails when it is opened).
    static func expectedDuration(of planned: PlannedAd) -> MediaDuration? {
        guard planned.state == .available else { return nil }
        if let declared = planned.ad.declaredDuration { return declared }
        guard let path = planned.ad.localMediaPath, let info = try? MediaProbe.probe(path, pictureLimit: .creatives) else { return nil }
        return info.bestVideo?.duration ?? info.duration
    }

}

/// What a finished render produced.
public struct RenderResult: Sendable {
    public var timeline: Timeline
    /// The plan with the final state of every ad.
    public var plan: AdPlan
    /// The inputs whose frames stopped before their declared duration: the content first, then the ads played.
    public var earlyEnds: [InputEarlyEnd] = []
    /// Mid-rolls cued after the content's real end, which it never reached (`AD_BREAK_SKIPPED` `contentEnded`).
    public var breaksNotReached: [Int] = []
    /// Why `--passthrough auto` encoded every frame; `nil` when it copied, or was not asked to.
    public var passthroughRefusal: PassthroughRefusal?
    /// In passthrough, what became of each ad's pictures (those shown whole, on their own, at least once).
    public var passthroughAds: [AdReference: PassthroughAd] = [:]
    /// In passthrough, what limited the copying of the content (open GOPs).
    public var passthroughNotes: [String] = []
    /// In passthrough, what became of the sound.
    public var passthroughSound: PassthroughSound?
}

/// What a passthrough render did with the sound.
public enum PassthroughSound: Hashable, Sendable {
    /// AAC packets copied (the content's, and those of ads with sound in the output's format), and encoded (other
    /// ads', and a few either side of each splice).
    case copied(packets: Int, encoded: Int)
    /// Every packet encoded, and why.
    case encoded(CopyRefusal)
}

/// An input of a render that ended before its declared duration: the content (`ad` is `nil`) or one ad.
public struct InputEarlyEnd: Hashable, Sendable {
    public var ad: AdReference?
    public var earlyEnd: EarlyEnd
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

