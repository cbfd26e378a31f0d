import AdDecisioning
import AdPlayback
import MediaCore

/// What the renderer found when it fetched a frame's media, reported back to the session that decided the frame
/// (`Director.report(_:player:)`): the one way a media outcome changes ad state. Drawing itself changes none.
public enum MediaReport: Sendable {
    /// The linear ad of the last decision could not be shown (missing, unreadable, a decode error mid-ad): it fails
    /// with `AD_ERROR` and its error URLs, the break moves on, and the next `nextFrame()` decides the same output
    /// frame again.
    case adMediaFailed(AdError)
    /// The video full-screen ad presented over `scene` failed part-way at output time `time` (the last decision's
    /// frame): it is dismissed with the error's reason and message, and the next `nextFrame()` decides the same
    /// output frame again, where the content it covered plays on. The scene is uncovered: the screen refuses a later
    /// `dismiss` there and hears the next `present`.
    case fullScreenVideoFailed(scene: SceneID, at: MediaTime, error: ScreenAdError)
    /// What the media layer noted of a source that is not a linear ad: the content's loudness before the first
    /// frame (`scene` `nil`), a full-screen video's when its sound starts (the scene it covers). The primary session
    /// logs it at the frame being decided; nothing is decided again.
    case noted(MediaNote, scene: SceneID?)
}
