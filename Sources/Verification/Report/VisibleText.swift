/// What of an untrusted string a report shows as an escape rather than as itself: characters that are invisible or
/// that change how the text around them is read — control characters, bidirectional controls (U+202A–202E,
/// U+2066–2069, U+200E/200F, U+061C: `…/\u{202e}gpj.exe` would show as `exe.jpg`), zero-width and format
/// characters (U+200B–200D, U+2060–2064, U+FEFF, the soft hyphen, tags), line separators and noncharacters.
///
/// The page (`HTMLText`) and the contact sheet (`SheetText`) both write such a character as `\u{202e}`, so what a
/// QA engineer reads is what the file holds.
enum VisibleText {
    /// Whether `scalar` is written as `\u{…}` rather than as itself.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        switch v {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFFA0: return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F: return true
        case 0xFEFF, 0xFFF9...0xFFFB: return true
        case 0xFDD0...0xFDEF: return true
        case 0xE0000...0xE007F: return true
        default: return v & 0xFFFE == 0xFFFE
        }
    }

    /// `scalar` as it is shown when escaped: `\u{202e}`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16) + "}"
    }

    /// `text` with every escaped character written as `\u{…}` (tabs and newlines included).
    static func shown(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
