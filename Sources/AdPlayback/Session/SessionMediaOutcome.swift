import AdDecisioning

/// What the media layer found of the last decision's frame that changes what the session decided: the one way it
/// reaches the session's ad state (`PlaybackSession.take(_:)`). AdScreen's `Director` reports every such outcome
/// here; nothing else changes the session's decisions.
public enum SessionMediaOutcome: Sendable {
    /// The linear ad of the last decision could not be shown (missing, unreadable, a decode error mid-ad): it fails
    /// with `AD_ERROR` and its error URLs, the break moves on, and the next `nextFrame()` decides the same output
    /// frame again.
    case adFailed(AdError)
    /// Something else on the screen changed what the last decision's frame shows (a full-screen video over the
    /// player failed part-way and was dismissed): the next `nextFrame()` decides the same output frame again.
    case frameChanged
}

extension PlaybackSession {
    /// Takes what the media layer found of the last decision's frame (`SessionMediaOutcome`).
    public func take(_ outcome: SessionMediaOutcome) {
        switch outcome {
        case .adFailed(let error): adFailed(error)
        case .frameChanged: decideLastFrameAgain()
        }
    }
}
