import MediaCore

/// What the screen shows at one output frame: the media layer fetches that frame from `source` and draws it,
/// full screen or in the picture-in-picture window.
public struct FrameDecision: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        /// Content tick `tick` (content time `tick/F`).
        case content(tick: Int64)
        /// Tick `tick` (ad time `tick/F`) of an ad of the plan.
        case ad(AdReference, tick: Int64)

        /// The tick shown, of the content or of the ad.
        public var tick: Int64 {
            switch self {
            case .content(let tick), .ad(_, let tick): tick
            }
        }
    }

    /// The output frame index.
    public var frame: Int64
    public var source: Source
    /// A frozen picture: the same source and tick as the previous frame, audio silent (paused, or waiting at
    /// the content's end for a held post-roll).
    public var isPaused: Bool
    /// Where the video window is drawn while picture-in-picture is starting, active or stopping (animated
    /// during a transition); `nil` for standard playback (full screen, letterboxed by the media layer).
    public var pip: PixelRect?
    /// On a device (`--device`): the screen at this frame, and the scene whose player shows `source` (its
    /// `content` layer is the player's window; `pip` is then inside that window). `nil` without a device: the
    /// player is the whole canvas, as it always was.
    public var screen: ScreenFrame?
    public var playerScene: SceneID?

    public init(frame: Int64, source: Source, isPaused: Bool = false, pip: PixelRect? = nil, screen: ScreenFrame? = nil,
                playerScene: SceneID? = nil) {
        self.frame = frame
        self.source = source
        self.isPaused = isPaused
        self.pip = pip
        self.screen = screen
        self.playerScene = playerScene
    }
}
