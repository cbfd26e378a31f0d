import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LoopbackServer
import MediaCore

/// A virtual X display (Debian's `Xvfb`) for the tests of `play --show`, started on a free display number that
/// Xvfb itself picks and tells (`-displayfd`): the test waits for that line, not for a time. Stopped by `stop()`.
final class VirtualDisplay: @unchecked Sendable {
    static let xvfb = "/usr/bin/Xvfb"
    static let xdotool = "/usr/bin/xdotool"
    static let xwd = "/usr/bin/xwd"
    /// Whether Xvfb, xdotool and xwd are installed (`scripts/setup --for-tests`).
    static var isAvailable: Bool { [xvfb, xdotool, xwd].allSatisfy(FileManager.default.isExecutableFile(atPath:)) }

    private let process = Process()
    /// `:N`, for `DISPLAY`.
    let name: String

    /// Starts a screen of `width`×`height` at 24 bits.
    init(width: Int = 2000, height: Int = 2000) throws {
        process.executableURL = URL(fileURLWithPath: Self.xvfb)
        // Xvfb writes the display number it took to file descriptor 1 once it accepts connections.
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let number = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, Int(number) != nil else {
            process.terminate()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "Xvfb did not tell its display: \(number)"])
        }
        name = ":" + number
    }

    /// Kills the server (SIGKILL: a child started from a test's thread inherits its blocked signals, SIGTERM among
    /// them, so Xvfb would not see a SIGTERM) and waits for it.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs `tool arguments…` on this display to its end; returns its standard output, throws when it fails.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let ran = try ChildProcess.run(tool, arguments, environment: ProcessInfo.processInfo.environment.merging(["DISPLAY": name]) { $1 })
        guard ran.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [
                NSLocalizedDescriptionKey: "\(tool) \(arguments.joined(separator: " ")) exited \(ran.status): \(ran.errors)",
            ])
        }
        return ran.standardOutput
    }

    /// `xdotool ARGUMENTS…`, its output as text.
    @discardableResult
    func xdotool(_ arguments: String...) throws -> String {
        String(decoding: try run(Self.xdotool, arguments), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The window `window`'s picture as RGB (`xwd`, converted by the ffmpeg tool), and its size.
    func screenshot(window: String, into path: String) throws -> RGBPicture {
        try run(Self.xwd, ["-id", window, "-silent", "-out", path])
        let geometry = try xdotool("getwindowgeometry", "--shell", window)
        var values: [String: Int] = [:]
        for line in geometry.split(separator: "\n") {
            let pair = line.split(separator: "=")
            if pair.count == 2, let value = Int(pair[1]) { values[String(pair[0])] = value }
        }
        let size = PixelSize(width: values["WIDTH"] ?? 0, height: values["HEIGHT"] ?? 0)
        return try RGBPicture(file: path, size: size, frame: 0)
    }
}
