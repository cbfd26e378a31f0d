/// A headless model of `AVPictureInPictureController`: the state of the floating window and the delegate
/// messages that announce each change.
///
/// States go inactive → starting → active → stopping → inactive. A start or a stop is a request: the controller
/// sends the "will" message at once and the "did" message when the player finishes the transition
/// (`finishTransition()`), as the system does after its animation. A start that cannot happen sends
/// `failedToStartWith` and leaves the state inactive.
public final class PictureInPictureController {
    public enum State: String, Sendable {
        case inactive, starting, active, stopping
    }

    /// Receives every message. Held weakly, as UIKit holds delegates; an app sets it to its
    /// `PictureInPictureProxy`.
    public weak var delegate: (any PictureInPictureDelegate)?

    public private(set) var state: State = .inactive

    /// Whether the device supports picture-in-picture at all.
    public let isPictureInPictureSupported: Bool

    /// Whether the app enabled background playback (the `audio` background mode), which picture-in-picture needs.
    public var isBackgroundPlaybackEnabled: Bool

    /// Set by the player: false while nothing plays that could be moved into the window.
    public var isPlayerReady: Bool = true

    public init(isSupported: Bool = true, backgroundPlaybackEnabled: Bool = true) {
        self.isPictureInPictureSupported = isSupported
        self.isBackgroundPlaybackEnabled = backgroundPlaybackEnabled
    }

    /// True when a start request would be accepted now.
    public var isPictureInPicturePossible: Bool {
        isPictureInPictureSupported && isPlayerReady && state == .inactive
    }

    /// True while the video is in the floating window (including while it animates back out).
    public var isPictureInPictureActive: Bool { state == .active || state == .stopping }

    /// Asks to move the video into the floating window. Sends `willStart`, or `failedToStartWith` with the reason.
    public func startPictureInPicture() {
        guard let refusal = startRefusal() else {
            state = .starting
            delegate?.pictureInPictureControllerWillStart(self)
            return
        }
        delegate?.pictureInPictureController(self, failedToStartWith: refusal)
    }

    /// Brings the video back, as the user's tap on the window's restore button does: sends `restoreUserInterface`
    /// then `willStop` (the order iOS uses for that button); `didStop` follows with `finishTransition()`.
    /// Ignored unless active, as a stop cannot interrupt a start under way.
    public func stopPictureInPicture() {
        guard state == .active else { return }
        delegate?.pictureInPictureController(self, restoreUserInterfaceWithCompletionHandler: { _ in })
        state = .stopping
        delegate?.pictureInPictureControllerWillStop(self)
    }

    /// Completes a pending start or stop: sends `didStart` or `didStop`. Does nothing when no transition is pending.
    public func finishTransition() {
        switch state {
        case .starting:
            state = .active
            delegate?.pictureInPictureControllerDidStart(self)
        case .stopping:
            state = .inactive
            delegate?.pictureInPictureControllerDidStop(self)
        case .inactive, .active:
            break
        }
    }

    private func startRefusal() -> PictureInPictureError? {
        if !isPictureInPictureSupported { return .notSupported }
        if !isBackgroundPlaybackEnabled { return .backgroundPlaybackDisabled }
        if !isPlayerReady { return .notPossible(reason: "nothing is playing") }
        if state != .inactive { return .notPossible(reason: "picture-in-picture is \(state.rawValue)") }
        return nil
    }
}
