import Foundation

/// Runs the `ffmpeg`/`ffprobe` command-line tools, the independent peer that tests check our output against.
enum FFmpegTool {
    static let ffmpegPath = "/usr/bin/ffmpeg"
    static let ffprobePath = "/usr/bin/ffprobe"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: ffmpegPath) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool and returns its standard output; a non-zero exit throws with its standard error.
    @discardableResult
    static func run(_ tool: String = ffmpegPath, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the tool runs so that neither fills up.
        let group = DispatchGroup()
        nonisolated(unsafe) var stdout = Data(), stderr = Data()
        group.enter()
        DispatchQueue.global().async { stdout = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { stderr = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")): \(String(decoding: stderr, as: UTF8.self))")
        }
        return stdout
    }

    /// `ffmpeg -v error -y ARGS`
    static func ffmpeg(_ arguments: String...) throws {
        try run(ffmpegPath, ["-hide_banner", "-v", "error", "-y"] + arguments)
    }

    /// A synthetic clip from FFmpeg's own `testsrc2` and `sine` sources.
    static func makeClip(_ path: String, size: String = "320x240", rate: String = "25", seconds: Double = 2,
                         sampleRate: Int = 44100, channels: Int = 1, tone: Int = 440, video: Bool = true,
                         audio: Bool = true, extra: [String] = []) throws {
        var args = ["-hide_banner", "-v", "error", "-y"]
        if video { args += ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"] }
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=\(sampleRate):duration=\(seconds)"] }
        if audio { args += ["-ac", String(channels)] }
        if video { args += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"] }
        if audio { args += ["-c:a", "aac"] }
        try run(ffmpegPath, args + extra + [path])
    }

    /// ffmpeg's `framemd5` of a file's first video stream, header lines that vary by build removed.
    static func frameMD5(_ path: String) throws -> String {
        let text = String(decoding: try run(ffmpegPath, ["-hide_banner", "-v", "error", "-i", path, "-map", "0:v:0", "-fflags", "+bitexact",
                                             "-f", "framemd5", "-"]), as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#software") }.joined(separator: "\n") + "\n"
    }

    /// The number of audio samples per channel in a file's first audio stream, decoded by ffmpeg.
    static func decodedSampleCount(_ path: String, channels: Int) throws -> Int {
        try run(ffmpegPath, ["-hide_banner", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "s16le", "-acodec", "pcm_s16le", "-"]).count / (2 * channels)
    }
}
