import MediaCore

/// How a session's ads reach its viewer (docs/SERVE.md, "Guided mode").
public enum ServeMode: String, Sendable, CaseIterable, Codable {
    /// The server cuts each break into the session's own playlists at its exact frame (the default).
    case stitched
    /// The playlists are the content's, the same for every viewer, with each break an HLS interstitial whose asset
    /// list the player asks for; the server decides it for the viewer then.
    case guided

    /// The mode named `text`, or a one-line error naming `place` (`$.mode`, `the query's mode`).
    static func parsed(_ text: String, at place: String) -> Result<ServeMode, SessionRequestError> {
        guard let mode = ServeMode(rawValue: text) else {
            return .failure(SessionRequestError("\(place): \"\(text.excerpt)\" is not a mode (\(allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        return .success(mode)
    }
}
