import AdPlayback

/// What a screen command changed, in the order an app hears it.
///
/// A layout change first tells each scene that changes size it will transition (`viewWillTransition(to:with:)`),
/// then gives every scene on screen its new frame and safe area (`windowScene(_:didUpdate…)`, the coordinate
/// space update), then the activation changes, then what follows for the ads: each banner is reloaded when its
/// width changed or re-anchored when only its place did.
public enum ScreenEvent: Hashable, Sendable {
    /// The scene is about to take a new size (`viewWillTransition(to:with:)`).
    case willTransition(scene: SceneID, to: PointSize)
    /// The scene's frame or safe area changed (`didUpdateCoordinateSpace`); the layout is the new one.
    case didUpdateCoordinateSpace(SceneLayout)
    /// The scene's activation state changed.
    case activationChanged(scene: SceneID, to: SceneActivationState)
    /// The scene's anchored adaptive banner must be requested again: its width is new (or it was never loaded).
    case bannerNeedsReload(scene: SceneID, size: PointSize)
    /// The banner keeps its creative (same width) and moves or changes height to `frame`.
    case bannerReanchored(scene: SceneID, frame: PointRect)
    /// Something now covers the scene's window.
    case presented(scene: SceneID, ScenePresentation)
    /// What covered the scene's window is gone.
    case dismissed(scene: SceneID, ScenePresentation)
    /// A tap at the device's point (x, y), as typed, landed on `layer`, or on nothing (bezel, divider) when `nil`.
    case tapped(x: Int, y: Int, layer: ScreenLayer?)

    /// The event as the session logs it (`SessionEvent.Kind.screen`): a scene's layout as its frame and insets, a
    /// tapped layer as its kind and scene.
    public var sessionEvent: SessionEvent.ScreenEventKind {
        switch self {
        case .willTransition(let scene, let size): .willTransition(scene: scene, to: size)
        case .didUpdateCoordinateSpace(let layout): .didUpdateCoordinateSpace(scene: layout.id, frame: layout.frame, safeArea: layout.safeArea)
        case .activationChanged(let scene, let state): .activationChanged(scene: scene, to: state)
        case .bannerNeedsReload(let scene, let size): .bannerNeedsReload(scene: scene, size: size)
        case .bannerReanchored(let scene, let frame): .bannerReanchored(scene: scene, frame: frame)
        case .presented(let scene, let what): .presented(scene: scene, what)
        case .dismissed(let scene, let what): .dismissed(scene: scene, what)
        case .tapped(let x, let y, let layer): .tapped(x: x, y: y, on: layer.map { .layer($0.kind, scene: $0.scene) } ?? .nothing)
        }
    }
}
