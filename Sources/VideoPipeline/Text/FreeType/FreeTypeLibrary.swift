import CFreeType

/// One FreeType library instance (`FT_Library`), owned from `FT_Init_FreeType` and freed in `deinit`.
///
/// Faces keep a reference to their library, so it outlives every face opened through it (FreeType frees a
/// library's faces with it).
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(FontError) {
        var library: FT_Library?
        try checkFreeType(FT_Init_FreeType(&library), "FT_Init_FreeType")
        guard let library else {
            throw FontError.freeType(function: "FT_Init_FreeType", code: 0, message: "returned no library", path: nil)
        }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
