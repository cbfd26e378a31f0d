import MediaCore
import VideoPipeline

/// Text for a contact sheet: one line at a size, in the default font, as a compositor layer.
struct SheetText {
    let rasterizer: TextRasterizer

    init() throws(FontError) {
        rasterizer = TextRasterizer(font: try FontFace.defaultFont())
    }

    /// `text` on one line no wider than `width` (cut by the line breaker), its top-left at (`x`, `y`).
    func layer(_ text: String, size: Int, color: YUVColor, x: Int, y: Int, width: Int) throws(FontError) -> CompositorLayer {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        let rendered = try rasterizer.render(printable, pixelSize: size, width: max(1, width), lineLimit: 1)
        return .text(rendered, color, in: PixelRect(x: x, y: y, width: rendered.mask.size.width, height: rendered.mask.size.height))
    }
}
