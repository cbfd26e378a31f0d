/// Where a player's ads come from: a VMAP or VAST document, or quick breaks of local media files without VAST.
public enum AdSource: Hashable, Sendable {
    /// A VMAP or VAST document: a path, or an `http(s)` or `file` URL (an `AdsRequest` ad tag).
    case document(String)
    /// Breaks given as `--break` values, in the order given; their files are relative to the current directory.
    case breaks([QuickBreak])
}
