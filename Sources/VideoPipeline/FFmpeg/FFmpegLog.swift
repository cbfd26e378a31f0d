import CFFmpeg
import Synchronization

/// How much FFmpeg's own logging says on standard error.
///
/// pipctl reports every failure itself in one line, so FFmpeg's chatter (x264's statistics, demuxer notes) is
/// not wanted by default: unless `set(_:)` chose a level, VideoPipeline lowers it to errors only the first time
/// it touches FFmpeg. Turn it up to diagnose a file.
public enum FFmpegLog: Sendable {
    case quiet, errors, warnings, verbose

    private static let chosen = Atomic<Bool>(false)

    /// Sets the level for the whole process.
    public static func set(_ level: FFmpegLog) {
        chosen.store(true, ordering: .relaxed)
        let value: Int32 = switch level {
        case .quiet: AV_LOG_QUIET
        case .errors: AV_LOG_ERROR
        case .warnings: AV_LOG_WARNING
        case .verbose: AV_LOG_VERBOSE
        }
        av_log_set_level(value)
    }

    /// Applies the default (errors only) unless a level was chosen; called where VideoPipeline opens FFmpeg objects.
    static func applyDefault() {
        if !chosen.exchange(true, ordering: .relaxed) { av_log_set_level(AV_LOG_ERROR) }
    }
}
