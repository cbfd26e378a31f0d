import AdPlayback
import MediaCore

/// The screen in output pixels: the canvas, where the active display sits in it, and the layers each scene
/// contributes.
extension ScreenState {
    /// The output canvas in pixels: every display of the device held in the current orientation fits in it, so
    /// a foldable keeps one canvas (its inner display's) whether folded or not, and a folded one shows its outer
    /// display centred with the rest left to the bezel colour. For a one-display device it is that display.
    public var canvasSize: PixelSize {
        let sizes = device.displays.map { pointScale.pixels($0.size(in: orientation)) }
        return PixelSize(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
    }

    /// The canvas in the device's points (`canvasSize` before the point scale): where `tap X,Y` may land.
    public var canvasPoints: PointSize {
        let sizes = device.displays.map { $0.size(in: orientation) }
        return PointSize(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
    }

    /// The canvas pixel of the device's point (`x`, `y`), both from the canvas's top left: the pixel nearest to it
    /// at the point scale (`PointScale.pixel(nearest:)`). The last points of a side may land just past the canvas's
    /// even edge, where no layer is.
    public func canvasPixel(x: Int, y: Int) -> (x: Int, y: Int) {
        (pointScale.pixel(nearest: x), pointScale.pixel(nearest: y))
    }

    /// The active display's rectangle in the canvas: centred, on even pixels.
    public var displayRect: PixelRect {
        let canvas = canvasSize, size = pointScale.pixels(screenSize)
        return PixelRect(x: ((canvas.width - size.width) / 2) & ~1, y: ((canvas.height - size.height) / 2) & ~1,
                         width: size.width, height: size.height)
    }

    /// A rectangle in points on the active display, in canvas pixels (see `PointScale` for the rounding).
    public func pixelRect(_ rect: PointRect) -> PixelRect {
        let origin = displayRect
        return pointScale.pixels(rect, origin: (origin.x, origin.y))
    }

    /// What is drawn, bottom first: for each scene on screen (in the arrangement's order) its `content` (the
    /// player's frame, `playerFrame(of:)`: the window unless the scene's player has a height), then its
    /// banner, then what it presents (`fullscreen` for an interstitial, `overlay` for a banner's landing screen)
    /// over the whole window. Ads in the player and the PiP window are other contributors' layers. The system's
    /// own chrome shows where one scene ends: Split View's `divider` between its two scenes (after both), and a
    /// Slide Over window's `shadow` (cast by the window with its edge, cut to the display) and then its `edge`
    /// just before its leading side, over the scene below it (before the floating scene's layers).
    public func layers() -> [ScreenLayer] {
        let layouts = sceneLayouts
        var layers: [ScreenLayer] = []
        for layout in layouts {
            if case .slideOver(_, let floating) = arrangement, floating == layout.id, layout.frame.x > 0 {
                let width = min(SceneArrangement.slideOverEdgeWidth, layout.frame.x)
                let edge = pixelRect(PointRect(x: layout.frame.x - width, y: layout.frame.y, width: width, height: layout.frame.height))
                let caster = pixelRect(PointRect(x: layout.frame.x - width, y: layout.frame.y, width: layout.frame.width + width,
                                                 height: layout.frame.height))
                let shadow = ScreenLayer.Shadow(caster: caster, radius: edge.width / 2,
                                                reach: pointScale.pixels(SceneArrangement.slideOverShadowReach))
                let drawn = shadow.extent.intersection(displayRect)
                if shadow.reach > 0, drawn.width > 0, drawn.height > 0 {
                    layers.append(ScreenLayer(scene: layout.id, kind: .shadow, rect: drawn, shadow: shadow))
                }
                layers.append(ScreenLayer(scene: layout.id, kind: .edge, rect: edge))
            }
            layers += sceneLayers(layout)
        }
        if case .split = arrangement, layouts.count == 2 {
            let leading = layouts[0].frame, trailing = layouts[1].frame
            if trailing.x > leading.maxX {
                layers.append(ScreenLayer(scene: layouts[1].id, kind: .divider, rect: pixelRect(
                    PointRect(x: leading.maxX, y: 0, width: trailing.x - leading.maxX, height: screenSize.height))))
            }
        }
        return layers
    }

    /// One scene's own layers, bottom first: its content, its banner, what it presents.
    private func sceneLayers(_ layout: SceneLayout) -> [ScreenLayer] {
        let window = pixelRect(layout.frame)
        var layers = [ScreenLayer(scene: layout.id, kind: .content, rect: pixelRect(playerFrame(of: layout)))]
        if let banner = bannerFrame(of: layout.id) {
            layers.append(ScreenLayer(scene: layout.id, kind: .banner, rect: pixelRect(banner)))
        }
        switch scene(layout.id)?.presentation {
        case .interstitial: layers.append(ScreenLayer(scene: layout.id, kind: .fullscreen, rect: window))
        case .bannerLanding: layers.append(ScreenLayer(scene: layout.id, kind: .overlay, rect: window))
        case nil: break
        }
        return layers
    }
}
