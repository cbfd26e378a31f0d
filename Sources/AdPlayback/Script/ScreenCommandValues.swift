/// The values a screen command carries that are no geometry: the script language names them; the screen model
/// (AdScreen) knows what they do.

/// Which way up a device is held: portrait is taller than wide, landscape wider than tall.
public enum Orientation: String, Hashable, Sendable, CaseIterable, Codable {
    case portrait, landscape
}

/// The leading scene's share of a Split View, as the `split` command writes it.
public enum SplitFraction: String, Hashable, Sendable, CaseIterable, Codable {
    case half = "1/2"
    case twoThirds = "2/3"
    case oneThird = "1/3"
}
