import MediaCore

/// A change to the screen, written in a `--script` as `COMMAND@T`: a rotation, a resize, a fold, a tap.
public enum ScreenCommand: Hashable, Sendable, CustomStringConvertible {
    /// `rotate portrait|landscape`
    case rotate(Orientation)
    /// `resize SCENE WxH`: the scene takes this size in points at its place (the arrangement becomes free frames).
    case resize(SceneID, PointSize)
    /// `split 1/2|2/3|1/3`: two scenes in Split View, the fraction being the leading scene's share.
    case split(SplitFraction)
    /// `fold`: a foldable switches to its outer display.
    case fold
    /// `unfold`: a foldable switches to its inner display.
    case unfold
    /// `activate SCENE`: the scene becomes `foregroundActive` (brought full screen when it is off screen).
    case activate(SceneID)
    /// `present interstitial SCENE`: a full-screen ad covers the scene's window.
    case presentInterstitial(SceneID)
    /// `tap X,Y`: a touch at point (X, Y) of the device's screen canvas, from its top left (whatever point scale and
    /// canvas the output draws it with), landing on the top layer at the nearest pixel.
    case tap(x: Int, y: Int)
    /// `dismiss SCENE`: closes what is presented over the scene (a full-screen ad, a banner's landing screen).
    case dismiss(SceneID)

    public var description: String {
        switch self {
        case .rotate(let orientation): "rotate \(orientation.rawValue)"
        case .resize(let scene, let size): "resize \(scene) \(size)"
        case .split(let fraction): "split \(fraction.rawValue)"
        case .fold: "fold"
        case .unfold: "unfold"
        case .activate(let scene): "activate \(scene)"
        case .presentInterstitial(let scene): "present interstitial \(scene)"
        case .tap(let x, let y): "tap \(x),\(y)"
        case .dismiss(let scene): "dismiss \(scene)"
        }
    }
}
