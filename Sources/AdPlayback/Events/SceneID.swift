/// The name of a scene (a window of the app), as the session file and the script commands write it.
public struct SceneID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { rawValue }

    /// Not a scene: the screen as a whole, for what lies between scenes (the Split View divider's timeline layer).
    /// Empty, which no scene's id can be.
    public static let screen = SceneID("")
    public static func < (a: SceneID, b: SceneID) -> Bool { a.rawValue < b.rawValue }
}

/// A scene's id is written as its string (a timeline's `scenes[].id` and `layers[].scene`).
extension SceneID: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
