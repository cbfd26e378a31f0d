import Foundation
import LoopbackServer

/// The `ffmpeg` command-line tool, used to make inputs pipctl cannot make itself (audio-only files, empty video
/// tracks) and as the independent reader of what pipctl wrote. `scripts/setup --for-tests` installs it; tests that
/// need it are disabled without it.
enum FFmpegCommand {
    typealias Failure = FFmpegCommandLine.Failure
    static let path = "/usr/bin/ffmpeg"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `ffmpeg -hide_banner -v error -y ARGUMENTS` and returns its standard output; throws with its standard
    /// error when it fails.
    @discardableResult
    static func run(_ arguments: [String]) throws -> Data { try FFmpegCommandLine.run(arguments) }

    /// An AAC file with a sine tone and no video.
    static func makeAudioOnly(_ path: String, seconds: Int = 1) throws {
        try run(["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:a", "aac", path])
    }

    /// A Matroska file with a video track that holds no frame, the video's parameters copied from `clip`; its
    /// audio track keeps the file valid (MP4 would drop an empty track altogether).
    static func makeVideoWithoutFrames(_ path: String, from clip: String) throws {
        try run(["-f", "lavfi", "-i", "sine=duration=1", "-i", clip, "-map", "0:a", "-map", "1:v", "-c:a", "aac",
                 "-c:v", "copy", "-frames:v", "0", path])
    }

    /// ffmpeg's own `framemd5` of the first video stream of `file`, without the `#software` line that names
    /// ffmpeg's build.
    static func frameMD5(_ file: String) throws -> [String] {
        let text = String(decoding: try run(["-i", file, "-map", "0:v:0", "-f", "framemd5", "-"]), as: UTF8.self)
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#software") }
    }
}
