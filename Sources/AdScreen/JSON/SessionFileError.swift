import MediaCore

/// Why a session file cannot be used: one line naming the file and the JSON path of the value
/// (`session.json: scenes[1].banner.source: …`).
public struct SessionFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    /// The JSON path of the value (`scenes[1].banner.source`); empty for the whole document.
    public let path: String
    public let message: String

    public init(file: String, path: String, _ message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? "\(file.excerpt): \(message)" : "\(file.excerpt): \(path.excerpt): \(message)" }
}
