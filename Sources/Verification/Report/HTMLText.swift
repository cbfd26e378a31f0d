/// Text made safe for an HTML page: in element content and in double- or single-quoted attribute values.
///
/// Everything a report shows comes from files it does not trust (a timeline's ids, an event's message or URL), so
/// every string goes through here: `& < > " '` become character references, and control, bidirectional and
/// invisible characters (which HTML forbids, or which could hide or reorder text) are shown as `\u{…}`
/// (`VisibleText`).
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case _ where VisibleText.isEscaped(scalar): out += VisibleText.escape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
