/// What happens to an ad break whose cue is reached while picture-in-picture is active.
enum PictureInPictureAdPolicy: String, CaseIterable, Sendable {
    /// Play it when picture-in-picture stops (`AD_BREAK_DEFERRED`, then `AD_BREAK_STARTED`).
    case `defer`
    /// Drop it.
    case skip
}
