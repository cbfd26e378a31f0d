/// The ads manager's side of the picture-in-picture proxy: every message is logged at the frame it arrives,
/// and break starts are held from will-start until did-stop.
extension AdsManager: PictureInPictureDelegate {
    public func pictureInPictureControllerWillStart(_ controller: PictureInPictureController) {
        pictureInPictureHolds = true
        recorder.emit(.pictureInPicture(.willStart))
    }

    public func pictureInPictureControllerDidStart(_ controller: PictureInPictureController) {
        recorder.emit(.pictureInPicture(.didStart))
    }

    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           failedToStartWith error: PictureInPictureError) {
        recorder.emit(.pictureInPicture(.failedToStart(error.description)))
    }

    public func pictureInPictureControllerWillStop(_ controller: PictureInPictureController) {
        recorder.emit(.pictureInPicture(.willStop))
    }

    public func pictureInPictureControllerDidStop(_ controller: PictureInPictureController) {
        pictureInPictureHolds = false
        recorder.emit(.pictureInPicture(.didStop))
    }

    public func pictureInPictureController(_ controller: PictureInPictureController,
                                           restoreUserInterfaceWithCompletionHandler completion: @escaping (Bool) -> Void) {
        recorder.emit(.pictureInPicture(.restoreUserInterface))
        completion(true)
    }
}
