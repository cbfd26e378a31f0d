import CFFmpeg
import MediaCore

/// Draws pictures into the output canvas, "the screen": a yuv420p frame of the output size.
///
/// Each `draw` takes a picture and the window it goes into; the picture keeps its display aspect and is centred
/// in the window with black bars (letterbox or pillarbox). Layouts (full screen, picture-in-picture, later
/// banners and sliders) are decided by the caller, which passes windows; the compositor only draws.
public final class Compositor {
    public let size: PixelSize
    let canvas: Frame
    private var scalers: [ScalerKey: Scaler] = [:]

    private struct ScalerKey: Hashable {
        var source: PixelSize
        var format: Int32
        var fullRange: Bool
        var destination: PixelSize
    }

    public init(size: PixelSize) throws(MediaError) {
        self.size = size
        canvas = try Frame.picture(size)
        fill(PixelRect(size: size), with: .black)
    }

    /// Paints a rectangle of the canvas (coordinates rounded to even pixels for chroma) with one colour.
    public func fill(_ rect: PixelRect, with color: YUVColor) {
        let r = clipped(rect)
        guard r.width > 0, r.height > 0 else { return }
        fillPlane(0, x: r.x, y: r.y, width: r.width, height: r.height, value: color.y)
        fillPlane(1, x: r.x / 2, y: r.y / 2, width: (r.width + 1) / 2, height: (r.height + 1) / 2, value: color.u)
        fillPlane(2, x: r.x / 2, y: r.y / 2, width: (r.width + 1) / 2, height: (r.height + 1) / 2, value: color.v)
    }

    /// Draws `picture` centred in `window` at its display aspect, with black bars filling the rest of the window.
    /// - Returns: where the picture itself landed.
    @discardableResult
    public func draw(_ picture: VideoPicture, in window: PixelRect) throws(MediaError) -> PixelRect {
        let target = clipped(window).fitting(aspect: picture.displayAspect)
        fillBars(around: target, in: clipped(window))
        try scale(picture.frame, into: target)
        return target
    }

    /// Draws `picture` stretched to cover `window` exactly (a background).
    public func drawFilling(_ picture: VideoPicture, in window: PixelRect) throws(MediaError) {
        try scale(picture.frame, into: evenRect(clipped(window)))
    }

    /// The canvas as a picture (to read a stamp from or to hash).
    public var picture: VideoPicture { VideoPicture(frame: canvas) }

    private func fillBars(around picture: PixelRect, in window: PixelRect) {
        fill(PixelRect(x: window.x, y: window.y, width: window.width, height: picture.y - window.y), with: .black)
        fill(PixelRect(x: window.x, y: picture.maxY, width: window.width, height: window.maxY - picture.maxY), with: .black)
        fill(PixelRect(x: window.x, y: picture.y, width: picture.x - window.x, height: picture.height), with: .black)
        fill(PixelRect(x: picture.maxX, y: picture.y, width: window.maxX - picture.maxX, height: picture.height), with: .black)
    }

    private func clipped(_ r: PixelRect) -> PixelRect {
        let x0 = max(0, min(size.width, r.x)), y0 = max(0, min(size.height, r.y))
        let x1 = max(x0, min(size.width, r.maxX)), y1 = max(y0, min(size.height, r.maxY))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func evenRect(_ r: PixelRect) -> PixelRect {
        let x = r.x & ~1, y = r.y & ~1
        return PixelRect(x: x, y: y, width: max(2, (r.maxX - x) & ~1), height: max(2, (r.maxY - y) & ~1))
    }

    /// The encoder may still hold a reference to the canvas of the previous frame; drawing then goes to a fresh
    /// buffer instead of changing a picture that is waiting to be encoded.
    private func ensureWritable() {
        if !canvas.isWritable { try? canvas.makeWritable() }
    }

    private func fillPlane(_ plane: Int, x: Int, y: Int, width: Int, height: Int, value: UInt8) {
        ensureWritable()
        guard let base = canvas.dataPointer(plane) else { return }
        let stride = canvas.lineSize(plane)
        for row in y..<(y + height) { (base + row * stride + x).update(repeating: value, count: width) }
    }

    /// Scales (and converts) a decoded frame into a rectangle of the canvas with libswscale.
    private func scale(_ frame: Frame, into rect: PixelRect) throws(MediaError) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let (format, fullRange) = frame.scalingFormat
        let key = ScalerKey(source: frame.size, format: format, fullRange: fullRange, destination: rect.size)
        let scaler = try scaler(for: key)
        ensureWritable()
        try scaler.scale(frame, into: canvas, at: rect)
    }

    private func scaler(for key: ScalerKey) throws(MediaError) -> Scaler {
        if let cached = scalers[key] { return cached }
        let scaler = try Scaler(source: key.source, format: key.format, fullRange: key.fullRange, destination: key.destination)
        if scalers.count > 16 { scalers.removeAll() }
        scalers[key] = scaler
        return scaler
    }
}
