import MediaCore
import VideoPipeline

/// Text for a contact sheet: one line at a size, in the default font, as a compositor layer.
struct SheetText {
    let rasterizer: TextRasterizer

    init() throws(FontError) {
        rasterizer = TextRasterizer(font: try FontFace.defaultFont())
    }

    /// `text` on `lineLimit` lines no wider than `width` (cut by the line breaker), its top-left at (`x`, `y`),
    /// with control, bidirectional and invisible characters written as `\u{…}` (`printable`), as on the page. The
    /// values in it were cut where they were read (`ReportFormat.value`).
    func layer(_ text: String, size: Int, color: YUVColor, x: Int, y: Int, width: Int, lineLimit: Int = 1) throws(FontError) -> CompositorLayer {
        let printable = Self.printable(text)
        let rendered = try rasterizer.render(printable, pixelSize: size, width: max(1, width), lineLimit: lineLimit)
        return .text(rendered, color, in: PixelRect(x: x, y: y, width: rendered.mask.size.width, height: rendered.mask.size.height))
    }

    /// What the sheet draws of `text`: every control, bidirectional or invisible character as `\u{…}`.
    static func printable(_ text: String) -> String { VisibleText.shown(text) }
}
