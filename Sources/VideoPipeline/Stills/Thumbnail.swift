import MediaCore

/// A small picture of one output frame: its JPEG bytes (for a page) and the scaled picture itself (for a contact
/// sheet drawn by a `Compositor`), which the thumbnail owns for as long as it lives.
public final class Thumbnail {
    /// The frame's index in the file, from 0, in presentation order.
    public let frame: Int64
    public let jpeg: [UInt8]
    let picture: Frame

    init(frame: Int64, jpeg: [UInt8], picture: Frame) {
        self.frame = frame
        self.jpeg = jpeg
        self.picture = picture
    }

    public var size: PixelSize { picture.size }

    /// The scaled picture, valid while this thumbnail lives.
    public var videoPicture: VideoPicture { VideoPicture(frame: picture) }
}
