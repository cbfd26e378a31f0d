/// Text from a manifest (an id, a path, a child's error) made safe to print on a terminal or in a log: every
/// control character (C0, DEL, C1: ESC, BEL, CR, newline…) becomes a visible escape (`\x1B`), so that a manifest
/// cannot move the cursor, ring the bell, retitle the window or split one line into two.
public enum PrintableText {
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
