import Foundation

/// Runs a tool to its end and returns what it wrote on standard output, whatever its exit status (the tests read
/// ffprobe's report, or ffmpeg's messages through `sh -c '… 2>&1'`).
func standardOutput(of executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
