/// Everything that can go wrong while opening a font or drawing text, each a line naming the file or C function.
public enum FontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The font file given (`--font FILE`) does not exist.
    case fileNotFound(path: String)
    /// The default font is not installed: it comes from a Debian package that the project's setup installs.
    case defaultFontMissing(path: String, package: String)
    /// A pixel size FreeType cannot draw at (zero, negative or absurdly large).
    case invalidPixelSize(Int)
    /// A FreeType call failed. `function` is the C function, `code` its FT_Error, `message` FreeType's text.
    case freeType(function: String, code: Int32, message: String, path: String?)

    public var description: String {
        switch self {
        case .fileNotFound(let path): "\(path): no such font file"
        case .defaultFontMissing(let path, let package):
            "\(path): the default font is missing (install \(package), or give a font file with --font)"
        case .invalidPixelSize(let size): "text size \(size) px: must be between 1 and \(TextRasterizer.maximumPixelSize)"
        case .freeType(let function, _, let message, let path):
            (path.map { "\($0): " } ?? "") + "\(function) failed: \(message)"
        }
    }
}
