
/// A place in a native card template: what the guide's card shows, top to bottom.
///
/// Every slot but `feedback` shows one asset; `feedback` is the card's own "why this ad" button, drawn by the
/// app, so it has no asset and never fails binding.
public enum NativeAssetSlot: String, Hashable, Sendable, CaseIterable, Codable {
    /// Image type 1.
    case icon
    case title
    /// Data type 11, `displayurl`.
    case domain
    /// Data type 1.
    case sponsored
    /// Data type 501 (exchange-specific): the age label.
    case age
    /// The feedback button (no asset).
    case feedback
    /// Image type 3 (main) or a video asset.
    case media
    /// Data type 2, `desc`.
    case body
    /// Data type 12, `ctatext`, drawn as a capsule.
    case callToAction
    /// Data type 502 (exchange-specific): the legal warning line.
    case warning

    /// Whether the slot shows text (so its height comes from a `TextMeasurer`).
    public var isText: Bool {
        switch self {
        case .title, .domain, .sponsored, .age, .body, .callToAction, .warning: true
        case .icon, .feedback, .media: false
        }
    }
}
