import CFFmpeg
import MediaCore

/// Draws pictures into the output canvas, "the screen": a yuv420p frame of the output size.
///
/// Each `draw` takes a picture and the window it goes into; the picture is turned upright (display matrix), keeps
/// its display aspect and is centred in the window to the pixel with black bars (letterbox or pillarbox). Layouts
/// (full screen, picture-in-picture, later banners and sliders) are decided by the caller, which passes windows;
/// the compositor only draws.
///
/// **Exactly inside the rectangle.** A picture is scaled by libswscale into an intermediate frame of exactly its
/// rectangle's size (owned here and reused for that size), then copied row by row into the canvas, so nothing
/// outside the rectangle is ever written (scaling straight into the canvas let libswscale overrun rows whose
/// width is not a multiple of 16: a pale stripe beside pillarboxed pictures).
///
/// **Odd sizes and offsets in 4:2:0.** Luma is placed to the pixel. A chroma sample of the canvas covers 2x2 luma
/// pixels; the ones wholly inside the picture's rectangle take the picture's chroma, and the ones it shares with
/// what is beside it (only at an odd edge) become the mean of their four pixels' chroma, picture and neighbour
/// (what subsampling the composed 4:4:4 screen would give): keeping either side's alone left a grey line on the
/// picture's edge or a tinted one in the bar. Samples wholly outside are never touched. At an odd left or top
/// offset the picture's chroma lands half a pixel from its luma, which no eye sees.
public final class Compositor {
    public let size: PixelSize
    let canvas: Frame
    private var scalers: [ScalerKey: Scaler] = [:]
    /// Scaled pictures before they are copied into the canvas, one per size.
    private var intermediates: [PixelSize: Frame] = [:]
    /// Shadow masks, one per size and look: a shadow drawn on every frame is computed once.
    private var shadowMasks: [ShadowKey: CoverageMask] = [:]

    private struct ShadowKey: Hashable {
        var size: PixelSize
        var radius: Int
        var reach: Int
        var opacity: UInt8
    }

    private struct ScalerKey: Hashable {
        var source: PixelSize
        var format: Int32
        var fullRange: Bool
        var destination: PixelSize
    }

    public init(size: PixelSize) throws(MediaError) {
        self.size = size
        canvas = try Frame.picture(size)
        try fill(PixelRect(size: size), with: .black)
    }

    /// Paints a rectangle of the canvas with one colour: its luma exactly, and every chroma sample it touches.
    public func fill(_ rect: PixelRect, with color: YUVColor) throws(MediaError) {
        let r = clipped(rect)
        guard r.width > 0, r.height > 0 else { return }
        try ensureWritable()
        fillPlane(0, x: r.x, y: r.y, width: r.width, height: r.height, value: color.y)
        let cx = r.x / 2, cy = r.y / 2, cw = (r.maxX + 1) / 2 - cx, ch = (r.maxY + 1) / 2 - cy
        fillPlane(1, x: cx, y: cy, width: cw, height: ch, value: color.u)
        fillPlane(2, x: cx, y: cy, width: cw, height: ch, value: color.v)
    }

    /// Draws `picture` upright and centred in `window` at its display aspect, with black bars filling the rest of
    /// the window.
    /// - Returns: where the picture itself landed.
    @discardableResult
    public func draw(_ picture: VideoPicture, in window: PixelRect) throws(MediaError) -> PixelRect {
        let geometry = picture.geometry
        let window = clipped(window)
        let target = window.fitting(aspect: geometry.displayAspect)
        try fillBars(around: target, in: window)
        try place(picture.frame, orientation: geometry.orientation, in: target)
        return target
    }

    /// Draws `picture` upright and stretched to cover `window` exactly (a background).
    public func drawFilling(_ picture: VideoPicture, in window: PixelRect) throws(MediaError) {
        try place(picture.frame, orientation: picture.geometry.orientation, in: clipped(window))
    }

    /// The canvas as a picture (to read a stamp from or to hash).
    public var picture: VideoPicture { VideoPicture(frame: canvas) }

    private func fillBars(around picture: PixelRect, in window: PixelRect) throws(MediaError) {
        try fill(PixelRect(x: window.x, y: window.y, width: window.width, height: picture.y - window.y), with: .black)
        try fill(PixelRect(x: window.x, y: picture.maxY, width: window.width, height: window.maxY - picture.maxY), with: .black)
        try fill(PixelRect(x: window.x, y: picture.y, width: picture.x - window.x, height: picture.height), with: .black)
        try fill(PixelRect(x: picture.maxX, y: picture.y, width: window.maxX - picture.maxX, height: picture.height), with: .black)
    }

    func clipped(_ r: PixelRect) -> PixelRect {
        let x0 = max(0, min(size.width, r.x)), y0 = max(0, min(size.height, r.y))
        let x1 = max(x0, min(size.width, r.maxX)), y1 = max(y0, min(size.height, r.maxY))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The encoder may still hold a reference to the canvas of the previous frame; drawing then goes to a fresh
    /// buffer instead of changing a picture that is waiting to be encoded.
    func ensureWritable() throws(MediaError) {
        if !canvas.isWritable { try canvas.makeWritable() }
    }

    private func fillPlane(_ plane: Int, x: Int, y: Int, width: Int, height: Int, value: UInt8) {
        guard let base = canvas.dataPointer(plane) else { return }
        let stride = canvas.lineSize(plane)
        for row in y..<(y + height) { (base + row * stride + x).update(repeating: value, count: width) }
    }

    /// Scales (and converts) a decoded frame, turned by `orientation`, into exactly `rect` of the canvas.
    func place(_ frame: Frame, orientation: DisplayOrientation, in rect: PixelRect) throws(MediaError) {
        guard rect.width >= 1, rect.height >= 1 else { return }
        // Scaled in the decoded picture's own orientation, then turned while copying.
        let scaledSize = orientation.turned(rect.size)
        let scaled = try intermediate(scaledSize)
        let (format, fullRange) = frame.scalingFormat
        let key = ScalerKey(source: frame.size, format: format, fullRange: fullRange, destination: scaledSize)
        try scaler(for: key).scale(frame, into: scaled)
        try ensureWritable()
        copy(scaled, orientation: orientation, into: rect)
        blendSharedChroma(scaled, orientation: orientation, into: rect)
    }

    /// Copies `scaled` into `rect` of the canvas, turned: luma to the pixel, chroma into the samples wholly inside
    /// (by rows for an upright picture, pixel by pixel for a turned one).
    private func copy(_ scaled: Frame, orientation: DisplayOrientation, into rect: PixelRect) {
        // Chroma samples whose 2x2 luma block lies inside the rectangle.
        let cx0 = (rect.x + 1) / 2, cx1 = rect.maxX / 2, cy0 = (rect.y + 1) / 2, cy1 = rect.maxY / 2
        for plane in 0..<3 {
            guard let source = scaled.dataPointer(plane), let destination = canvas.dataPointer(plane) else { continue }
            let sourceStride = scaled.lineSize(plane), destinationStride = canvas.lineSize(plane)
            if orientation == .upright {
                // Rows straight across: the source's chroma row (2·cy − y)/2 rounded down is cy − cy0.
                let (x, y, width, height) = plane == 0 ? (rect.x, rect.y, rect.width, rect.height) : (cx0, cy0, cx1 - cx0, cy1 - cy0)
                guard width > 0 else { continue }
                for row in 0..<max(0, height) {
                    (destination + (y + row) * destinationStride + x).update(from: source + row * sourceStride, count: width)
                }
            } else if plane == 0 {
                for row in 0..<rect.height {
                    let line = destination + (rect.y + row) * destinationStride + rect.x
                    for column in 0..<rect.width {
                        let s = orientation.source(x: column, y: row, shown: rect.size)
                        line[column] = source[s.y * sourceStride + s.x]
                    }
                }
            } else {
                guard cx1 > cx0 else { continue }
                for cy in cy0..<max(cy0, cy1) {
                    let line = destination + cy * destinationStride
                    for cx in cx0..<cx1 {
                        // The block's top-left luma pixel, followed back into the scaled picture.
                        let s = orientation.source(x: 2 * cx - rect.x, y: 2 * cy - rect.y, shown: rect.size)
                        line[cx] = source[s.y / 2 * sourceStride + s.x / 2]
                    }
                }
            }
        }
    }

    /// Blends the picture's chroma into the canvas samples it shares with its neighbours at odd edges, each in
    /// proportion to how many of the sample's four pixels are the picture's.
    private func blendSharedChroma(_ scaled: Frame, orientation: DisplayOrientation, into rect: PixelRect) {
        let cx0 = (rect.x + 1) / 2, cx1 = rect.maxX / 2, cy0 = (rect.y + 1) / 2, cy1 = rect.maxY / 2
        let outerX = rect.x / 2..<((rect.maxX + 1) / 2), outerY = rect.y / 2..<((rect.maxY + 1) / 2)
        guard outerX.count != cx1 - cx0 || outerY.count != cy1 - cy0 else { return }
        for plane in 1...2 {
            guard let source = scaled.dataPointer(plane), let destination = canvas.dataPointer(plane) else { continue }
            let sourceStride = scaled.lineSize(plane), destinationStride = canvas.lineSize(plane)
            for cy in outerY {
                for cx in outerX where !((cx0..<cx1).contains(cx) && (cy0..<cy1).contains(cy)) {
                    let inside = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (2 * cx + $0.0, 2 * cy + $0.1) }
                        .filter { rect.x <= $0.0 && $0.0 < rect.maxX && rect.y <= $0.1 && $0.1 < rect.maxY }
                    guard let first = inside.first else { continue }
                    let s = orientation.source(x: first.0 - rect.x, y: first.1 - rect.y, shown: rect.size)
                    let picture = Int(source[s.y / 2 * sourceStride + s.x / 2])
                    let i = cy * destinationStride + cx
                    destination[i] = UInt8((Int(destination[i]) * (4 - inside.count) + picture * inside.count + 2) / 4)
                }
            }
        }
    }

    private func intermediate(_ size: PixelSize) throws(MediaError) -> Frame {
        if let cached = intermediates[size] { return cached }
        let frame = try Frame.picture(size)
        if intermediates.count > 16 { intermediates.removeAll() }
        intermediates[size] = frame
        return frame
    }

    /// The mask of a `CompositorLayer.Content.shadow` of `size`, from the cache when it was drawn before.
    func shadowMask(_ size: PixelSize, radius: Int, reach: Int, opacity: UInt8) -> CoverageMask {
        let key = ShadowKey(size: size, radius: radius, reach: reach, opacity: opacity)
        if let cached = shadowMasks[key] { return cached }
        let mask = CoverageMask.shadow(size, radius: radius, reach: reach, peak: opacity)
        if shadowMasks.count > 8 { shadowMasks.removeAll() }
        shadowMasks[key] = mask
        return mask
    }

    private func scaler(for key: ScalerKey) throws(MediaError) -> Scaler {
        if let cached = scalers[key] { return cached }
        let scaler = try Scaler(source: key.source, format: key.format, fullRange: key.fullRange, destination: key.destination)
        if scalers.count > 16 { scalers.removeAll() }
        scalers[key] = scaler
        return scaler
    }
}
