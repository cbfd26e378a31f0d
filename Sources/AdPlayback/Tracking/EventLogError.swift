/// A failure writing or reading an event log, naming the file and what went wrong.
public enum EventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The log cannot be started at its destination (no such directory, the destination is a directory).
    case cannotCreate(path: String, reason: String)
    /// Writing the temporary file or renaming it into place failed (no permission, disk full, I/O error).
    case cannotWrite(path: String, reason: String)
    /// A field has a value that JSON cannot carry, such as a NaN or infinite time.
    case unencodable(field: String, reason: String)
    /// The log was already finished or discarded; nothing more can be written.
    case closed(path: String)
    /// The log file could not be read.
    case cannotRead(path: String, reason: String)
    /// A line of the log is not a valid event (lines count from 1).
    case malformedLine(path: String, line: Int, reason: String)
    /// The log passes a limit of `EventLogReader.Limits` (its bytes, its lines, one line's bytes), found while it
    /// was read, before the rest was.
    case tooLarge(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .unencodable(let field, let reason): "cannot write event field \(field): \(reason)"
        case .closed(let path): "the event log \(path) is already finished or discarded"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .malformedLine(let path, let line, let reason): "\(path), line \(line): \(reason)"
        case .tooLarge(let path, let reason): "\(path): \(reason)"
        }
    }
}
