import AdPlayback
import Rendering

/// What happens to an ad break whose cue is reached while picture-in-picture is active.
enum PictureInPictureAdPolicy: String, CaseIterable, Sendable {
    /// Play it when picture-in-picture stops (`AD_BREAK_DEFERRED`, then `AD_BREAK_STARTED`).
    case `defer`
    /// Drop it.
    case skip
    /// Play it at its cue inside the picture-in-picture window.
    case play

    /// The library's policy of the same name.
    var library: PictureInPictureSettings.BreakPolicy {
        switch self {
        case .defer: .defer
        case .skip: .skip
        case .play: .play
        }
    }
}
