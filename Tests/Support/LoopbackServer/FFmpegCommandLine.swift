import Foundation

/// The `ffmpeg` command-line tool that tests make their media with, shared so that a test target linking no
/// FFmpeg library (AdCoreTests) makes media the same way as the stitcher's tests.
public enum FFmpegCommandLine {
    /// A failed run: the arguments and what ffmpeg printed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static let path = "/usr/bin/ffmpeg"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `ffmpeg -v error -y ARGUMENTS`; a failure throws with its messages.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments
        let messages = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = messages
        try process.run()
        let text = messages.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(String(decoding: text, as: UTF8.self))")
        }
    }
}
