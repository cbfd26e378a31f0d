import CFreeType

/// Checks the return value of a FreeType call: a non-zero FT_Error throws an error naming `function`.
///
/// Every FreeType call that can fail goes through here, as every FFmpeg call goes through `check`, so every text
/// error says which C function failed and FreeType's own message for it.
func checkFreeType(_ error: FT_Error, _ function: String, path: String? = nil) throws(FontError) {
    guard error != 0 else { return }
    throw FontError.freeType(function: function, code: error, message: String(cString: cfreetype_error_string(error)),
                             path: path)
}
