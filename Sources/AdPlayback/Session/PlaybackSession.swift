import AdDecisioning
import MediaCore

/// The frame-by-frame engine of a playback: at each output frame it says what the screen shows (content, an ad,
/// a frozen picture, in the picture-in-picture window or not) and records what happened in the event log.
///
/// The same session runs batch renders (commands from `configuration.script`) and live play (commands through
/// `submit(_:)`, applied at the next frame). It owns the output clock, the content position, pause and the
/// picture-in-picture controller; its `adsManager` owns ad behaviour. Nothing here reads a clock or a random
/// source: the same plan, configuration and media lengths give the same decisions and byte-identical events.
///
/// Per output frame `n`, in this order: the commands due at `n` (script ones at their first frame at or after
/// their time, then submitted ones); a picture-in-picture transition that ends at `n`; then the picture:
/// - paused: the previous frame again, frozen;
/// - otherwise the ads manager decides (starting, advancing or ending breaks), and content advances one tick.
///
/// Rules the media layer and the command line rely on:
/// - Picture-in-picture cannot start before the first frame (nothing plays yet): a `pip on` at output time 0 is
///   refused (`PIP_FAILED_TO_START`), so the pre-roll plays full screen. A `pip on` during the pre-roll moves the
///   pre-roll into the window.
/// - While picture-in-picture is starting, active or stopping, a break whose cue is reached does not start: the
///   content plays on in the window past the cue. When picture-in-picture has stopped, held breaks start at
///   once, in cue order (`defer` policy), or never (`skip` policy). A break that already started plays to its
///   end in the window, every ad of its pod included.
/// - A post-roll reached while picture-in-picture is active waits: the last content frame stays frozen in the
///   window until picture-in-picture stops. A batch session whose script has no `pip`/`pip off` left ends there
///   instead (`SESSION_ENDED` reason `scriptEnded`) and reports the break skipped (`sessionEnded`); likewise a
///   batch session paused with no `resume` left ends.
/// - `seek` is refused while a break plays and once the content has ended; `pause` is refused before the first
///   frame. While paused nothing starts or advances: a held break whose picture-in-picture stopped starts at
///   `resume`, and a seek made while paused shows (and plays jumped-over breaks) at `resume`.
/// - Content ticks shown never go back or skip except across a seek; a paused frame repeats the previous tick.
public final class PlaybackSession {
    public let configuration: SessionConfiguration
    /// The picture-in-picture controller; its delegate is the session's proxy.
    public let pictureInPicture: PictureInPictureController
    /// Plays the ad breaks; receives the picture-in-picture messages after the app's delegate.
    public let adsManager: AdsManager
    /// Forwards controller messages to the app's delegate, then to the ads manager. Held here because the
    /// controller holds its delegate weakly.
    public let pictureInPictureProxy: PictureInPictureProxy
    /// Where live commands wait for the next frame; hand it to the thread that reads the user's input.
    public let inbox = CommandInbox()
    /// The device's one picture-in-picture window, shared with the other players of the screen; `nil` for a
    /// session that plays alone.
    public var pictureInPictureSlot: PictureInPictureSlot?
    /// Receives each live command as it is taken from the inbox, before it applies: the stitcher hands it to the
    /// other scenes' players, which apply the ones that are theirs at the same frame.
    public var forwardsLiveCommand: ((SessionCommand) -> Void)?
    /// Every command applied (or refused) so far, at the exact time of the frame it applied at: formatted, it
    /// replays this session with `render --script`.
    public var commandLog: SessionScript { commands.log }
    /// Live commands left out because the command log had no room for them: it always replays through
    /// `render --script`, within `SessionScript.maximumCommands` commands and `maximumBytes` bytes.
    public var ignoredLiveCommands: Int { commands.ignoredLive }

    let recorder: EventRecorder
    /// The picture-in-picture layout inside the player's window (the canvas without a device).
    var layout: PictureInPictureLayout
    /// The device's screen and the player's place on it.
    var device: Device
    /// Where the session is in its output.
    var position: Position
    /// The commands still to come from the script, and those applied.
    var commands: Commands
    /// The frame at which the current picture-in-picture start or stop was requested.
    var transitionStart: Int64 = 0

    /// The device's screen (`--device`) and the player's place on it.
    struct Device {
        /// The screen (shared with the screen's other players); `nil` without a device.
        let screen: (any PlayerScreen)?
        /// Where the player draws: the canvas, or its scene's window on a device (`nil` while the scene is off screen).
        var playerWindow: PixelRect?
        /// Whether a full-screen ad covered the player at the last frame decided.
        var isCovered = false
    }

    /// The script's commands not yet applied, and what was applied.
    struct Commands {
        var script: ArraySlice<TimedCommand>
        /// Every command applied (or refused), at its frame's exact time (`commandLog`).
        var log = SessionScript()
        /// Whether the log's size is kept (a live session's, which bounds it); a batch session's log is its script's.
        let countsBytes: Bool
        /// The UTF-8 bytes of `log` formatted at the frame rate (`formatted(frameRate:)`), separators included.
        var logBytes = 0
        /// The same for the script commands still to come.
        var scriptBytes = 0
        /// Live commands left out because the log had no room for them.
        var ignoredLive = 0

        init(script: ArraySlice<TimedCommand>, rate: FrameRate, countsBytes: Bool) {
            self.script = script
            self.countsBytes = countsBytes
            if countsBytes { scriptBytes = script.reduce(0) { $0 + Commands.bytes(of: $1, rate: rate) } }
        }

        /// What `entry` adds to the formatted log: its text and a separator (`"; "`, or the final newline).
        static func bytes(of entry: TimedCommand, rate: FrameRate) -> Int {
            entry.text(formattingTime: { ScriptTime.formatSnapped($0, to: rate) }).utf8.count + 2
        }
    }

    /// Where the session is in its output: the next frame to decide, the last two decisions, and whether it has
    /// begun, ended or is paused.
    struct Position {
        let contentStartTick: Int64
        let limitFrame: Int64?
        /// The next output frame to decide.
        var frame: Int64 = 0
        var hasBegun = false
        var hasEnded = false
        var isPaused = false
        var lastDecision: FrameDecision?
        var decisionBeforeLast: FrameDecision?
    }

    /// Creates a session at output frame 0.
    ///
    /// - Parameters:
    ///   - screen: the device's screen (AdScreen's `DeviceScreen`, shared with the screen's other players); `nil`
    ///     without a device: the player fills the canvas.
    ///   - media: opens each ad just before it starts; held strongly.
    ///   - appDelegate: receives every picture-in-picture message first; held weakly.
    /// - Throws: `SessionError` for content without frames, a non-positive aspect, or a start position outside
    ///   the content.
    public init(plan: AdPlan, configuration: SessionConfiguration, media: any AdMediaProvider,
                appDelegate: (any PictureInPictureDelegate)?, screen: (any PlayerScreen)? = nil) throws(SessionError) {
        let rate = configuration.frameRate
        guard configuration.content.frameCount > 0 else { throw .emptyContent(frameCount: configuration.content.frameCount) }
        guard configuration.content.aspect > .zero else { throw .invalidContentAspect(configuration.content.aspect) }
        let startTick = rate.firstFrame(atOrAfter: configuration.content.start)
        guard configuration.content.start >= .zero, startTick < configuration.content.frameCount else {
            throw .startOutsideContent(start: configuration.content.start, contentDuration: configuration.contentDuration)
        }
        self.configuration = configuration
        position = Position(contentStartTick: startTick, limitFrame: configuration.outputLimit.map(rate.firstFrame(atOrAfter:)))
        commands = Commands(script: configuration.script.commands[...], rate: rate, countsBytes: configuration.mode == .live)
        let window = PlaybackSession.playerWindow(screen: screen, size: configuration.canvas, scene: configuration.device.playerScene)
        device = Device(screen: screen, playerWindow: window)
        recorder = EventRecorder(rate: rate, contentTick: startTick,
                                 stamps: BeaconStamps(clockOrigin: configuration.beacons.clockOrigin, seed: configuration.beacons.seed,
                                                      cacheBusting: configuration.beacons.cacheBusting),
                                 playerSize: window?.size ?? configuration.canvas)
        recorder.scene = screen.map { configuration.device.playerScene ?? $0.firstScene }
        layout = PlaybackSession.pictureInPictureLayout(window: window, screen: screen, configuration: configuration)
        adsManager = AdsManager(plan: plan, settings: configuration.ads,
                                breakPolicy: configuration.pictureInPicture.breakPolicy,
                                contentFrameCount: configuration.content.frameCount,
                                contentEarlyEnd: configuration.content.earlyEnd, recorder: recorder, media: media)
        pictureInPicture = PictureInPictureController(
            isSupported: configuration.pictureInPicture.isSupported,
            backgroundPlaybackEnabled: configuration.pictureInPicture.isBackgroundPlaybackEnabled)
        pictureInPicture.isPlayerReady = false
        pictureInPictureProxy = PictureInPictureProxy(appDelegate: appDelegate)
        pictureInPictureProxy.attach(adsObserver: adsManager)
        pictureInPicture.delegate = pictureInPictureProxy
    }

    /// The plan with the final (or current) state of every ad.
    public var plan: AdPlan { adsManager.plan }

    /// Decides the next output frame; `nil` once the session has ended.
    public func nextFrame() -> FrameDecision? {
        guard !position.hasEnded else { return nil }
        recorder.frame = position.frame
        if !position.hasBegun {
            position.hasBegun = true
            adsManager.begin(contentStartTick: position.contentStartTick)
        }
        if let limitFrame = position.limitFrame, position.frame >= limitFrame {
            end(reason: .outputLimit, contentEnded: false)
            return nil
        }
        applyDueCommands()
        guard !position.hasEnded else { return nil }
        finishTransitionIfDue()

        let source: FrameDecision.Source
        var frozen = false
        let cover = fullScreenCover
        coverChanged(cover != nil)
        if let cover, let last = position.lastDecision {
            // A full-screen ad covers the player: its content (or linear ad) is paused under it until the dismiss.
            guard cover.endsByItself || scriptCanStill({ $0 == .screen(.dismiss(cover.scene)) }) else {
                end(reason: .scriptEnded, contentEnded: contentHasEnded)
                return nil
            }
            source = last.source
            frozen = true
        } else if position.isPaused, let last = position.lastDecision {
            if scriptCanStill({ $0 == .resume }) {
                source = last.source
                frozen = true
            } else {
                end(reason: .scriptEnded, contentEnded: contentHasEnded)
                return nil
            }
        } else {
            switch adsManager.resolve() {
            case .content:
                source = .content(tick: recorder.contentTick)
                recorder.contentTick += 1
            case .ad(let ad, let tick):
                source = .ad(ad, tick: tick)
            case .waiting where scriptCanStill({ $0 == .togglePictureInPicture || $0 == .stopPictureInPicture }):
                source = .content(tick: configuration.content.frameCount - 1)
                frozen = true
            case .waiting:
                end(reason: .scriptEnded, contentEnded: true)
                return nil
            case .finished:
                end(reason: .contentEnded, contentEnded: true)
                return nil
            }
        }
        let decision = FrameDecision(frame: position.frame, source: source, isPaused: frozen, pip: pictureInPictureRect,
                                     screen: device.screen?.frame,
                                     playerScene: recorder.scene)
        position.decisionBeforeLast = position.lastDecision
        position.lastDecision = decision
        position.frame += 1
        pictureInPicture.isPlayerReady = true
        claimPictureInPictureSlot()
        return decision
    }

    /// Reports that the media layer could not show the ad of the last decision (it failed mid-ad): the ad is
    /// marked failed (`AD_ERROR` and its error URLs) and the break moves on. The next `nextFrame()` decides the
    /// same output frame again. Ignored, with a `LOG`, when the last decision did not show an ad.
    func adFailed(_ error: AdError) {
        guard !position.hasEnded, let last = position.lastDecision, case .ad = last.source, last.frame == position.frame - 1 else {
            recorder.log("adFailed ignored: the last frame did not show an ad (\(error))")
            return
        }
        recorder.frame = last.frame
        guard adsManager.failPlayingAd(error) else { return }
        decideLastFrameAgain()
    }

    /// Makes the next `nextFrame()` decide the last decision's output frame again, after what the renderer reported
    /// of its media changed what it shows.
    func decideLastFrameAgain() {
        guard let last = position.lastDecision, last.frame == position.frame - 1 else { return }
        position.frame = last.frame
        position.lastDecision = position.decisionBeforeLast
        position.decisionBeforeLast = nil
    }

    /// Queues a live command; it applies at the next frame (the same as `inbox.submit(_:)`).
    public func submit(_ command: SessionCommand) {
        inbox.submit(command)
    }

    /// The events recorded since the last call, in order.
    public func drainEvents() -> [SessionEvent] { recorder.drain() }

    /// Logs what the media layer noted of a source that is not one of this session's ads (the content's loudness,
    /// before the first frame; a full-screen video's, when its sound starts), at the frame being decided, in
    /// `scene` (`nil`: none). A `buffered` note belongs to an ad's opening and is not taken here.
    public func log(_ note: MediaNote, scene: SceneID?) {
        guard case .log(let reason, let message) = note else { return }
        recorder.emit(.log(.session, reason: reason, message: message), scene: .some(scene))
    }

    /// Where the session stands, for a status line.
    public var status: SessionStatus {
        let showing: SessionStatus.Showing
        if position.hasEnded {
            showing = .ended
        } else if let playing = adsManager.playingAd, case .ad = position.lastDecision?.source {
            showing = .ad(breakIndex: playing.breakIndex, adIndex: playing.adIndex, tick: playing.tick - 1,
                          frameCount: playing.info.frameCount)
        } else if case .content(let tick)? = position.lastDecision?.source {
            showing = .content(tick: tick)
        } else {
            showing = .nothing
        }
        let rate = configuration.frameRate
        return SessionStatus(
            frame: position.frame, outputTime: rate.time(ofFrame: position.frame), contentPosition: recorder.contentTime,
            showing: showing, isPaused: position.isPaused, pictureInPicture: pictureInPicture.state,
            nextBreak: adsManager.nextBreak.map { .init(index: $0, position: plan.breaks[$0].position) },
            heldBreaks: adsManager.heldBreaks)
    }

    // MARK: - Internals

    /// The full-screen ad presented over the player's scene at the frame being decided, if any.
    private var fullScreenCover: FullScreenCover? {
        guard let screen = device.screen else { return nil }
        return screen.cover(of: configuration.device.playerScene ?? screen.firstScene,
                            at: configuration.frameRate.time(ofFrame: position.frame))
    }

    /// Whether a command that `matches` may still come: always in a live session; in a batch session only if the
    /// rest of the script has one, so that a render never waits for what cannot happen.
    private func scriptCanStill(_ matches: (SessionCommand) -> Bool) -> Bool {
        (configuration.mode == .live && !inbox.isClosedAndEmpty) || commands.script.contains { matches($0.command) && ($0.scene == nil || $0.scene == recorder.scene) }
    }

    /// Every content tick was shown and no break is playing.
    var contentHasEnded: Bool {
        recorder.contentTick >= configuration.content.frameCount && !adsManager.isPlayingBreak
    }

    /// The picture-in-picture window in canvas pixels: the layout's, moved into the player's window.
    private var pictureInPictureRect: PixelRect? {
        guard let rect = layout.rect(state: pictureInPicture.state, transitionStart: transitionStart, frame: position.frame) else {
            return nil
        }
        guard device.screen != nil, let window = device.playerWindow else { return rect }
        return PixelRect(x: window.x + rect.x, y: window.y + rect.y, width: rect.width, height: rect.height)
    }

    /// The player's window: its scene's (`scene`, else the first scene's) `content` layer on a device, the whole
    /// canvas otherwise.
    static func playerWindow(screen: (any PlayerScreen)?, size: PixelSize, scene: SceneID?) -> PixelRect? {
        guard let screen else { return PixelRect(size: size) }
        return screen.frame.window(of: scene ?? screen.firstScene)
    }

    /// The picture-in-picture layout inside the player's `window` (the canvas without one); on a device the
    /// floating window keeps inside the scene's safe area and off its banner (`ScreenFrame.pictureInPictureBounds`).
    static func pictureInPictureLayout(window: PixelRect?, screen: (any PlayerScreen)?,
                                       configuration: SessionConfiguration) -> PictureInPictureLayout {
        let size = window?.size ?? configuration.canvas
        var bounds = PixelRect(size: size)
        if let window, let screen,
           let allowed = screen.frame.pictureInPictureBounds(of: configuration.device.playerScene ?? screen.firstScene) {
            bounds = PixelRect(x: allowed.x - window.x, y: allowed.y - window.y, width: allowed.width, height: allowed.height)
        }
        return PictureInPictureLayout(canvas: size, bounds: bounds, contentAspect: configuration.content.aspect,
                                      settings: configuration.pictureInPicture)
    }

    /// Tells the shared slot whether this player holds the picture-in-picture window now.
    func claimPictureInPictureSlot() {
        guard let scene = recorder.scene else { return }
        pictureInPictureSlot?.update(scene, holds: pictureInPicture.state != .inactive)
    }

    func finishTransitionIfDue() {
        let state = pictureInPicture.state
        guard state == .starting || state == .stopping,
              position.frame - transitionStart >= configuration.pictureInPicture.transitionFrames else { return }
        pictureInPicture.finishTransition()
    }

    func end(reason: SessionEventReason, contentEnded: Bool) {
        adsManager.finish(contentEnded: contentEnded)
        recorder.emit(.sessionEnded(reason))
        position.hasEnded = true
        pictureInPicture.isPlayerReady = false
        if let scene = recorder.scene { pictureInPictureSlot?.update(scene, holds: false) }
    }
}
