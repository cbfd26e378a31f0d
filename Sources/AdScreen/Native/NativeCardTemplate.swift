
/// Which assets a native card lays out, and the numbers of its layout: the guide's card by default, or a
/// template from a session file that leaves slots out or changes a line limit.
///
/// The arrangement is fixed (icon and title side by side, the domain/sponsored/age row under the title, the
/// feedback button in the top corner, then media, body, call to action and warning, each under the other), so a
/// template is a list of slots and a few numbers, never coordinates that could overlap.
public struct NativeCardTemplate: Hashable, Sendable {
    /// The slots laid out; a slot not listed is left out (and a required asset in it fails binding).
    public var slots: Set<NativeAssetSlot>
    /// Card width in points.
    public var width: Int
    /// Padding on every edge, in points.
    public var padding: Int
    /// Space between the sections and beside the icon, in points.
    public var spacing: Int
    public var iconSize: Int
    public var feedbackSize: Int
    public var titleLines: Int
    public var bodyLines: Int
    public var warningLines: Int
    public var callToActionHeight: Int
    /// Font sizes in points; a line is `fontSize × 4/3` rounded up (the line height).
    public var titleFontSize: Int
    public var rowFontSize: Int
    public var bodyFontSize: Int
    public var warningFontSize: Int
    /// The corner radius of the icon and the media, in points (the guide's rounded images).
    public var imageCornerRadius = 8

    public init(slots: Set<NativeAssetSlot> = Set(NativeAssetSlot.allCases), width: Int = 320, padding: Int = 12,
                spacing: Int = 8, iconSize: Int = 40, feedbackSize: Int = 24, titleLines: Int = 2, bodyLines: Int = 3,
                warningLines: Int = 2, callToActionHeight: Int = 44, titleFontSize: Int = 15, rowFontSize: Int = 12,
                bodyFontSize: Int = 13, warningFontSize: Int = 10) {
        self.slots = slots
        self.width = width
        self.padding = padding
        self.spacing = spacing
        self.iconSize = iconSize
        self.feedbackSize = feedbackSize
        self.titleLines = titleLines
        self.bodyLines = bodyLines
        self.warningLines = warningLines
        self.callToActionHeight = callToActionHeight
        self.titleFontSize = titleFontSize
        self.rowFontSize = rowFontSize
        self.bodyFontSize = bodyFontSize
        self.warningFontSize = warningFontSize
    }

    /// The guide's card: 320 pt wide, 12 pt padding, 40x40 icon, title in 2 lines, a row of domain, sponsored and
    /// age, 24x24 feedback, media, body in 3 lines, a 44 pt call-to-action capsule and the warning; icon and media
    /// with 8 pt rounded corners.
    public static let `default` = NativeCardTemplate()

    /// The height of one line of text at `fontSize`: 4/3 of it, rounded up to a whole point.
    public static func lineHeight(fontSize: Int) -> Int { (fontSize * 4 + 2) / 3 }
}
