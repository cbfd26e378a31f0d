import MediaCore

/// The device's screen as a player's session sees it: pixels and answers, never the screen model. AdScreen's
/// `DeviceScreen` is the one implementation; a session without a device has none, and its player fills the canvas.
///
/// The session that logs the screen (`SessionConfiguration.Device.logsScreen`: the primary player's) hands it the
/// screen and native commands of its script and inbox, in order, at their frames. The other players' sessions,
/// which decide the same frame after it, only read it: their window and picture-in-picture bounds follow the change.
public protocol PlayerScreen: AnyObject {
    /// The screen now, in output pixels.
    var frame: ScreenFrame { get }
    /// The scene the user last touched (`foregroundActive`): a player command that names no scene goes to its player.
    var activeScene: SceneID { get }
    /// The screen's first scene: the player's scene when the session's configuration names none.
    var firstScene: SceneID { get }
    /// Applies a screen command at output time `time` (`live`: typed during `play`, not from the script).
    ///
    /// - Returns: what the screen did, in the order an app hears it; the session logs each (`SessionEvent.Kind.screen`).
    /// - Throws: why the screen refused the command; the screen is then as it was.
    func apply(_ command: ScreenCommand, at time: MediaTime, live: Bool) throws(ScreenRefusal) -> [SessionEvent.ScreenEventKind]
    /// Notes a native placement's command at output time `time`; the placements follow it.
    ///
    /// - Throws: why the screen refuses it: it has no native placement to act on.
    func applied(_ command: NativeCommand, at time: MediaTime) throws(ScreenRefusal)
    /// The full-screen ad over `scene` at output time `time`, if one covers it.
    func cover(of scene: SceneID, at time: MediaTime) -> FullScreenCover?
}

/// Why the screen refused a command, as the event log says it.
public struct ScreenRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// A native command on a screen without native placements (a render refuses it in its script before it starts).
    public static let noNativePlacement = ScreenRefusal(
        "no native placement: native commands need a session file (--session) with a scene that declares \"native\" placements")
}

/// A full-screen ad over a player's scene: the player is paused under it until it goes.
public struct FullScreenCover: Hashable, Sendable {
    public let scene: SceneID
    /// Whether it goes by itself (its end is known); otherwise only a `dismiss` of its scene ends it.
    public let endsByItself: Bool

    public init(scene: SceneID, endsByItself: Bool) {
        self.scene = scene
        self.endsByItself = endsByItself
    }
}
