import AdDecisioning
import AdPlayback
import AdScreen

// What `pipctl play` reaches of the director while it plays: where its live commands go, and what it shows of the
// session (the status line, the window's title, what the mouse is over).
extension Stitcher {
    /// Where live commands go: each applies at the next frame, for every player it concerns.
    public var commands: CommandInbox { director.commandInbox }
    /// Where the primary player's session stands.
    public var status: SessionStatus { director.status }
    /// The primary player's plan, with the current state of every ad.
    public var adPlan: AdPlan { director.adPlan }
    /// Every command applied (or refused) so far: formatted, it replays the session with `render --script`.
    public var commandLog: SessionScript { director.commandLog }
    /// Live commands left out because the command log had no room for them.
    public var ignoredLiveCommands: Int { director.ignoredLiveCommands }
    /// The device's screen now, and where its own canvas lies on the output's; `nil` without a device.
    public var screenNow: (state: ScreenState, origin: (x: Int, y: Int))? { director.screenNow }
    /// What `play`'s native fetches warned of since the last call (origin policy drops, images not fetched).
    public func takeNativeWarnings() -> [String] { director.takeNativeWarnings() }
}
