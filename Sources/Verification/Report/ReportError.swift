import VideoPipeline

/// Why `pipctl report` could not make a report.
public enum ReportError: Error, CustomStringConvertible {
    /// A file the report reads is missing, too large or not what it should be (a timeline that is not JSON, a
    /// value out of bounds, a malformed event line): the user's input, named with its file and JSON path or line.
    case input(path: String, reason: String)
    /// The render's media could not be decoded or measured, or a picture could not be encoded.
    case media(MediaError)

    /// The user stopped the report (SIGINT, SIGTERM): what the media steps throw too.
    static var interrupted: ReportError { .media(.interrupted) }

    public var description: String {
        switch self {
        case .input(let path, let reason): "\(path): \(reason)"
        case .media(let error): "\(error)"
        }
    }
}
