/// How a scene's content shares its window with the scene's anchored adaptive banner; the session file's
/// `scenes[].banner.layout`.
public enum BannerLayout: String, Hashable, Sendable, CaseIterable, Codable {
    /// The content's frame ends where the banner begins, as in Google Mobile Ads' SwiftUI banner example (a
    /// `VStack` of the content and the banner view): nothing of the content is under the banner (docs/SCREENS.md).
    case below
    /// The banner is drawn over the bottom of a content frame that keeps the whole window (the player's picture
    /// may be partly covered).
    case overlay
}
