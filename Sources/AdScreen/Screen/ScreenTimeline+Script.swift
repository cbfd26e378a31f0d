import AdPlayback

/// The screen as a script changes it: the screen model takes its commands, the script knows which they are.
extension ScreenTimeline {
    /// The screen commands of a session script, with their times.
    public init(initial: ScreenState, script: SessionScript, canvas: ScreenCanvas? = nil) {
        self.init(initial: initial, commands: script.commands.compactMap { timed in
            if case .screen(let command) = timed.command { return (timed.time, command) }
            return nil
        }, canvas: canvas)
    }
}

extension ScreenCanvas {
    /// The canvas for a session starting as `initial` that runs `script` (live sessions may rotate at any time).
    public init(initial: ScreenState, script: SessionScript, live: Bool) {
        let rotates = live || script.commands.contains { timed in
            if case .screen(.rotate) = timed.command { return true }
            return false
        }
        self.init(initial: initial, rotates: rotates)
    }
}
