import CFFmpeg

/// How much FFmpeg's own logging says on standard error.
///
/// pipctl reports every failure itself in one line, so FFmpeg's messages are off by default; turn them on to
/// diagnose a file.
public enum FFmpegLog: Sendable {
    case quiet, errors, warnings, verbose

    /// Sets the level for the whole process.
    public static func set(_ level: FFmpegLog) {
        let value: Int32 = switch level {
        case .quiet: AV_LOG_QUIET
        case .errors: AV_LOG_ERROR
        case .warnings: AV_LOG_WARNING
        case .verbose: AV_LOG_VERBOSE
        }
        av_log_set_level(value)
    }
}
