import AdDecisioning
import AdPlayback
import MediaCore

/// Decides what a screen shows, frame by frame, without media: it owns every player's session (the primary one and
/// each other scene's), the one screen they share (`DeviceScreen`), the screen ads' playback, the one
/// picture-in-picture window, and the planner that turns their decisions into a `FramePlan`.
///
/// The renderer (Rendering's `Stitcher`) asks it for the primary player's next frame, steps the other players
/// once per output frame, opens what their decisions name, asks for the frame's plan and draws it. What it finds of
/// the media goes back through `report(_:player:)`, to the session that decided it, which decides that frame again;
/// nothing the renderer draws changes ad state.
public final class Director {
    /// The primary player's session: its content's sound and length are the output's.
    public let session: PlaybackSession
    /// The players of the screen's other scenes, in scene order.
    public let players: [SceneSession]
    /// The banners' and full-screen ads' playback every session shares (`nil` without screen ads).
    public let screenAds: ScreenAdPlayback?
    /// The device's one screen, every player's (`nil` without a device: the primary player fills the canvas).
    public let screen: DeviceScreen?
    public let planner: FramePlanner
    /// The screen ads' and native placements' events still to log (`schedule`, `drainEvents`).
    var pending = PendingEvents()
    /// The content time of each output frame decided since the events were last drained, for the screen ads' and
    /// native placements' events logged at those frames.
    var frameContentTimes: [Int64: Double] = [:]

    /// A player of a scene other than the primary one: its session and what it decided last. Once its session has
    /// ended its last frame holds, until the primary session ends the render.
    public final class SceneSession {
        public let scene: SceneID
        public let session: PlaybackSession
        /// Its last decision; held once its session has ended.
        public private(set) var shown: FrameDecision?
        /// Its session has ended: `shown` is its last frame, again.
        public private(set) var held = false

        init(scene: SceneID, session: PlaybackSession) {
            self.scene = scene
            self.session = session
        }

        /// Its next frame; `nil` once its session has ended (`shown` then holds).
        public func nextFrame() -> FrameDecision? {
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
    /// device) with the screen ads of `screenAds`.
    ///
    /// - Throws: `SessionError` for a player whose content cannot play (no frames, a start outside it), named by
    ///   `name(of:)`'s answer for that player.
    public init(plan: AdPlan, configuration: SessionConfiguration, media: any AdMediaProvider,
                appDelegate: (any PictureInPictureDelegate)?, others: [PlayerSetup] = [], screen initial: ScreenState?,
                screenAds: ScreenAdRun?, planner: FramePlanner) throws(DirectorError) {
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
    }

    /// The primary player's next frame; `nil` once its session has ended (the render ends).
    public func nextFrame() -> FrameDecision? {
        guard let decision = session.nextFrame() else { return nil }
        // The content time of the frame's moment, as its session events carry it: the content tick it shows while
        // the content plays (the session has moved on to the next one by now), else where the content stands.
        let tick: MediaTime = if case .content(let tick) = decision.source, !decision.isPaused {
            planner.frameRate.time(ofFrame: tick)
        } else {
            session.status.contentPosition
        }
        frameContentTimes[decision.frame] = tick.seconds.doubleValue
        return decision
    }

    /// Takes what the renderer found of the media of the frame `player` decided (`nil`: the primary player): the
    /// one way a media outcome changes ad state. A failed ad or full-screen video makes that player decide its frame
    /// again.
    public func report(_ report: MediaReport, player scene: SceneID? = nil) {
        let session = scene.flatMap { scene in players.first { $0.scene == scene }?.session } ?? session
        switch report {
        case .adFailed(let error): session.adFailed(error)
        case .fullScreenVideoFailed(let scene, let time, let error):
            screenAds?.videoFailed(in: scene, at: time, error: error)
            screen?.videoFailed(in: scene, at: time)
            session.decideLastFrameAgain()
        case .bannerShown(let creative, let scene): screenAds?.bannerShown(creative, in: scene)
        case .noted(let note, let scene): self.session.log(note, scene: scene)
        }
    }

    /// The plan of the primary player's frame `decision`, which shows the file `source`; each other player's last
    /// frame shows the file its scene has in `sources` (a player without one is not drawn: black).
    public func plan(_ decision: FrameDecision, source: String, sources: [SceneID: String], native: NativeScreenRun.Outcome?,
                     catalog: any FrameMediaCatalog) -> FramePlan {
        let others = players.compactMap { player -> FramePlanner.Player? in
            guard let shown = player.shown, let file = sources[player.scene] else { return nil }
            return FramePlanner.Player(scene: player.scene, decision: shown, source: file, held: player.held)
        }
        return planner.plan(FramePlanner.Player(scene: decision.playerScene, decision: decision, source: source), others: others,
                            screenAds: screenAds, native: native, catalog: catalog)
    }
}

/// A player's session could not be made: which player (`nil`: the primary one) and why.
public struct DirectorError: Error, Sendable {
    public var scene: SceneID?
    public var error: SessionError
}
