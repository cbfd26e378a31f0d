import AdPlayback
import MediaCore

/// The most a session file may ask for, so that a file of a few bytes cannot make a render take hours or
/// gigabytes (issue 22: 100 players took 925 MB). Each is checked where the value is read, and the error names the
/// file, the JSON path and the limit (docs/SESSION.md, docs/SECURITY.md).
public enum SessionFileLimits {
    /// The size of the file, checked before it is read whole.
    public static let maximumFileBytes = 4 << 20
    public static let maximumScenes = 16
    /// Each player decodes its own content for the whole render.
    public static let maximumPlayers = 16
    /// Commands in `script` (after comments and blank ones are left out): a script's own limit.
    public static let maximumCommands = SessionScript.maximumCommands
    /// Native placements over all scenes.
    public static let maximumNativePlacements = 16
    /// The longest side of a custom device (`WxH[@scale]`), in points.
    public static let maximumDeviceSide = 10_000
    /// A custom device's `@scale` and the session's `pointScale`: from 1/16 to 16, with a denominator of at most
    /// 1000 (three decimals), so that every point edge converts to pixels in 64 bits.
    public static let scales = Rational(1, 16)...Rational(16)
    public static let maximumScaleDenominator: Int64 = 1000
    /// The canvas (every display the session can show, in both orientations when it rotates) in output pixels:
    /// the output's own limit (`OutputFormat`: 16x16 to 8192x8192).
    public static let canvasSides = 16...8192
}
