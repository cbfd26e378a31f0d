import MediaCore
import VideoPipeline

extension Stitcher {
    /// The slider's background, light grey as in the guide's feed.
    package static let sliderColor = YUVColor(red: 0xE8, green: 0xE8, blue: 0xEC)
    /// A block still loading, or an image not loaded yet.
    package static let nativePlaceholderColor = YUVColor(red: 0xB0, green: 0xB0, blue: 0xB0)
    package static let cardColor = YUVColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    static let nativeTextColor = YUVColor(red: 0x20, green: 0x20, blue: 0x20)
    /// The call-to-action capsule; its text is white.
    static let callToActionColor = YUVColor(red: 0x1A, green: 0x73, blue: 0xE8)
    static let callToActionTextColor = YUVColor(red: 0xFF, green: 0xFF, blue: 0xFF)

    /// The corners outside a rectangle of `rect` rounded to `radius`, in `color` (the card's): drawn over a picture,
    /// they round its corners on the card.
    package static func roundedCorners(of rect: PixelRect, radius: Int, color: YUVColor = cardColor) -> CompositorLayer {
        CompositorLayer(.mask(CoverageMask.roundedRect(rect.size, radius: radius).inverted(), color), in: rect)
    }
}
