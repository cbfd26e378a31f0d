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

    /// A size no card uses is refused before FreeType is asked to draw at it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath)), arguments: [0, -3, TextRasterizer.maximumPixelSize + 1])
    func anImpossiblePixelSizeIsRefused(size: Int) throws {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        #expect(throws: FontError.invalidPixelSize(size)) { try rasterizer.measure("Sponsored", pixelSize: size) }
    }
}
