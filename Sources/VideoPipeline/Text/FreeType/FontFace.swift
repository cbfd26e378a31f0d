import CFreeType
import Foundation

/// A font file opened by FreeType (`FT_Face`), owned from `FT_New_Face` and freed in `deinit`.
///
/// All of FreeType's struct traffic (`.pointee`) lives in this folder, as FFmpeg's lives in `FFmpeg/`: the rest
/// of the text code sees pixels, advances and coverage, never a C type. A face draws at one pixel size at a time;
/// `setPixelSize` switches it (FreeType keeps the scaled metrics on the face).
public final class FontFace {
    /// DejaVu Sans from Debian's `fonts-dejavu-core` (Latin, Greek and Cyrillic), which `scripts/setup` installs.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let defaultPackage = "fonts-dejavu-core"

    /// The font file.
    public let path: String
    private let library: FreeTypeLibrary
    private let face: FT_Face
    private var pixelSize: Int?

    /// Opens the default font (DejaVu Sans).
    /// - Throws: `FontError.defaultFontMissing` naming the path and the package that provides it.
    public static func defaultFont() throws(FontError) -> FontFace { try defaultFont(installedAt: defaultPath) }

    /// The default font at `path`, where its package puts it (a parameter so a test can point at a missing one).
    static func defaultFont(installedAt path: String) throws(FontError) -> FontFace {
        guard FileManager.default.fileExists(atPath: path) else {
            throw FontError.defaultFontMissing(path: path, package: defaultPackage)
        }
        return try FontFace(path: path)
    }

    /// Opens the first face of a font file FreeType reads (TrueType, OpenType, Type 1, …).
    /// - Throws: `FontError.fileNotFound`, or `.freeType` naming `FT_New_Face` for a file that is not a font.
    public init(path: String) throws(FontError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw FontError.fileNotFound(path: path)
        }
        self.path = path
        library = try FreeTypeLibrary()
        var opened: FT_Face?
        try checkFreeType(FT_New_Face(library.handle, path, 0, &opened), "FT_New_Face", path: path)
        guard let opened else {
            throw FontError.freeType(function: "FT_New_Face", code: 0, message: "returned no face", path: path)
        }
        face = opened
    }

    deinit { FT_Done_Face(face) }

    /// The family name the file declares (e.g. "DejaVu Sans").
    public var familyName: String { face.pointee.family_name.map { String(cString: $0) } ?? "" }

    /// Scales the face to `pixels` per em (FreeType's `FT_Set_Pixel_Sizes`, as ffmpeg's `drawtext` `fontsize`).
    func setPixelSize(_ pixels: Int) throws(FontError) {
        guard pixels != pixelSize else { return }
        guard (1...TextRasterizer.maximumPixelSize).contains(pixels) else { throw FontError.invalidPixelSize(pixels) }
        try checkFreeType(FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels)), "FT_Set_Pixel_Sizes", path: path)
        pixelSize = pixels
    }

    /// The vertical metrics at the current size, in whole pixels (FreeType rounds them for scalable faces).
    var lineMetrics: LineMetrics {
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int(metrics.ascender + 63) >> 6, descender = Int(-metrics.descender + 63) >> 6
        return LineMetrics(ascender: ascender, descender: descender, lineHeight: max(Int(metrics.height + 32) >> 6, ascender + descender))
    }

    /// The face's glyph for a Unicode scalar (0, the "missing glyph" box, when the font has none).
    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 { FT_Get_Char_Index(face, FT_ULong(scalar.value)) }

    /// The kerning between two glyphs at the current size, grid-fitted to whole pixels; 0 for a face without
    /// kerning.
    func kerning(_ left: UInt32, _ right: UInt32) throws(FontError) -> Int {
        guard left != 0, right != 0, cfreetype_has_kerning(face) != 0 else { return 0 }
        var delta = FT_Vector()
        try checkFreeType(FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta), "FT_Get_Kerning",
                          path: path)
        return Int(delta.x) >> 6
    }

    /// Loads, hints and renders one glyph at the current size into an 8-bit coverage bitmap.
    func renderGlyph(_ index: UInt32) throws(FontError) -> Glyph {
        try checkFreeType(FT_Load_Glyph(face, index, cfreetype_load_default()), "FT_Load_Glyph", path: path)
        guard let slot = face.pointee.glyph else {
            throw FontError.freeType(function: "FT_Load_Glyph", code: 0, message: "left no glyph slot", path: path)
        }
        try checkFreeType(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL), "FT_Render_Glyph", path: path)
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0 {
            // A negative pitch means the rows are stored bottom up; `buffer` is then the last row.
            let first = pitch >= 0 ? buffer : buffer + (rows - 1) * -pitch
            let mono = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
            for row in 0..<rows {
                let line = first + row * pitch
                for x in 0..<width {
                    coverage[row * width + x] = mono ? (line[x >> 3] & (0x80 >> (x & 7)) != 0 ? 255 : 0) : line[x]
                }
            }
        }
        return Glyph(coverage: coverage, width: width, rows: rows, left: Int(slot.pointee.bitmap_left),
                     top: Int(slot.pointee.bitmap_top), advance: Int(slot.pointee.advance.x + 32) >> 6)
    }
}

/// A face's vertical metrics at one pixel size.
struct LineMetrics: Hashable, Sendable {
    /// From the baseline up to the top of the tallest glyphs.
    var ascender: Int
    /// From the baseline down to the bottom of the deepest glyphs (positive).
    var descender: Int
    /// From one baseline to the next.
    var lineHeight: Int
}

/// One rendered glyph: its coverage bitmap, where it sits relative to the pen on the baseline, and how far it moves
/// the pen.
struct Glyph: Sendable {
    var coverage: [UInt8]
    var width: Int
    var rows: Int
    /// From the pen to the bitmap's left column.
    var left: Int
    /// From the baseline up to the bitmap's top row.
    var top: Int
    var advance: Int
}
