import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// The one way a render request is built from what a user gives: a session file, a session, or content with its ads.
///
/// Each input is read once: the session file parsed once, each player's content probed once (the stitcher reuses
/// the primary player's probe), the URL map read once for every fetch.
extension RenderRequest {
    /// The session file at `path`, read for a render: `ScreenSession(contentsOfSessionFile:)`, which bounds and
    /// checks it, and one of its scenes must have a player.
    ///
    /// - Parameter isCancelled: asked while a FIFO waits for its writer (a signal ends the wait).
    /// - Throws: `SessionFileError` naming the file and the JSON path of what is wrong (`scenes` when no scene has a
    ///   player).
    public static func session(contentsOfFile path: String, isCancelled: () -> Bool = { false }) throws(SessionFileError) -> ScreenSession {
        let session = try ScreenSession(contentsOfSessionFile: path, isCancelled: isCancelled)
        guard session.player != nil else {
            throw SessionFileError(file: path, path: "scenes", "no scene has a player (its content)")
        }
        return session
    }

    /// The request that renders the session file at `sessionFile` into `output`: the file read once
    /// (`session(contentsOfFile:)`), then as `init(session:output:loading:)`.
    ///
    /// - Throws: `RenderRequestError.sessionFile` for a file that cannot be read or used, else what
    ///   `init(session:output:loading:)` throws.
    public init(sessionFile: String, output: String, loading: Loading = Loading()) async throws(RenderRequestError) {
        let session: ScreenSession
        do { session = try Self.session(contentsOfFile: sessionFile) } catch { throw .sessionFile(error) }
        try await self.init(session: session, output: output, loading: loading)
    }

    /// The request that renders `session` into `output`.
    ///
    /// The primary player's content is probed, and its ads loaded for the content's duration and requested for its
    /// scene's window; then each other player's, in its own scene's window; then the screen's banners and
    /// full-screen ads; then the native placements, loaded and evaluated over the render (or, for a `.live` session,
    /// left to load as their commands apply). The script is the session's.
    ///
    /// - Throws: `RenderRequestError` naming the input at fault: `.noPlayer`, `.content`, `.contentStart`,
    ///   `.urlMap`, `.ads` (strict ads, or cancelled), `.script`, `.screenAds`, `.font`, `.native`.
    public init(session: ScreenSession, output: String, loading: Loading = Loading()) async throws(RenderRequestError) {
        guard let player = session.player else { throw .noPlayer }
        let script = Result { () throws(ScriptError) in try session.script.map { text throws(ScriptError) in try SessionScript(parsing: text) } ?? SessionScript() }
        try await self.init(inputs: Inputs(content: session.contentPath(of: player), ads: session.adSource(of: player), script: script,
                                           screen: session, others: Array(session.players.dropFirst())),
                            output: output, loading: loading)
    }

    /// The request that plays `content` with `ads` (none when `nil`) and `script` into `output`; on `screen`'s
    /// device when it is given, in its first scene, with its banners, full-screen ads and native placements (the
    /// screen's own players, if any, are not played: that is `init(session:output:loading:)`).
    ///
    /// - Throws: `RenderRequestError` naming the input at fault: `.content`, `.contentStart`, `.urlMap`, `.ads`
    ///   (strict ads, or cancelled), `.breaks`, `.screenAds`, `.font`, `.native`.
    public init(content: String, ads: AdSource?, script: SessionScript = SessionScript(), screen: ScreenSession? = nil,
                output: String, loading: Loading = Loading()) async throws(RenderRequestError) {
        try await self.init(inputs: Inputs(content: content, ads: ads, script: .success(script), screen: screen, others: []),
                            output: output, loading: loading)
    }

    /// What a request plays: the primary player's content and ads, the script, the screen and its other players.
    private struct Inputs {
        var content: String
        var ads: AdSource?
        /// Read before anything is loaded; a script that cannot be read is reported once the primary plan is loaded.
        var script: Result<SessionScript, ScriptError>
        var screen: ScreenSession?
        var others: [ScreenSession.Player]
    }

    private init(inputs: Inputs, output: String, loading: Loading) async throws(RenderRequestError) {
        let info = try Self.probe(inputs.content)
        // Ads are requested for the player the render will draw: on a device the window of the player's scene, else
        // the output format's size by the one rule.
        let initial = inputs.screen?.screen
        let window = initial.flatMap { Self.window(of: $0.scenes[0].id, on: $0) }
            ?? OutputFormat.resolve(size: loading.size, frameRate: loading.frameRate, source: info).size
        let duration = Self.duration(of: info)
        if let start = loading.contentStart, start.seconds >= duration.seconds {
            throw .contentStart(start, content: inputs.content, duration: duration)
        }
        var fetching = loading.fetching
        if let file = loading.urlMapFile ?? inputs.screen.flatMap({ session in session.urlMap.map(session.resolved) }) {
            do throws(DecisioningError) { fetching.urlMap = try URLMap.load(contentsOfFile: file) } catch { throw .urlMap(error) }
        }
        let plan = try await Self.plan(inputs.ads, duration: duration, window: loading.window ?? window, fetching: fetching,
                                       loading: loading)
        let script: SessionScript
        do { script = try inputs.script.get() } catch { throw .script(error) }
        // A native command needs a native placement to act on: without one it would do nothing, silently.
        if inputs.screen?.nativePlacements.isEmpty ?? true,
           let native = script.commands.first(where: { if case .native = $0.command { true } else { false } }) {
            throw .native(.unknownPlacement(command: native.description, reason: ScreenRefusal.noNativePlacement.description))
        }
        self.init(contentPath: inputs.content, plan: plan, outputPath: output, size: loading.size, frameRate: loading.frameRate,
                  script: script, contentStart: loading.contentStart ?? .zero, clockOrigin: loading.clockOrigin)
        cacheBusting = loading.cacheBusting
        device.font = loading.font
        content.info = info
        guard let session = inputs.screen else { return }
        device.screen = session.screen
        for player in inputs.others {
            let path = session.contentPath(of: player)
            let playerInfo = try Self.probe(path)
            let playerWindow = Self.window(of: player.scene, on: session.screen) ?? window
            let playerPlan = try await Self.plan(session.adSource(of: player), duration: Self.duration(of: playerInfo),
                                                 window: loading.window ?? playerWindow, fetching: fetching, loading: loading)
            device.players.append(ScenePlayer(scene: player.scene, contentPath: path, plan: playerPlan))
        }
        // Requested at the start and whenever the script changes a banner's width or makes a full-screen ad too large.
        if !session.banners.isEmpty || !session.fullScreenAds.isEmpty || session.testMode {
            do throws(ScreenAdError) {
                device.screenAds = try await session.loadAds(script: script, settings: fetching, clockOrigin: loading.clockOrigin)
            } catch {
                throw .screenAds(error)
            }
        }
        switch loading.mode {
        case .live:
            device.liveNative = session.liveNative(settings: fetching)
        case .batch:
            device.nativeAds = try await loadNativeAds(session, settings: fetching, content: info)
            // What the origin policy dropped and the pictures that could not be fetched: the render goes on without them.
            for warning in device.nativeAds?.warnings ?? [] { loading.warn(.native(warning)) }
        }
    }

    /// `path` probed once; a file that cannot be opened or has no video is `.content`.
    private static func probe(_ path: String) throws(RenderRequestError) -> MediaInfo {
        let info: MediaInfo
        do throws(MediaError) { info = try MediaProbe.probe(path) } catch { throw .content(error) }
        guard info.bestVideo != nil else { throw .content(.missingStream(path: path, kind: .video)) }
        return info
    }

    /// The content's length, as ads are planned for it: its video's, else the container's.
    private static func duration(of info: MediaInfo) -> MediaDuration {
        info.bestVideo?.duration ?? info.duration ?? .zero
    }

    /// The size of `scene`'s player window on `screen` at the start; `nil` when the scene shows no content.
    private static func window(of scene: SceneID, on screen: ScreenState) -> PixelSize? {
        screen.layers().first { $0.kind == .content && $0.scene == scene }?.rect.size
    }

    /// The plan of a player's ads for content of `duration`, requested for `window`.
    ///
    /// A document that cannot be loaded (unreachable, not XML, not VAST or VMAP) leaves a plan without breaks whose
    /// only entry is that error, so that the content plays and the event log carries the VAST code, and a warning;
    /// with strict ads, or when the load was cancelled, it is `.ads` instead.
    private static func plan(_ source: AdSource?, duration: MediaDuration, window: PixelSize, fetching: AdsLoaderSettings,
                             loading: Loading) async throws(RenderRequestError) -> AdPlan {
        var settings = fetching
        settings.mediaSelection.window = window
        let loader = AdsLoader(settings: settings)
        switch source {
        case nil:
            return .empty
        case .document(let tag):
            do throws(DecisioningError) {
                return try await loader.loadPlan(AdsRequest(adTag: tag, contentDuration: duration, cuePoints: loading.cuePoints))
            } catch {
                if loading.strictAds || error.isUserError || Task.isCancelled { throw .ads(error) }
                loading.warn(.adsNotLoaded(error))
                return AdPlan(breaks: [], errors: [error.adError])
            }
        case .breaks(let breaks):
            do throws(DecisioningError) {
                let plan = try loader.plan(quickBreaks: breaks, contentDuration: duration)
                try checkPictures(of: breaks)
                return plan
            } catch {
                throw .breaks(error)
            }
        }
    }

    /// Refuses a `--break` file whose video is over `PictureLimit.creatives`, from its header (the container's
    /// coded size, or a decoder's `max_pixels`), before anything decodes a picture of it: the user named the file,
    /// so it is their mistake, said before the render starts. A file that cannot be read otherwise is left to
    /// fail as its ad (405), as it always has.
    ///
    /// - Throws: `DecisioningError.invalidBreak` naming the value and the file.
    private static func checkPictures(of breaks: [QuickBreak]) throws(DecisioningError) {
        let directory = FileManager.default.currentDirectoryPath
        for quick in breaks {
            for file in quick.files {
                let path = file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file)
                do throws(MediaError) { _ = try MediaProbe.probe(path, pictureLimit: .creatives) } catch {
                    guard case .pictureTooLarge(_, let detail) = error else { continue }
                    throw .invalidBreak(value: quick.value, reason: "media file \(file): \(detail)")
                }
            }
        }
    }
}
