// FreeType's headers through the include macros it requires, and the few macros Swift cannot import, as prefixed
// inline functions. Nothing else lives in C: every value here comes from FreeType's own headers.
#ifndef CFREETYPE_SHIM_H
#define CFREETYPE_SHIM_H

#include <stddef.h>
#include <ft2build.h>
#include FT_FREETYPE_H

/// FT_LOAD_DEFAULT is an integer macro; spelled as a function so that its type is FT_Int32 as FT_Load_Glyph takes.
static inline FT_Int32 cfreetype_load_default(void) { return FT_LOAD_DEFAULT; }

/// FT_HAS_KERNING is a function-like macro over the face's flags.
static inline int cfreetype_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

/// FreeType's message for an error code. FT_Error_String returns NULL unless FreeType was built with
/// FT_CONFIG_OPTION_ERROR_STRINGS (Debian's is not), so the table is built from FT_ERRORS_H the way its own
/// documentation shows.
static inline const char *cfreetype_error_string(FT_Error error) {
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) { e, s },
#define FT_ERROR_START_LIST {
#define FT_ERROR_END_LIST { 0, NULL } };
    static const struct { int code; const char *message; } table[] =
#include FT_ERRORS_H
    for (size_t i = 0; table[i].message != NULL; i++) {
        if (table[i].code == error) return table[i].message;
    }
    return "unknown FreeType error";
}

#endif
