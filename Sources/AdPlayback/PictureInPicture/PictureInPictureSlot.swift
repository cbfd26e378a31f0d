/// The one picture-in-picture window of a device, shared by the players of its scenes.
///
/// The system floats one video window at a time: while one scene's player is starting, in or leaving
/// picture-in-picture, another player's `pip on` is refused. The sessions of one render share one slot and run
/// on one thread, frame by frame, so it needs no lock.
public final class PictureInPictureSlot {
    /// The scene whose player holds the window; `nil` while no player is in picture-in-picture.
    public private(set) var owner: SceneID?

    public init() {}

    /// Records whether `scene`'s player holds the window now; a player that does not hold it leaves it as it is.
    func update(_ scene: SceneID, holds: Bool) {
        if holds { owner = scene } else if owner == scene { owner = nil }
    }
}
