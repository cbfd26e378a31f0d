import AdPlayback

/// How scenes share the active display: one full screen, two in Split View, one sliding over another, or free
/// frames (a resized window, a desktop-style window on a large screen).
public enum SceneArrangement: Hashable, Sendable {
    /// The scene fills the display; every other scene is off screen.
    case fullScreen(SceneID)
    /// Two scenes side by side with the divider between them; the fraction is the leading (left) scene's share.
    case split(leading: SceneID, trailing: SceneID, SplitFraction)
    /// `primary` fills the display and `floating` slides over its trailing edge.
    case slideOver(primary: SceneID, floating: SceneID)
    /// Each scene at its own frame, later ones on top.
    case free([FreeFrame])

    /// A scene at a frame of its own choosing.
    public struct FreeFrame: Hashable, Sendable {
        public let scene: SceneID
        public let frame: PointRect

        public init(scene: SceneID, frame: PointRect) {
            self.scene = scene
            self.frame = frame
        }
    }

    /// The Split View divider's width in points.
    ///
    /// Apple's HIG "Multitasking" table of Split View widths for each iPad: the two widths and this divider add
    /// up to the screen (11" landscape: 809 + 10 + 375 = 1194; 592 + 10 + 592 = 1194).
    public static let dividerWidth = 10
    /// The width of a Slide Over window and of the narrow Split View scene on a display narrower than 1024 pt.
    public static let compactWidth = 320
    /// The width of the narrow Split View scene on a display at least 1024 pt wide (HIG: 375 on iPad Pro 11"
    /// landscape and on 12.9" in both orientations; 320 on 11" portrait, where 504 + 10 + 320 = 834).
    public static let wideCompactWidth = 375
    /// The width in points of the rim drawn along a Slide Over window's leading side (its `edge` layer), over the
    /// scene below: what iPadOS shows as the floating window's rounded border (its shadow is `slideOverShadowReach`).
    public static let slideOverEdgeWidth = 8
    /// How far in points a Slide Over window's soft shadow falls beyond it (and its edge) over the scene below, as
    /// iPadOS lifts the floating window off the one under it.
    public static let slideOverShadowReach = 32

    /// The scenes on screen, bottom first.
    public var scenesOnScreen: [SceneID] {
        switch self {
        case .fullScreen(let scene): [scene]
        case .split(let leading, let trailing, _): [leading, trailing]
        case .slideOver(let primary, let floating): [primary, floating]
        case .free(let frames): frames.map(\.scene)
        }
    }

    /// Each scene on screen with its frame and safe area on a display of `displaySize` with `displayInsets`,
    /// bottom first.
    ///
    /// Split View: the narrow (1/3) scene gets the compact width (375 pt when the display is at least 1024 pt
    /// wide, else 320), the wide (2/3) one the rest after the divider; 1/2 halves what the divider leaves, the
    /// leading scene taking the smaller half of an odd width. Slide Over is `compactWidth` wide, full height,
    /// flush with the trailing edge (iPadOS draws it with a small margin and rounded corners; the model keeps
    /// the edge so that its rectangle can be checked from the pixels). Free frames stay as they are, shrunk and
    /// moved only as far as they must to stay on the display (after a rotation or a fold).
    public func layout(displaySize: PointSize, displayInsets: EdgeInsets) -> [SceneLayout] {
        let w = displaySize.width, h = displaySize.height
        let frames: [(SceneID, PointRect)]
        switch self {
        case .fullScreen(let scene):
            frames = [(scene, PointRect(x: 0, y: 0, width: w, height: h))]
        case .split(let leading, let trailing, let fraction):
            let room = max(0, w - Self.dividerWidth)
            let narrow = min(room, w >= 1024 ? Self.wideCompactWidth : Self.compactWidth)
            let leadingWidth = switch fraction {
            case .half: room / 2
            case .twoThirds: room - narrow
            case .oneThird: narrow
            }
            let trailingX = leadingWidth + Self.dividerWidth
            frames = [(leading, PointRect(x: 0, y: 0, width: leadingWidth, height: h)),
                      (trailing, PointRect(x: trailingX, y: 0, width: w - trailingX, height: h))]
        case .slideOver(let primary, let floating):
            let width = min(w, Self.compactWidth)
            frames = [(primary, PointRect(x: 0, y: 0, width: w, height: h)),
                      (floating, PointRect(x: w - width, y: 0, width: width, height: h))]
        case .free(let free):
            frames = free.map { ($0.scene, $0.frame.kept(within: displaySize)) }
        }
        return frames.map { id, frame in
            SceneLayout(id: id, frame: frame,
                        safeArea: SceneLayout.safeArea(of: frame, displaySize: displaySize, displayInsets: displayInsets))
        }
    }
}

extension PointRect {
    /// This rectangle made to fit on a display of `size`: each side at most the display's, then moved back in
    /// only as far as needed.
    func kept(within size: PointSize) -> PointRect {
        let w = min(width, size.width), h = min(height, size.height)
        return PointRect(x: max(0, min(x, size.width - w)), y: max(0, min(y, size.height - h)), width: w, height: h)
    }
}
