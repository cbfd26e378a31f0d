import MediaCore

/// The compositor's shortcut for a picture that fills the whole output: one libswscale pass straight into the
/// frame the encoder takes, on libswscale's slice threads (`pipctl transcode`, and through it every ad `serve`
/// conditions).
///
/// A picture fills the output when the display-geometry rule draws it over all of it: upright (no rotation, no
/// mirror) and with the output's display aspect to the pixel, so that `Compositor.draw` would leave no bar and
/// scale the whole decoded picture to the output's size. The compositor then scales into a frame of exactly that
/// size and copies it into the canvas row by row, and the output stage copies the canvas once more for the encoder;
/// here the same scaler settings (bicubic, the same range handling) write the encoder's frame itself, so the
/// pictures are the same and two copies per frame are gone (DirectScalerTests). Anything else (bars, a turned or
/// mirrored picture) still goes through the compositor.
final class DirectScaler {
    /// The output's size.
    let size: PixelSize
    /// libswscale's slice threads (0: one per CPU).
    let threads: Int
    private var scalers: [Key: Scaler] = [:]

    private struct Key: Hashable {
        var source: PixelSize
        var format: Int32
        var fullRange: Bool
    }

    init(size: PixelSize, threads: Int) {
        self.size = size
        self.threads = threads
    }

    /// Whether `picture`, drawn by the compositor into the whole output, would cover all of it upright, scaled
    /// whole: then `scale` gives the same picture.
    func fills(_ picture: VideoPicture) -> Bool {
        let geometry = picture.geometry
        let screen = PixelRect(size: size)
        return geometry.orientation == .upright && screen.fitting(aspect: geometry.displayAspect) == screen
    }

    /// Scales the whole of `picture` (which `fills` the output) into `target`, a writable yuv420p frame of the
    /// output's size.
    func scale(_ picture: VideoPicture, into target: Frame) throws(MediaError) {
        precondition(target.size == size, "a \(target.size) frame for a \(size) output")
        let (format, fullRange) = picture.frame.scalingFormat
        try scaler(for: Key(source: picture.frame.size, format: format, fullRange: fullRange)).scaleFrame(picture.frame, into: target)
    }

    private func scaler(for key: Key) throws(MediaError) -> Scaler {
        if let cached = scalers[key] { return cached }
        let scaler = try Scaler(source: key.source, format: key.format, fullRange: key.fullRange, destination: size, threads: threads)
        // A stream that changes size often keeps a few: it may change back.
        if scalers.count > 8 { scalers.removeAll() }
        scalers[key] = scaler
        return scaler
    }
}
