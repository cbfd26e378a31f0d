import Foundation

/// A parsed ad response: a VAST document (one pre-roll) or a VMAP document (a schedule of breaks).
public enum AdResponse: Hashable, Sendable {
    case vast(VASTDocument)
    case vmap(VMAPDocument)

    /// Parses `data` as VAST or VMAP, whichever its root element is.
    ///
    /// - Parameters:
    ///   - source: the file or URL, for messages.
    ///   - maximumDocumentBytes: larger documents are refused unread.
    /// - Throws: `DecisioningError` — 100 for XML problems (with the line), 101 for another root element, 102 for
    ///   VAST 1.
    public static func parse(_ data: Data, source: String,
                             maximumDocumentBytes: Int = VASTParser.defaultMaximumDocumentBytes) throws(DecisioningError) -> AdResponse {
        let root = try XMLTreeReader(maximumBytes: maximumDocumentBytes).read(data, source: source)
        switch root.key {
        case "vmap": return .vmap(try VMAPParser.document(from: root, source: source))
        case "vast", "videoadservingtemplate": return .vast(try VASTParser.document(from: root, source: source))
        default: throw .unexpectedRoot(source: source, root: root.name, expected: "<VAST> or <VMAP>")
        }
    }
}
