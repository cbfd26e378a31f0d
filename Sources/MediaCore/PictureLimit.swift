/// The largest picture an ad creative may have: a banner, a card image, a full-screen image or video, a linear
/// ad's video. Checked from the header (an image's, a video stream's coded size) before anything is decoded.
///
/// Decoding costs memory by the picture's area: an 8192x8192 frame is 96 MiB in yuv420p (256 MiB as the RGBA a PNG
/// decodes to), and an H.264 decoder holds up to 16 reference frames plus one per thread, so such an ad peaked at
/// 730 MB. At most 4096 pixels a side and 4096x2160 pixels in all (DCI 4K, which UHD 3840x2160 and a portrait
/// 2160x3840 fit) a frame is at most 12.7 MiB in yuv420p (34 MiB as RGBA), and twenty of them stay well inside the
/// 400 MB a render may use. Content is not limited: it is the user's own file.
public struct PictureLimit: Hashable, Sendable, CustomStringConvertible {
    /// The largest width and the largest height.
    public let maximumSide: Int
    /// The largest width × height.
    public let maximumPixels: Int

    public init(maximumSide: Int, maximumPixels: Int) {
        self.maximumSide = maximumSide
        self.maximumPixels = maximumPixels
    }

    /// The limit of every ad creative (docs/SECURITY.md).
    public static let creatives = PictureLimit(maximumSide: 4096, maximumPixels: 4096 * 2160)

    /// Why a picture of `size` is over the limit, for a message; `nil` when it is within.
    public func refusal(of size: PixelSize) -> String? {
        if size.width > maximumSide || size.height > maximumSide {
            return "\(size) is over the picture limit of \(maximumSide) pixels a side"
        }
        // Both sides are at most `maximumSide`, so the product cannot overflow.
        if size.area > maximumPixels {
            return "\(size) (\(size.area) pixels) is over the picture limit of \(maximumPixels) pixels in all"
        }
        return nil
    }

    /// `4096 px a side, 8847360 px`.
    public var description: String { "\(maximumSide) px a side, \(maximumPixels) px in all" }
}
