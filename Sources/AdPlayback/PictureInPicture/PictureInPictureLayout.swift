import MediaCore

/// Where the video window is drawn on the screen, as a pure function of the picture-in-picture state and the
/// output frame.
///
/// The screen is the output canvas. Standard playback uses the whole screen (the media layer letterboxes each
/// source into it). The floating window has the content's display aspect, `widthFraction` of the screen's width,
/// even sides, and sits in its corner `margin` pixels from both edges; ads are letterboxed inside it by the
/// media layer. During a transition of `transitionFrames` frames the rectangle moves and scales linearly between
/// the two.
public struct PictureInPictureLayout: Hashable, Sendable {
    public let screen: PixelRect
    /// The floating window.
    public let window: PixelRect
    public let transitionFrames: Int64

    public init(canvas: PixelSize, contentAspect: Rational, settings: PictureInPictureSettings) {
        self.init(canvas: canvas, bounds: PixelRect(size: canvas), contentAspect: contentAspect, settings: settings)
    }

    /// The layout on a screen of `canvas` whose floating window must stay inside `bounds` (on a device: the
    /// player's window less the system's insets and the scene's banner), in its corner `margin` pixels from the
    /// edges of `bounds`; a start or a stop still moves from or to the whole screen.
    public init(canvas: PixelSize, bounds: PixelRect, contentAspect: Rational, settings: PictureInPictureSettings) {
        precondition(contentAspect > .zero)
        screen = PixelRect(size: canvas)
        let area = bounds.intersection(screen)
        let room = PixelSize(width: max(2, area.width - 2 * settings.margin),
                             height: max(2, area.height - 2 * settings.margin))
        var width = Int((Rational(Int64(canvas.width)) * settings.widthFraction).floor) & ~1
        var height = Int((Rational(Int64(width)) / contentAspect).rounded) & ~1
        if width > room.width || height > room.height {
            // Too tall or too wide for the room: the largest window of the content's shape that fits.
            let fitted = PixelRect(size: room).fitting(aspect: contentAspect)
            width = fitted.width
            height = fitted.height
        }
        width = max(2, width)
        height = max(2, height)
        // Even edges for 4:2:0 chroma, rounded away from the edges of the bounds so that the margin is never smaller.
        let left = (area.x + settings.margin + 1) & ~1, right = (area.maxX - settings.margin - width) & ~1
        let top = (area.y + settings.margin + 1) & ~1, bottom = (area.maxY - settings.margin - height) & ~1
        switch settings.corner {
        case .topLeft: window = PixelRect(x: left, y: top, width: width, height: height)
        case .topRight: window = PixelRect(x: right, y: top, width: width, height: height)
        case .bottomLeft: window = PixelRect(x: left, y: bottom, width: width, height: height)
        case .bottomRight: window = PixelRect(x: right, y: bottom, width: width, height: height)
        }
        transitionFrames = settings.transitionFrames
    }

    /// The video rectangle at output frame `frame`; `nil` for standard (full screen) playback.
    ///
    /// - Parameters:
    ///   - state: the controller's state at that frame.
    ///   - transitionStart: the frame at which the current start or stop was requested.
    public func rect(state: PictureInPictureController.State, transitionStart: Int64, frame: Int64) -> PixelRect? {
        switch state {
        case .inactive: nil
        case .active: window
        case .starting: interpolate(from: screen, to: window, step: frame - transitionStart)
        case .stopping: interpolate(from: window, to: screen, step: frame - transitionStart)
        }
    }

    private func interpolate(from a: PixelRect, to b: PixelRect, step: Int64) -> PixelRect {
        guard transitionFrames > 0 else { return b }
        let k = Rational(min(max(step, 0), transitionFrames), transitionFrames)
        func mix(_ x: Int, _ y: Int) -> Int {
            Int((Rational(Int64(x)) + (Rational(Int64(y - x)) * k)).rounded) & ~1
        }
        return PixelRect(x: mix(a.x, b.x), y: mix(a.y, b.y), width: max(2, mix(a.width, b.width)),
                         height: max(2, mix(a.height, b.height)))
    }
}
