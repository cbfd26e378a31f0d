/// Breaks prose into lines of at most a given width, at spaces, for help text.
struct TextWrapper {
    /// The widest line, in characters.
    let width: Int

    /// The words of `text` on lines no wider than `width`, the first prefixed by `firstIndent` and the rest by
    /// `indent`. A word longer than a line stays whole on its own line.
    func wrap(_ text: String, firstIndent: String = "", indent: String = "") -> [String] {
        wrap(units: text.split(separator: " ").map(String.init), firstIndent: firstIndent, indent: indent)
    }

    /// Like `wrap(_:)`, with units that are never split (`[--size WxH]`), separated by one space.
    func wrap(units: [String], firstIndent: String = "", indent: String = "") -> [String] {
        var lines: [String] = []
        var line = firstIndent
        var lineHasUnit = false
        for unit in units where !unit.isEmpty {
            if lineHasUnit && line.count + 1 + unit.count > width {
                lines.append(line)
                line = indent
                lineHasUnit = false
            }
            line += (lineHasUnit ? " " : "") + unit
            lineHasUnit = true
        }
        lines.append(line)
        return lines
    }
}
