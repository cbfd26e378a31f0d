import VideoPipeline

// `play --show`: every output frame, as written, lent to a window.
extension Stitcher {
    /// Lends each frame `step()` writes (its composed picture and its samples, exactly what the encoder gets) to
    /// `observer`, during the step, before it is encoded.
    public func observeFrames(_ observer: @escaping (OutputFrameView) -> Void) {
        output.stage.frameObserver = observer
    }
}
