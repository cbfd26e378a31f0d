import AdPlayback
import Foundation
import MediaCore

/// Whether a foldable is closed (its outer display is on) or open (its inner display is on).
public enum FoldState: String, Hashable, Sendable, CaseIterable, Codable {
    case folded, unfolded
}

/// One display of a device: its size in points held in portrait, and the safe-area insets the system reports in
/// each orientation.
public struct Display: Hashable, Sendable {
    /// `main` for single-display devices; `outer`/`inner` for a foldable.
    public enum Role: String, Hashable, Sendable, Codable { case main, outer, inner }

    public let role: Role
    /// The size held in portrait (width ≤ height); landscape is the same size turned.
    public let portraitSize: PointSize
    public let portraitSafeArea: EdgeInsets
    public let landscapeSafeArea: EdgeInsets

    public init(role: Role, portraitSize: PointSize, portraitSafeArea: EdgeInsets = .zero,
                landscapeSafeArea: EdgeInsets = .zero) {
        precondition(portraitSize.width > 0 && portraitSize.height > 0)
        self.role = role
        self.portraitSize = portraitSize.width <= portraitSize.height ? portraitSize : portraitSize.transposed
        self.portraitSafeArea = portraitSafeArea
        self.landscapeSafeArea = landscapeSafeArea
    }

    /// The display's size in points held in `orientation`.
    public func size(in orientation: Orientation) -> PointSize {
        orientation == .portrait ? portraitSize : portraitSize.transposed
    }

    /// The safe-area insets of the whole display in `orientation`.
    public func safeArea(in orientation: Orientation) -> EdgeInsets {
        orientation == .portrait ? portraitSafeArea : landscapeSafeArea
    }
}

/// A phone, tablet or foldable: one or two displays in points, the device's own point scale, and whether it
/// runs several scenes side by side.
///
/// Points are what apps lay out in (UIKit points, Android dp); `nativeScale` is the device's pixels per point. The
/// rendered output uses its own `PointScale` (see `PointScale.default`), because a 3x phone would be far larger
/// than a useful test video.
public struct Device: Hashable, Sendable, CustomStringConvertible {
    /// The name it was chosen by: a profile name or the custom `WxH[@scale]` text.
    public let name: String
    /// One display, or a foldable's `outer` then `inner`.
    public let displays: [Display]
    /// Device pixels per point (UIKit `UIScreen.scale`, Android `DisplayMetrics.density`).
    public let nativeScale: Rational
    /// Whether an app may show more than one scene at once (iPad multitasking, Android multi-window on a large
    /// screen); a request without its scene in test mode fails only on such a device.
    public let supportsMultipleScenes: Bool

    public init(name: String, displays: [Display], nativeScale: Rational, supportsMultipleScenes: Bool) {
        precondition(!displays.isEmpty && displays.count <= 2, "a device has one or two displays")
        precondition(nativeScale > .zero)
        self.name = name
        self.displays = displays
        self.nativeScale = nativeScale
        self.supportsMultipleScenes = supportsMultipleScenes
    }

    /// Whether the device has an outer and an inner display switched by folding.
    public var isFoldable: Bool { displays.count == 2 }

    /// The display that is on in `fold`: the outer one of a folded foldable, otherwise the largest.
    public func activeDisplay(_ fold: FoldState) -> Display {
        isFoldable && fold == .folded ? displays[0] : displays[displays.count - 1]
    }

    public var description: String { name }
}

extension Device {
    /// The names `--device` accepts besides `WxH[@scale]`.
    public static let profileNames = ["iphone-15", "ipad-11", "foldable"]

    /// iPhone 15: 393x852 pt at 3x (1179x2556 px).
    ///
    /// Size and scale: Apple's Human Interface Guidelines, "Layout", device screen sizes (iPhone 15: 393x852 pt,
    /// @3x) and the iPhone 15 technical specifications (2556x1179 px). Safe area as iOS 17 reports it for the
    /// Dynamic Island models: portrait top 59 (status bar + island) and bottom 34 (home indicator); landscape
    /// left and right 59, bottom 21, top 0. A phone shows one scene.
    public static let iPhone15 = Device(
        name: "iphone-15",
        displays: [Display(role: .main, portraitSize: PointSize(width: 393, height: 852),
                           portraitSafeArea: EdgeInsets(top: 59, bottom: 34),
                           landscapeSafeArea: EdgeInsets(top: 0, left: 59, bottom: 21, right: 59))],
        nativeScale: Rational(3), supportsMultipleScenes: false)

    /// iPad Pro 11-inch: 834x1194 pt at 2x (1668x2388 px), with multitasking.
    ///
    /// Size and scale: Apple's Human Interface Guidelines, "Layout" (iPad Pro 11": 834x1194 pt, @2x) and the
    /// iPad Pro 11-inch technical specifications (2388x1668 px). Safe area as iPadOS reports it on Face ID iPads:
    /// top 24 (status bar) and bottom 20 (home indicator) in both orientations, no side insets. Split View and
    /// Slide Over widths: see `SceneArrangement`.
    public static let iPad11 = Device(
        name: "ipad-11",
        displays: [Display(role: .main, portraitSize: PointSize(width: 834, height: 1194),
                           portraitSafeArea: EdgeInsets(top: 24, bottom: 20),
                           landscapeSafeArea: EdgeInsets(top: 24, bottom: 20))],
        nativeScale: Rational(2), supportsMultipleScenes: true)

    /// Google Pixel Fold: outer display 411x796 dp, inner 700x841 dp, at density 2.625 (420 dpi).
    ///
    /// Pixels: Google's Pixel Fold technical specifications (outer 5.8" 1080x2092 px, inner 7.6" 2208x1840 px,
    /// the inner one wider than tall when opened). Density 2.625 is the `xxhdpi`-class 420 dpi bucket the device
    /// reports; dp are px / 2.625 truncated, as `Configuration.screenWidthDp` truncates (1080 → 411, 2092 → 796,
    /// 2208 → 841, 1840 → 700). Insets: the status bar (24 dp, AOSP's `status_bar_height`) at the top and the
    /// gesture navigation bar (24 dp) at the bottom, in both orientations; these two are the framework defaults,
    /// not measured on the device. The inner display runs apps side by side (Android multi-window).
    public static let foldable = Device(
        name: "foldable",
        displays: [
            Display(role: .outer, portraitSize: PointSize(width: 411, height: 796),
                    portraitSafeArea: EdgeInsets(top: 24, bottom: 24), landscapeSafeArea: EdgeInsets(top: 24, bottom: 24)),
            Display(role: .inner, portraitSize: PointSize(width: 700, height: 841),
                    portraitSafeArea: EdgeInsets(top: 24, bottom: 24), landscapeSafeArea: EdgeInsets(top: 24, bottom: 24)),
        ],
        nativeScale: Rational(21, 8), supportsMultipleScenes: true)

    /// Reads a `--device` value: a profile name, or `WxH[@scale]` in points (no safe-area insets; scale 1 when
    /// left out, which may be a decimal or a fraction; a custom device is taken to support several scenes).
    ///
    /// - Throws: `ScreenError.unknownDevice` for a name that is neither, `.badDeviceScale` for a scale that is not
    ///   a positive number.
    public init(parsing text: String) throws(ScreenError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch trimmed {
        case "iphone-15": self = .iPhone15
        case "ipad-11": self = .iPad11
        case "foldable": self = .foldable
        default:
            let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, let size = PointSize(parsing: String(parts[0])) else {
                throw .unknownDevice(text)
            }
            var scale = Rational.one
            if parts.count == 2 {
                guard let parsed = Rational(parsing: String(parts[1])), parsed > .zero else {
                    throw .badDeviceScale(device: text, scale: String(parts[1]))
                }
                scale = parsed
            }
            self.init(name: trimmed, displays: [Display(role: .main, portraitSize: size)], nativeScale: scale,
                      supportsMultipleScenes: true)
        }
    }

    /// The orientation a device starts in when none is asked for: portrait, except a custom `WxH` written wider
    /// than tall.
    public static func naturalOrientation(of text: String) -> Orientation {
        let size = PointSize(parsing: String(text.lowercased().split(separator: "@").first ?? ""))
        return size.map { $0.width > $0.height ? .landscape : .portrait } ?? .portrait
    }
}
