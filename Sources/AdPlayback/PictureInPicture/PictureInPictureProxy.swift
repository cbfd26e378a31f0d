/// Stands between a picture-in-picture controller and the app, as `IMAPictureInPictureProxy` does: the app sets
/// the controller's delegate to the proxy; the proxy forwards every message to the app's own delegate and then to
/// the ads manager, so that ads know when the video is in the floating window.
///
/// Each message is forwarded explicitly (no dynamic forwarding). The app's delegate is held weakly: a released
/// delegate simply stops receiving messages.
public final class PictureInPictureProxy: PictureInPictureDelegate {
    /// The app's delegate.
    public private(set) weak var appDelegate: (any PictureInPictureDelegate)?
    /// The SDK side (the ads manager); it owns the proxy's lifetime in a session, so it is held weakly too.
    weak var adsObserver: (any PictureInPictureDelegate)?

    /// Whether the controller reported the floating window as active (from did-start until did-stop).
    public private(set) var isPictureInPictureActive = false

    public init(appDelegate: (any PictureInPictureDelegate)?) {
        self.appDelegate = appDelegate
    }

    /// Connects the ads manager; done by the session when it creates the manager.
    public func attach(adsObserver: any PictureInPictureDelegate) {
        self.adsObserver = adsObserver
    }

    public func pictureInPictureControllerWillStart(_ controller: PictureInPictureController) {
        appDelegate?.pictureInPictureControllerWillStart(controller)
        adsObserver?.pictureInPictureControllerWillStart(controller)
    }

    public func pictureInPictureControllerDidStart(_ controller: PictureInPictureController) {
        isPictureInPictureActive = true
        appDelegate?.pictureInPictureControllerDidStart(controller)
        adsObserver?.pictureInPictureControllerDidStart(controller)
    }

    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           failedToStartWith error: PictureInPictureError) {
        appDelegate?.pictureInPictureController(controller, failedToStartWith: error)
        adsObserver?.pictureInPictureController(controller, failedToStartWith: error)
    }

    public func pictureInPictureControllerWillStop(_ controller: PictureInPictureController) {
        appDelegate?.pictureInPictureControllerWillStop(controller)
        adsObserver?.pictureInPictureControllerWillStop(controller)
    }

    public func pictureInPictureControllerDidStop(_ controller: PictureInPictureController) {
        isPictureInPictureActive = false
        appDelegate?.pictureInPictureControllerDidStop(controller)
        adsObserver?.pictureInPictureControllerDidStop(controller)
    }

    /// Forwarded to both; the completion handler is called once, with `true` only if every receiver agreed.
    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           restoreUserInterfaceWithCompletionHandler completion: @escaping (Bool) -> Void) {
        let receivers: [any PictureInPictureDelegate] = [appDelegate, adsObserver].compactMap { $0 }
        guard !receivers.isEmpty else { return completion(true) }
        var pending = receivers.count
        var allRestored = true
        for receiver in receivers {
            receiver.pictureInPictureController(controller, restoreUserInterfaceWithCompletionHandler: { restored in
                allRestored = allRestored && restored
                pending -= 1
                if pending == 0 { completion(allRestored) }
            })
        }
    }
}
