import AdPlayback

/// The size and place of an anchored adaptive banner, and when it must be requested again.
///
/// Google Mobile Ads' anchored adaptive banner takes the full safe-area width of its window and a height that
/// depends on the screen: at least 50 points, at most 90, else 15% of the screen height in the current orientation.
/// Heights are whole points, rounded down, as the SDK returns them.
public enum AnchoredAdaptiveBanner {
    /// What a layout change means for a loaded banner.
    public enum Change: Hashable, Sendable {
        /// Same size: nothing to do.
        case unchanged
        /// The width changed (or nothing was loaded): a new ad request for the new size.
        case reload
        /// Only the height changed: the same creative is re-anchored, no request.
        case reanchor
    }

    /// The banner's size for a scene whose safe area is `safeAreaWidth` wide on a screen `screenHeight` tall in the
    /// current orientation: `max(50, min(90, ⌊15% × screenHeight⌋))` high.
    public static func size(safeAreaWidth: Int, screenHeight: Int) -> PointSize {
        PointSize(width: safeAreaWidth, height: max(50, min(90, screenHeight * 15 / 100)))
    }

    /// The banner's frame in `scene`: on the bottom edge of its safe area, centred across it.
    public static func frame(in scene: SceneLayout, screenHeight: Int) -> PointRect {
        let safe = scene.safeFrame
        let size = size(safeAreaWidth: safe.width, screenHeight: screenHeight)
        return PointRect(x: safe.x + (safe.width - size.width) / 2, y: safe.maxY - size.height,
                         width: size.width, height: size.height)
    }

    /// Whether a banner loaded at `loaded` (nil: not loaded) must be requested again for `new`: only when the
    /// width changes, as the anchored adaptive guide asks; a height-only change re-anchors.
    public static func change(from loaded: PointSize?, to new: PointSize) -> Change {
        guard let loaded, loaded.width == new.width else { return .reload }
        return loaded.height == new.height ? .unchanged : .reanchor
    }
}
