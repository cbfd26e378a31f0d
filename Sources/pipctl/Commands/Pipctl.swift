import Foundation
import MediaCore
import VideoPipeline

/// The pipctl tool: its command tree and its entry point.
enum Pipctl {
    static let version = "0.1.0"

    static let ads = CommandDefinition(
        name: "ads",
        abstract: "Work with ad responses (VMAP, VAST) without rendering.",
        discussion: "Commands that load and explain ad responses, for checking an ad tag before a render.")

    static let definition = CommandDefinition(
        name: "pipctl",
        abstract: "Headless video ad insertion with picture-in-picture.",
        discussion: "pipctl renders ad-stitched MP4s the way the Google IMA SDK would play them on a device, "
            + "picture-in-picture included, and checks their timing frame by frame. It reads VAST 2-4 and VMAP "
            + "1.0 and writes H.264/AAC MP4. Exit status: 0 on success, 1 when the work fails, 2 for a wrong "
            + "command line, 3 when 'verify --sources' finds nothing it can tell apart, 128+N when stopped by signal N "
            + "(130 for Ctrl-C).")

    static let tree = CommandNode.group(definition, version: version, subcommands: [
        .command(TestsrcCommand.self),
        .command(ProbeCommand.self),
        .command(TranscodeCommand.self),
        .command(StampsCommand.self),
        .group(ads, subcommands: [.command(AdsInspectCommand.self)]),
        .command(RenderCommand.self),
        .command(VerifyCommand.self),
        .command(ReportCommand.self),
        .command(PlayCommand.self),
        .command(ServeCommand.self),
        .command(BatchCommand.self, subcommands: [.command(BatchMergeCommand.self)]),
    ])

    /// Runs the process's command line on the standard streams and returns the exit status.
    static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Int32 {
        // pipctl reports every failure itself in one line; FFmpeg's own log is for diagnosing a file.
        let environment = ProcessInfo.processInfo.environment
        let level: FFmpegLog = switch environment["PIPCTL_FFMPEG_LOG"] {
        case "error": .errors
        case "warning": .warnings
        case "verbose": .verbose
        default: .quiet
        }
        FFmpegLog.set(level)
        ParentWatch.install(environment: environment)
        let runner = ToolRunner(root: tree, output: FileDescriptorSink.standardOutput,
                                errorOutput: FileDescriptorSink.standardError,
                                environment: ProcessInfo.processInfo.environment)
        let status = await runner.run(arguments)
        // Stopped by a signal: the process is about to exit, so every temporary file it still has is removed now.
        if status > 128 { AtomicFile.removeAllPending() }
        return status
    }
}
