import MediaCore

/// How picture-in-picture behaves in a session: whether the device allows it, where the window goes, how long
/// the move takes, and what happens to an ad break whose cue is reached while the window is up.
public struct PictureInPictureSettings: Hashable, Sendable {
    /// A corner of the screen.
    public enum Corner: String, Hashable, Sendable, CaseIterable {
        case topLeft, topRight, bottomLeft, bottomRight
    }

    /// What happens to a break whose start is held because picture-in-picture is active.
    public enum BreakPolicy: String, Hashable, Sendable, CaseIterable {
        /// The break starts as soon as picture-in-picture stops (`AD_BREAK_DEFERRED`, then `AD_BREAK_STARTED`).
        case `defer`
        /// The break never starts (`AD_BREAK_SKIPPED` with reason `pipActive`; its ads are marked skipped).
        case skip
        /// The break starts at its cue and plays inside the picture-in-picture window, as IMA does with an
        /// `IMAAVPlayerVideoDisplay`: nothing is held, its events and beacons are those of any break.
        case play
    }

    /// Whether the device supports picture-in-picture at all.
    public var isSupported: Bool
    /// Whether the app enabled background playback, which picture-in-picture needs.
    public var isBackgroundPlaybackEnabled: Bool
    /// The window's width as a fraction of the screen's (default one third).
    public var widthFraction: Rational
    public var corner: Corner
    /// Pixels between the window and the screen edges of its corner.
    public var margin: Int
    /// How many output frames a start or a stop takes; 0 (the default) sends will and did at the same frame.
    public var transitionFrames: Int64
    public var breakPolicy: BreakPolicy

    public init(isSupported: Bool = true, isBackgroundPlaybackEnabled: Bool = true,
                widthFraction: Rational = Rational(1, 3), corner: Corner = .bottomRight, margin: Int = 16,
                transitionFrames: Int64 = 0, breakPolicy: BreakPolicy = .defer) {
        precondition(widthFraction > .zero && widthFraction <= .one, "the window width is a fraction of the screen's")
        precondition(margin >= 0 && transitionFrames >= 0)
        self.isSupported = isSupported
        self.isBackgroundPlaybackEnabled = isBackgroundPlaybackEnabled
        self.widthFraction = widthFraction
        self.corner = corner
        self.margin = margin
        self.transitionFrames = transitionFrames
        self.breakPolicy = breakPolicy
    }
}
