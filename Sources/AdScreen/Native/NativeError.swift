import AdDecisioning
import MediaCore

/// Why a native ad or slider could not be read, loaded or laid out: one line naming the document, the JSON path
/// or the placement.
public enum NativeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The response is not what docs/native.schema.json describes; `path` is the JSON path of the value
    /// (`ads[2].assets[0].img.url`), empty for the whole document.
    case invalidResponse(source: String, path: String, message: String)
    /// A card template (session file or template file) is not valid; `path` names the value.
    case invalidTemplate(source: String, path: String, message: String)
    /// Fetching the response failed (unreachable, HTTP error, timed out, too large), with the fetch's own limits.
    case fetch(DecisioningError)
    /// The response is valid and has no ad (an empty `ads`, or an empty body as an HTTP 204 "no bid").
    case noFill(source: String)
    /// A `load` the placement refuses: still loading, or its retries are used up.
    case loadRefused(placement: String, reason: String)
    /// A script's native command names no placement of the screen (or none when the screen has several).
    case unknownPlacement(command: String, reason: String)
    /// Two native placements of one scene are drawn over each other (`placement` declared at `declaredAt`, the
    /// later one); `span` and `otherSpan` are in points below the scene's safe-area top, `time` as `h:mm:ss.mmm`.
    case overlappingPlacements(placement: String, declaredAt: String?, other: String, scene: String, span: Range<Int>,
                               otherSpan: Range<Int>, time: String)

    public var description: String {
        switch self {
        case .invalidResponse(let source, let path, let message), .invalidTemplate(let source, let path, let message):
            path.isEmpty ? "\(source.excerpt): \(message)" : "\(source.excerpt): \(path.excerpt): \(message)"
        // OpenRTB Native, not VAST: the fetch's own message, without a VAST error code.
        case .fetch(let error): "native response: \(error.message)"
        case .noFill(let source): "\(source): no fill (the response has no ad)"
        case .loadRefused(let placement, let reason): "load slider \(placement.excerpt): refused: \(reason)"
        case .unknownPlacement(let command, let reason): "script command \"\(command.excerpt)\": \(reason)"
        case .overlappingPlacements(let placement, let declaredAt, let other, let scene, let span, let otherSpan, let time):
            "\(declaredAt.map { "\($0).top: " } ?? "")native placement \"\(placement.excerpt)\" (\(span.lowerBound) to \(span.upperBound) pt "
                + "below the safe area's top) overlaps \"\(other.excerpt)\" (\(otherSpan.lowerBound) to \(otherSpan.upperBound) pt) in scene "
                + "\"\(scene.excerpt)\" at \(time); give it a top of at least \(otherSpan.upperBound), or another scene"
        }
    }
}
