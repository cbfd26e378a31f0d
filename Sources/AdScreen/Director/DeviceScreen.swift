import AdPlayback
import MediaCore

/// The device's one screen, shared by every player's session on it (`PlayerScreen`): the state screen commands
/// change, the fixed canvas it is drawn in, and the full-screen ads that cover its scenes.
///
/// The session that logs the screen (`SessionConfiguration.Device.logsScreen`: the primary player's) applies the
/// screen commands to it; the other players' sessions, which decide the same frame after it, only follow the change
/// (their window and picture-in-picture layout). So the screen cannot differ from one player to another.
public final class DeviceScreen: PlayerScreen {
    /// The screen as it is now.
    public internal(set) var state: ScreenState
    public let canvas: ScreenCanvas
    /// The full-screen ads known before the session starts (`ScreenAdRun.presentations`): while one covers a
    /// player's scene, that player is paused under it. Unused once `ads` is set.
    public let presentations: [FullScreenPresentation]
    /// The banners' and full-screen ads' playback, live ones included; shared by every player of the screen.
    var ads: ScreenAdPlayback?
    /// Whether the screen keeps the native and screen commands applied to it for `takeNativeCommands()` (`play`
    /// with native placements).
    var recordsNativeCommands = false
    /// Whether the screen has native placements for native commands to act on; without, they are refused.
    var hasNativePlacements = false
    private var nativeCommands: [AppliedCommand] = []
    /// The screen changes of live commands not yet taken: the requests they cause are not in the script's run.
    private var liveChanges: [ScreenTimeline.Change] = []

    /// A command applied to the screen that the native placements follow: a native command or a screen command,
    /// at its frame's time, with the change a screen command made (`nil` when the screen refused it).
    public struct AppliedCommand: Sendable {
        public let time: MediaTime
        public let command: SessionCommand
        public let change: ScreenTimeline.Change?
    }

    /// The screen of a session starting as `initial` (its banners loaded), drawn in the canvas `script` can reach
    /// (both orientations when it rotates, or when `live`).
    public init(initial: ScreenState, script: SessionScript, live: Bool, presentations: [FullScreenPresentation] = []) {
        var state = initial
        _ = state.loadBanners()
        self.state = state
        canvas = ScreenCanvas(initial: state, script: script, live: live)
        self.presentations = presentations
    }

    /// The screen now, in output pixels.
    public var frame: ScreenFrame { canvas.frame(of: state) }
    public var activeScene: SceneID { state.activeScene }
    public var firstScene: SceneID { state.scenes[0].id }

    public func apply(_ command: ScreenCommand, at time: MediaTime, live: Bool) throws(ScreenRefusal) -> [SessionEvent.ScreenEventKind] {
        var next = state
        let events: [ScreenEvent]
        do {
            events = try next.apply(command, canvas: canvas)
        } catch {
            // A refused tap still lands on what is drawn there, as in a render's native run.
            if recordsNativeCommands { nativeCommands.append(AppliedCommand(time: time, command: .screen(command), change: nil)) }
            throw ScreenRefusal("\(error)")
        }
        var change = ScreenTimeline.Change(time: time, command: command, events: events, state: next)
        // Live changes drive the live banner requests and are walked by the screen ads at once.
        if live { ads?.screenChanged(change) }
        var logged = events
        if let ads, case .presentInterstitial(let scene) = command, ads.presentation(of: scene, at: time) == nil {
            // The ad failed to present (its failure event says why): nothing covers the scene, so the next present
            // is accepted and a dismiss refused, as the screen ads' settled timeline has it.
            next.presentFailed(in: scene)
            logged.removeAll { $0 == .presented(scene: scene, .interstitial) }
            change = ScreenTimeline.Change(time: time, command: command, events: events, state: next)
        }
        state = next
        if live { liveChanges.append(change) }
        if recordsNativeCommands { nativeCommands.append(AppliedCommand(time: time, command: .screen(command), change: change)) }
        return logged.map(\.sessionEvent)
    }

    /// `scene`'s presented video failed part-way at output time `time` and the screen ads dismissed it
    /// (`ScreenAdPlayback.videoFailed`): nothing covers the scene any more, so the next `present` is accepted and a
    /// `dismiss` refused. `play`'s native placements follow, as after a dismiss (their cards count and take taps).
    func videoFailed(in scene: SceneID, at time: MediaTime) {
        guard state.scene(scene)?.presentation == .interstitial else { return }
        state.presentFailed(in: scene)
        if recordsNativeCommands {
            let change = ScreenTimeline.Change(time: time, command: .dismiss(scene), events: [], state: state)
            nativeCommands.append(AppliedCommand(time: time, command: .screen(.dismiss(scene)), change: change))
        }
    }

    public func applied(_ command: NativeCommand, at time: MediaTime) throws(ScreenRefusal) {
        guard hasNativePlacements else { throw .noNativePlacement }
        // A render evaluates its native placements before it starts (`NativeScreenRun`); `play` follows the
        // commands as they apply.
        if recordsNativeCommands { nativeCommands.append(AppliedCommand(time: time, command: .native(command), change: nil)) }
    }

    public func cover(of scene: SceneID, at time: MediaTime) -> FullScreenCover? {
        let presentation = if let ads { ads.presentation(of: scene, at: time) } else { presentations.last { $0.covers(scene, at: time) } }
        return presentation.map { FullScreenCover(scene: $0.scene, endsByItself: $0.until != nil) }
    }

    /// The native and screen commands applied since the last call, in order, when `recordsNativeCommands`: what
    /// `play`'s native placements follow frame by frame.
    func takeNativeCommands() -> [AppliedCommand] {
        defer { nativeCommands.removeAll() }
        return nativeCommands
    }

    /// The screen changes live commands made since the last call, in order, each at its frame's time: the live
    /// banner requests they cause.
    func takeLiveScreenChanges() -> [ScreenTimeline.Change] {
        defer { liveChanges.removeAll() }
        return liveChanges
    }
}
