import AdDecisioning
import AdPlayback
import MediaCore

/// Decides what a screen shows, frame by frame, without media: it owns every player's session (the primary one and
/// each other scene's), the one screen they share (`DeviceScreen`), the screen ads' playback and `play`'s live banner
/// requests, the native placements (`play`'s evaluated as it plays), the one picture-in-picture window, and the
/// planner that turns their decisions into a `FramePlan`.
///
/// Per frame, the renderer (Rendering's `Stitcher`) asks it for the next frame (`nextFrame()`: every player decided,
/// the screen ads and native placements moved on to it), fetches the pictures it names, asks for the frame's plan
/// (`plan(_:source:)`) and draws it. What it finds of the media goes back through `report(_:player:)`, to the
/// session that decided it, which decides that frame again; then it takes the events (`drainEvents`). What the
/// director must know of the media (which file a player shows, whether a creative that arrived live opened) it asks
/// the renderer's `FrameMediaCatalog`. Nothing else crosses, and nothing the renderer draws changes ad state.
public final class Director {
    /// The primary player's session: its content's sound and length are the output's.
    let session: PlaybackSession
    /// The players of the screen's other scenes, in scene order.
    let players: [SceneSession]
    /// The banners' and full-screen ads' playback every session shares (`nil` without screen ads).
    let screenAds: ScreenAdPlayback?
    /// The device's one screen, every player's (`nil` without a device: the primary player fills the canvas).
    let screen: DeviceScreen?
    let planner: FramePlanner
    /// What the renderer opened: asked while a frame is decided and planned.
    let catalog: any FrameMediaCatalog
    /// `play`'s banner requests that live screen commands cause (`nil` in a render).
    let liveBanners: LiveBannerRequests?
    /// The native placements: none, a render's evaluated before it starts, or `play`'s evaluated as it plays.
    let native: Native.Run
    /// The screen ads' and native placements' events still to log (`schedule`, `drainEvents`).
    var pending = PendingEvents()
    /// The content time of each output frame decided since the events were last drained, for the screen ads' and
    /// native placements' events logged at those frames.
    var frameContentTimes: [Int64: Double] = [:]
    /// The frame in hand: what was decided of it, and which sessions were told of a failure since.
    var progress = FrameProgress()

    /// A player of a scene other than the primary one: its session and what it decided last. Once its session has
    /// ended its last frame holds, until the primary session ends the render.
    final class SceneSession {
        let scene: SceneID
        let session: PlaybackSession
        /// Its last decision; held once its session has ended.
        private(set) var shown: FrameDecision?
        /// Its session has ended: `shown` is its last frame, again.
        private(set) var held = false

        init(scene: SceneID, session: PlaybackSession) {
            self.scene = scene
            self.session = session
        }

        /// Its next frame; `nil` once its session has ended (`shown` then holds).
        func nextFrame() -> FrameDecision? {
            guard let decision = session.nextFrame() else {
                held = true
                return nil
            }
            shown = decision
            return decision
        }
    }

    /// What makes a scene's player: its scene, content and ads, and what its session opens the ads with.
    public struct PlayerSetup {
        public var scene: SceneID
        public var plan: AdPlan
        /// Its content (starting at its beginning).
        public var content: SessionConfiguration.Content
        public var media: any AdMediaProvider

        public init(scene: SceneID, plan: AdPlan, content: SessionConfiguration.Content, media: any AdMediaProvider) {
            self.scene = scene
            self.plan = plan
            self.content = content
            self.media = media
        }
    }

    /// The director of a screen whose primary player plays `plan` with `configuration` (opening its ads with
    /// `media`), beside `others` (each in its own scene, its session made from `configuration` moved to its scene;
    /// screen commands apply to every session, logged once), on the device's `screen` as it starts (`nil`: no
    /// device) with the screen ads of `screenAds` and the native placements `native`; `catalog` answers what the
    /// renderer opened. In `play` (`configuration.mode`), a screen ads' run with a loader requests the banners live
    /// screen commands resize.
    ///
    /// - Throws: `DirectorError` for a player whose content cannot play (no frames, a start outside it).
    public init(plan: AdPlan, configuration: SessionConfiguration, media: any AdMediaProvider,
                appDelegate: (any PictureInPictureDelegate)?, others: [PlayerSetup] = [], screen initial: ScreenState?,
                screenAds: ScreenAdRun?, native: Native = .none, planner: FramePlanner,
                catalog: any FrameMediaCatalog) throws(DirectorError) {
        var configuration = configuration
        let screen = initial.map {
            DeviceScreen(initial: $0, script: configuration.script, live: configuration.mode == .live,
                         presentations: screenAds?.presentations ?? [])
        }
        self.screen = screen
        if !others.isEmpty { configuration.device.playerScenes = (screen.map { [$0.firstScene] } ?? []) + others.map(\.scene) }
        do {
            session = try PlaybackSession(plan: plan, configuration: configuration, media: media, appDelegate: appDelegate, screen: screen)
        } catch {
            throw DirectorError(scene: nil, error: error)
        }
        var players: [SceneSession] = []
        for player in others {
            var moved = configuration
            moved.content = player.content
            moved.device.playerScene = player.scene
            moved.device.logsScreen = false
            do {
                let session = try PlaybackSession(plan: player.plan, configuration: moved, media: player.media, appDelegate: nil,
                                                  screen: screen)
                players.append(SceneSession(scene: player.scene, session: session))
            } catch {
                throw DirectorError(scene: player.scene, error: error)
            }
        }
        self.players = players
        self.planner = planner
        self.catalog = catalog
        if !players.isEmpty {
            // The device's one picture-in-picture window; live commands reach every player, which applies its own.
            let slot = PictureInPictureSlot()
            session.pictureInPictureSlot = slot
            for player in players { player.session.pictureInPictureSlot = slot }
            let sessions = players.map(\.session)
            session.forwardsLiveCommand = { command in for session in sessions { session.submit(command) } }
        }
        self.screenAds = screenAds.map { ScreenAdPlayback(run: $0) }
        screen?.ads = self.screenAds
        liveBanners = configuration.mode == .live ? screenAds.flatMap { run in
            run.loader.map { LiveBannerRequests(driver: run.driver, loader: $0) }
        } : nil
        self.native = native.run
        if case .live = native.run { screen?.recordsNativeCommands = true }
        if case .none = native.run {} else { screen?.hasNativePlacements = true }
        // A render's native events are known before it starts; `play`'s come as it plays (`followNative`).
        schedule(native: native.events)
    }

    /// The background fetches still running (screen ads, live banners, native loads) are cancelled.
    deinit {
        liveBanners?.cancel()
        screenAds?.cancel()
        if case .live(let run) = native { run.cancel() }
    }

    /// Takes what the renderer found of the media of the frame `player` decided (`nil`: the primary player): the
    /// one way a media outcome changes ad state. A failed ad or full-screen video makes that player decide its frame
    /// again at the next `nextFrame()`.
    public func report(_ report: MediaReport, player scene: SceneID? = nil) {
        let other = scene.flatMap { scene in players.first { $0.scene == scene } }
        if let other { progress.reported.insert(other.scene) } else { progress.primaryReported = true }
        let session = other?.session ?? session
        switch report {
        case .adMediaFailed(let error): session.take(.adFailed(error))
        case .fullScreenVideoFailed(let scene, let time, let error):
            screenAds?.videoFailed(in: scene, at: time, error: error)
            screen?.videoFailed(in: scene, at: time)
            session.take(.frameChanged)
        case .noted(let note, let scene): self.session.log(note, scene: scene)
        }
    }

    /// The plan of the primary player's frame `decision`, which shows the file `source`; each other player's last
    /// frame shows the file the catalog names for its scene (a player without one is not drawn: black).
    public func plan(_ decision: FrameDecision, source: String) -> FramePlan {
        let others = players.compactMap { player -> FramePlanner.Player? in
            guard let shown = player.shown, let file = catalog.playerSource(of: player.scene) else { return nil }
            return FramePlanner.Player(scene: player.scene, decision: shown, source: file, held: player.held)
        }
        return planner.plan(FramePlanner.Player(scene: decision.playerScene, decision: decision, source: source), others: others,
                            screenAds: screenAds, native: native.outcome, catalog: catalog)
    }
}

/// A player's session could not be made: which player (`nil`: the primary one) and why.
public struct DirectorError: Error, Sendable {
    public var scene: SceneID?
    public var error: SessionError
}
