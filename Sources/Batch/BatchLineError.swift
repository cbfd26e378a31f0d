/// Why one line of a manifest is not a job: `line 3: options.fps: expected a string, a number or a boolean, not an
/// object`. The other lines still run.
public struct BatchLineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    /// The job's id when the line had a readable one.
    public var id: String?
    /// The JSON path of the wrong field (`options.fps`), or nil for the line as a whole.
    public var path: String?
    public var message: String

    public init(line: Int, id: String? = nil, path: String? = nil, message: String) {
        self.line = line
        self.id = id
        self.path = path
        self.message = message
    }

    public var description: String { "line \(line): " + (path.map { "\($0): " } ?? "") + message }
}
