import AdPlayback
import MediaCore

/// The fixed output canvas of a render on a device, and the screen model's layers placed in it.
///
/// An MP4 cannot change size mid-file, so the canvas covers every state the session can reach: every display of
/// the device (a foldable's inner one, so a folded foldable shows its outer display inside it) in the starting
/// orientation, and in the other one too when the session can rotate (its script has a `rotate`, or it is live).
/// The model's own canvas for the current state (`ScreenState.canvasSize`) is centred in it on even pixels; the
/// rest is the bezel colour.
public struct ScreenCanvas: Hashable, Sendable {
    public let size: PixelSize

    /// The canvas for a session starting as `initial`; `rotates` when it may be turned to the other orientation.
    public init(initial: ScreenState, rotates: Bool) {
        var state = initial
        var size = initial.canvasSize
        if rotates {
            state.orientation = initial.orientation == .portrait ? .landscape : .portrait
            let turned = state.canvasSize
            size = PixelSize(width: max(size.width, turned.width), height: max(size.height, turned.height))
        }
        self.size = size
    }

    /// Where the model's canvas for `state` sits in this one: centred, even offsets.
    public func offset(of state: ScreenState) -> (x: Int, y: Int) {
        let inner = state.canvasSize
        return (((size.width - inner.width) / 2) & ~1, ((size.height - inner.height) / 2) & ~1)
    }

    /// A rectangle of the model's canvas for `state`, in this canvas.
    public func place(_ rect: PixelRect, of state: ScreenState) -> PixelRect {
        let (dx, dy) = offset(of: state)
        return PixelRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height)
    }

    /// The screen at one moment in this canvas: the active display, each scene on screen and the model's layers.
    public func frame(of state: ScreenState) -> ScreenFrame {
        ScreenFrame(
            pointScale: state.pointScale,
            display: place(state.displayRect, of: state),
            scenes: state.sceneLayouts.map { layout in
                ScreenFrame.Scene(id: layout.id, rect: place(state.pixelRect(layout.frame), of: state),
                                  safeArea: place(state.pixelRect(layout.safeFrame), of: state),
                                  state: state.activationState(of: layout.id), banner: state.scene(layout.id)?.banner)
            },
            layers: state.layers().map { layer in
                ScreenLayer(scene: layer.scene, kind: layer.kind, rect: place(layer.rect, of: state), shadow: layer.shadow.map {
                    ScreenLayer.Shadow(caster: place($0.caster, of: state), radius: $0.radius, reach: $0.reach)
                })
            })
    }
}
