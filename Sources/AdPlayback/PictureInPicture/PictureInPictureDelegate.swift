/// Why picture-in-picture did not start.
public enum PictureInPictureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The app has not enabled background playback, which picture-in-picture needs.
    case backgroundPlaybackDisabled
    /// Picture-in-picture is not supported on this device (screen).
    case notSupported
    /// Not possible at this moment (for example: nothing is playing yet, or a transition is under way).
    case notPossible(reason: String)

    public var description: String {
        switch self {
        case .backgroundPlaybackDisabled: "background playback is not enabled"
        case .notSupported: "picture-in-picture is not supported"
        case .notPossible(let reason): "picture-in-picture is not possible now: \(reason)"
        }
    }
}

/// The messages a picture-in-picture controller sends, after `AVPictureInPictureControllerDelegate`.
///
/// The sender comes first, as in UIKit and IMA. All methods have empty default implementations so that an app
/// delegate implements only what it needs.
public protocol PictureInPictureDelegate: AnyObject {
    func pictureInPictureControllerWillStart(_ controller: PictureInPictureController)
    func pictureInPictureControllerDidStart(_ controller: PictureInPictureController)
    func pictureInPictureController(_ controller: PictureInPictureController,
                                    failedToStartWith error: PictureInPictureError)
    func pictureInPictureControllerWillStop(_ controller: PictureInPictureController)
    func pictureInPictureControllerDidStop(_ controller: PictureInPictureController)
    func pictureInPictureController(_ controller: PictureInPictureController,
                                    restoreUserInterfaceWithCompletionHandler completion: @escaping (Bool) -> Void)
}

extension PictureInPictureDelegate {
    public func pictureInPictureControllerWillStart(_ controller: PictureInPictureController) {}
    public func pictureInPictureControllerDidStart(_ controller: PictureInPictureController) {}
    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           failedToStartWith error: PictureInPictureError) {}
    public func pictureInPictureControllerWillStop(_ controller: PictureInPictureController) {}
    public func pictureInPictureControllerDidStop(_ controller: PictureInPictureController) {}
    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           restoreUserInterfaceWithCompletionHandler completion: @escaping (Bool) -> Void) {
        completion(true)
    }
}
