import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// Plays an ad plan over a content and writes what the screen shows: the stitcher that drives VideoPipeline.
///
/// Each output frame, the `Director` decides what is on screen; the stitcher fetches the pictures it names,
/// asks for the frame's plan, composites it (full screen, or in the picture-in-picture window over the background),
/// encodes it, and writes the frame's audio; it records the timeline and passes the director's events on. An ad
/// whose media fails (missing, unreadable, decode error mid-ad) is reported to the director with its VAST code and
/// the render goes on. On a screen where other scenes have players too (`request.players`), each is a
/// `ScenePlayback` whose picture is fetched as the director decides it and drawn in its own scene; the output's audio
/// and length are the primary's. Per frame nothing else crosses: the plan, what was found of the media, the events.
///
/// `render(_:control:)` runs a whole batch render. `pipctl play` drives `step()` itself, in real time, submitting
/// live commands to `commands`.
public final class Stitcher {
    public let request: RenderRequest
    public let format: OutputFormat
    /// Decides every frame: every player's session, the screen, the screen ads and the native placements.
    let director: Director
    /// Frames expected in all (content plus the declared length of every ad), for progress; the real count can
    /// differ when ads fail or their media differs from what the ad server declared.
    public let estimatedFrames: Int64
    /// The plan's remote media, downloading from the end of `init` on. Cancelling it (Ctrl-C) ends a wait at once
    /// and makes the next `step()` throw `.interrupted`.
    public var downloads: MediaDownloads { library.ads.downloads }

    let content: MediaSource
    /// Every picture source besides the primary player's content: the ads' media, the other players', the backdrop,
    /// the screen ads' and native pictures; the director's catalog.
    let library: MediaLibrary
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
    public internal(set) var shownLayers: [Timeline.Layer] = []

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
        let liveNative = mode == .live ? try Stitcher.liveNative(request, format: format) : nil
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
        } catch {
            throw .output(Stitcher.outputError(error, request: request, otherwise: request.resolvedEventsPath ?? request.output.path))
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
        library.players = try request.device.players.map { player throws(RenderError) in
            try ScenePlayback(player: player, format: format, threads: request.encoding.threads, downloads: downloads, live: mode == .live)
        }
        let others = zip(request.device.players, library.players).map { player, playback in
            Director.PlayerSetup(scene: player.scene, plan: player.plan, content: playback.sessionContent, media: playback.media)
        }
        let planner = FramePlanner(canvas: format.size, frameRate: format.frameRate, background: request.pictureInPictureBackground,
                                   screenAdCreatives: library.screenAds != nil, pointScale: request.device.screen?.pointScale)
        let nativeRun = liveNative ?? request.device.nativeAds.map { Director.Native.rendered($0.outcome, events: native?.events ?? []) }
        do {
            director = try Director(plan: request.plan, configuration: configuration, media: media, appDelegate: appDelegate,
                                    others: others, screen: request.device.screen, screenAds: library.screenAds?.run,
                                    native: nativeRun ?? .none, planner: planner, catalog: library)
        } catch {
            let path = error.scene.flatMap { scene in request.device.players.first { $0.scene == scene }?.contentPath } ?? request.content.path
            throw .session("\(path): \(error.error)")
        }
        estimatedFrames = content.frameCount + request.plan.breaks.flatMap(\.ads).reduce(0) { sum, planned in
            sum + (Stitcher.expectedDuration(of: planned).map { format.frameRate.frameCount(in: $0) } ?? 0)
        }
        // The content's loudness notes open the log, before the first frame's events.
        for note in normaliser?.takeNotes() ?? [] { director.report(.noted(note, scene: nil)) }
        // Fetch ahead: every break's media starts downloading now, while the content before it plays.
        downloads.start()
    }

    /// Downloads still running when the render ends are stopped (what arrived is kept to be resumed); the
    /// director's fetches stop with it.
    deinit { downloads.cancel() }

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
            guard let frame = next else {
                try flushEvents()
                return false
            }
            // The other players' pictures: an ad of theirs that cannot be shown is reported, and they alone decide
            // the frame again.
            var failed = false
            for other in frame.others {
                guard let error = try library.player(other.scene).show(other.source) else { continue }
                director.report(.adMediaFailed(error), player: other.scene)
                failed = true
            }
            if failed { continue }
            do {
                try render(frame.decision)
            } catch let failure as AdFailure {
                try passthrough.encodeHeld(before: failure.ad)
                library.ads.close(failure.ad)
                director.report(.adMediaFailed(failure.error))
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

    /// What failed while the output's files were opened or put in place, as the output's error: FFmpeg's, a file's
    /// (`AtomicFile`), the event log's, or anything else as `otherwise` not writable.
    static func outputError(_ error: any Error, request: RenderRequest, otherwise path: String) -> MediaError {
        switch error {
        case let error as MediaError: error
        case let error as AtomicFile.Failure: .outputNotWritable(path: error.path, reason: error.reason)
        case let error as EventLogError: eventLogError(error, events: request.resolvedEventsPath ?? request.output.path)
        default: .outputNotWritable(path: path, reason: "\(error)")
        }
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
