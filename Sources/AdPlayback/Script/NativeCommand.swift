/// A script command for the native placements of a screen: loading a slider or its images, and scrolling it.
///
/// Written `COMMAND@T` in a script like the screen commands; the placement may be left out when the screen has
/// one native placement. Nothing loads by itself: a slider stays `idle` until `load slider`.
public enum NativeCommand: Hashable, Sendable, CustomStringConvertible {
    /// Which way a swipe moves the cards: `left` shows the next card, `right` the previous one.
    public enum Direction: String, Hashable, Sendable, CaseIterable {
        case left, right
    }

    /// `load slider [PLACEMENT]`: request the block (again, after a failure, up to `maxRetries`).
    case loadSlider(placement: String?)
    /// `load images [PLACEMENT]`: load the images of a placement whose `loadImages` is off.
    case loadImages(placement: String?)
    /// `swipe left|right [PLACEMENT]`: one card, view-aligned, animated over `NativeSliderLayout.swipeDuration`.
    case swipe(Direction, placement: String?)
    /// `scroll N [PLACEMENT]`: card N (from 0) to the leading edge at once, as far as the row allows.
    case scroll(to: Int, placement: String?)

    /// The placement the command names, if it names one.
    public var placement: String? {
        switch self {
        case .loadSlider(let p), .loadImages(let p), .swipe(_, let p), .scroll(_, let p): p
        }
    }

    public var description: String {
        let suffix = placement.map { " \($0)" } ?? ""
        switch self {
        case .loadSlider: return "load slider" + suffix
        case .loadImages: return "load images" + suffix
        case .swipe(let direction, _): return "swipe \(direction.rawValue)" + suffix
        case .scroll(let index, _): return "scroll \(index)" + suffix
        }
    }
}
