import Foundation

/// The `ffmpeg` command-line tool that tests make their media with, shared so that a test target linking no
/// FFmpeg library (AdSideTests) makes media the same way as the stitcher's tests.
public enum FFmpegCommandLine {
    /// A failed run: the arguments and what ffmpeg printed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public static let path = "/usr/bin/ffmpeg"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `ffmpeg -hide_banner -v error -y ARGUMENTS` and returns its standard output; a failure throws with its
    /// messages.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> Data {
        let ran = try ChildProcess.run(path, ["-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments)
        guard ran.status == 0 else { throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(ran.errors)") }
        return ran.standardOutput
    }

    /// Runs `ffprobe -v error ARGUMENTS` and returns what it printed on its standard output; a failure throws with
    /// its messages.
    public static func probe(_ arguments: [String]) throws -> String {
        let ran = try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error"] + arguments)
        guard ran.status == 0 else { throw Failure(description: "ffprobe \(arguments.joined(separator: " ")): \(ran.errors)") }
        return ran.output
    }
}
