import MediaCore

/// A session configuration that cannot be played.
public enum SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The content has no frames (`contentFrameCount` ≤ 0).
    case emptyContent(frameCount: Int64)
    /// The start position is at or after the content's end.
    case startOutsideContent(start: MediaTime, contentDuration: MediaDuration)
    /// The content aspect is not positive.
    case invalidContentAspect(Rational)

    public var description: String {
        switch self {
        case .emptyContent(let count): "the content has no frames (\(count))"
        case .startOutsideContent(let start, let duration):
            "start position \(start) is not inside the content (\(duration) long)"
        case .invalidContentAspect(let aspect): "content aspect \(aspect) is not positive"
        }
    }
}
