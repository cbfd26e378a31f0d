import AdPlayback

/// Where one scene is on the active display: its frame and its safe-area insets, in points.
public struct SceneLayout: Hashable, Sendable {
    public let id: SceneID
    public let frame: PointRect
    /// The insets within `frame` that the system covers (status bar, home indicator, island, navigation bar).
    public let safeArea: EdgeInsets

    public init(id: SceneID, frame: PointRect, safeArea: EdgeInsets) {
        self.id = id
        self.frame = frame
        self.safeArea = safeArea
    }

    /// The frame less its safe-area insets: where an app puts what must stay visible.
    public var safeFrame: PointRect { frame.inset(by: safeArea) }

    /// The safe area of a scene at `frame` on a display of `displaySize` whose own insets are `displayInsets`:
    /// the part of each system inset that falls inside the frame, which is how UIKit and Android give a window
    /// that touches some edges and not others its insets (the scene beside a Split View divider has none there).
    public static func safeArea(of frame: PointRect, displaySize: PointSize, displayInsets: EdgeInsets) -> EdgeInsets {
        func clamp(_ value: Int, _ limit: Int) -> Int { min(max(0, value), limit) }
        return EdgeInsets(
            top: clamp(displayInsets.top - frame.y, frame.height),
            left: clamp(displayInsets.left - frame.x, frame.width),
            bottom: clamp(frame.maxY - (displaySize.height - displayInsets.bottom), frame.height),
            right: clamp(frame.maxX - (displaySize.width - displayInsets.right), frame.width))
    }
}
