import MediaCore

/// The device's one screen, shared by every player's session on it: the state screen commands change, and the fixed
/// canvas it is drawn in.
///
/// The session that logs the screen (`SessionConfiguration.Device.logsScreen`: the primary player's) applies the
/// screen commands to it; the other players' sessions, which decide the same frame after it, only follow the change
/// (their window and picture-in-picture layout). So the screen cannot differ from one player to another.
public final class DeviceScreen {
    /// The screen as it is now.
    public internal(set) var state: ScreenState
    public let canvas: ScreenCanvas

    /// The screen of a session starting as `initial` (its banners loaded), drawn in the canvas `script` can reach
    /// (both orientations when it rotates, or when `live`).
    public init(initial: ScreenState, script: SessionScript, live: Bool) {
        var state = initial
        _ = state.loadBanners()
        self.state = state
        canvas = ScreenCanvas(initial: state, script: script, live: live)
    }

    /// The screen now, in output pixels.
    public var frame: ScreenFrame { canvas.frame(of: state) }
}
