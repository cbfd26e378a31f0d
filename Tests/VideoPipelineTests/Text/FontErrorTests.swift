import Foundation
import Testing
@testable import VideoPipeline

/// Font errors are one line naming the file, and FreeType's failures name the C function.
@Suite struct FontErrorTests {
    @Test func aMissingFontFileIsOneLineNamingIt() throws {
        let dir = TemporaryDirectory("fonts")
        let path = dir.path("NoSuchFont.ttf")
        let error = #expect(throws: FontError.self) { try FontFace(path: path) }
        #expect(error == .fileNotFound(path: path))
        #expect(error?.description == "\(path): no such font file")
    }

    @Test func aMissingDefaultFontNamesItsPackage() throws {
        let dir = TemporaryDirectory("fonts")
        let path = dir.path("DejaVuSans.ttf")
        let error = #expect(throws: FontError.self) { try FontFace.defaultFont(installedAt: path) }
        #expect(error?.description.hasPrefix("\(path): ") == true)
        #expect(error?.description.contains("fonts-dejavu-core") == true && error?.description.contains("\n") == false)
    }

    /// A file FreeType cannot read fails in FT_New_Face, with FreeType's own message and the file.
    @Test func aFileThatIsNotAFontNamesTheFreeTypeFunction() throws {
        let dir = TemporaryDirectory("fonts")
        let path = dir.path("notes.ttf")
        try Data("these are notes, not a font\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(#expect(throws: FontError.self) { try FontFace(path: path) })
        guard case .freeType(let function, let code, _, let errorPath) = error else {
            Issue.record("expected a FreeType error, got \(error)")
            return
        }
        #expect(function == "FT_New_Face" && code != 0 && errorPath == path)
        #expect(error.description.hasPrefix("\(path): FT_New_Face failed: ") && !error.description.contains("\n"))
        #expect(!error.description.hasSuffix("unknown FreeType error"))
    }

    /// A font whose glyph outlines are overwritten with 0xFF opens (its tables are where they say), but no glyph
    /// loads: drawing fails in FT_Load_Glyph, named with the file.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath)))
    func aGlyphFreeTypeCannotLoadNamesFTLoadGlyph() throws {
        let dir = TemporaryDirectory("fonts")
        let path = dir.path("scrambled.ttf")
        var font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: FontFace.defaultPath)))
        // The table directory: a count at byte 4, then 16-byte records (tag, checksum, offset, length) from 12.
        func uint(_ at: Int, _ bytes: Int) -> Int { (at..<at + bytes).reduce(0) { $0 << 8 | Int(font[$1]) } }
        let glyf = try #require((0..<uint(4, 2)).map { 12 + 16 * $0 }.first { String(decoding: font[$0..<$0 + 4], as: UTF8.self) == "glyf" })
        let offset = uint(glyf + 8, 4), length = uint(glyf + 12, 4)
        font.replaceSubrange(offset..<offset + length, with: repeatElement(0xFF, count: length))
        try Data(font).write(to: URL(fileURLWithPath: path))
        let rasterizer = TextRasterizer(font: try FontFace(path: path))
        let error = try #require(#expect(throws: FontError.self) { try rasterizer.render("Реклама Sponsored", pixelSize: 20) })
        #expect(error.description.hasPrefix("\(path): FT_Load_Glyph failed: "), "\(error)")
    }

    /// A size no card uses is refused before FreeType is asked to draw at it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath)), arguments: [0, -3, TextRasterizer.maximumPixelSize + 1])
    func anImpossiblePixelSizeIsRefused(size: Int) throws {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        #expect(throws: FontError.invalidPixelSize(size)) { try rasterizer.measure("Sponsored", pixelSize: size) }
    }
}
