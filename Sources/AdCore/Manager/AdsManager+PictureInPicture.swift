/// The ads manager's side of the picture-in-picture proxy: every message is logged at the frame it arrives,
/// and break starts are held from will-start until did-stop.
extension AdsManager: PictureInPictureDelegate {
    public func pictureInPictureControllerWillStart(_ controller: PictureInPictureController) {
        pictureInPictureHolds = true
        recorder.emit(.pipWillStart)
    }

    public func pictureInPictureControllerDidStart(_ controller: PictureInPictureController) {
        recorder.emit(.pipDidStart)
    }

    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           failedToStartWith error: PictureInPictureError) {
        recorder.emit(.pipFailedToStart, message: error.description)
    }

    public func pictureInPictureControllerWillStop(_ controller: PictureInPictureController) {
        recorder.emit(.pipWillStop)
    }

    public func pictureInPictureControllerDidStop(_ controller: PictureInPictureController) {
        pictureInPictureHolds = false
        recorder.emit(.pipDidStop)
    }

    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           restoreUserInterfaceWithCompletionHandler completion: @escaping (Bool) -> Void) {
        recorder.emit(.pipRestoreUserInterface)
        completion(true)
    }
}
