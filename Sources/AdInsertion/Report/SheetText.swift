import MediaCore
import VideoPipeline

/// Text for a contact sheet: one line at a size, in the default font, as a compositor layer.
struct SheetText {
    let rasterizer: TextRasterizer

    init() throws(FontError) {
        rasterizer = TextRasterizer(font: try FontFace.defaultFont())
    }

    /// `text` on `lineLimit` lines no wider than `width` (cut by the line breaker), its top-left at (`x`, `y`);
    /// cut first as the page cuts a value (`ReportFormat.value`), and with control, bidirectional and invisible
    /// characters written as `\u{…}` (`VisibleText`), as on the page.
    func layer(_ text: String, size: Int, color: YUVColor, x: Int, y: Int, width: Int, lineLimit: Int = 1) throws(FontError) -> CompositorLayer {
        let printable = VisibleText.shown(ReportFormat.value(text))
        let rendered = try rasterizer.render(printable, pixelSize: size, width: max(1, width), lineLimit: lineLimit)
        return .text(rendered, color, in: PixelRect(x: x, y: y, width: rendered.mask.size.width, height: rendered.mask.size.height))
    }
}
