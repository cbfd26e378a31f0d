import AdPlayback
import MediaCore

/// A full-screen ad on screen: from its present to its dismiss (`nil`: never dismissed), over its scene's window.
///
/// The driver knows every presentation before the render (presents and dismisses come from the script), so the
/// session can pause the content of the scene an ad covers and the stitcher can play a video ad from its first
/// frame at `from`, without either reading the event log.
public struct FullScreenPresentation: Hashable, Sendable {
    public let scene: SceneID
    public let from: MediaTime
    public let until: MediaTime?
    /// The request whose creative is shown (`ScreenAdRequest.index`).
    public let request: Int

    public init(scene: SceneID, from: MediaTime, until: MediaTime?, request: Int) {
        self.scene = scene
        self.from = from
        self.until = until
        self.request = request
    }

    /// Whether it covers `scene` at output time `time` (a dismiss at `time` has removed it).
    public func covers(_ scene: SceneID, at time: MediaTime) -> Bool {
        scene == self.scene && from <= time && until.map { time < $0 } ?? true
    }
}

/// What the render found when it opened a video full-screen creative: its real length, or why it cannot play.
public typealias FullScreenVideoOutcome = Result<MediaDuration, ScreenAdError>
