import Foundation

/// A command run to its end by a test, its standard output and error read whole.
public enum ChildProcess {
    public struct Outcome: Sendable {
        public var status: Int32
        /// The standard output's bytes (an image, a stream), and as text.
        public var standardOutput: Data
        public var errors: String
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` (and `environment`, or this process's) and waits for it to end.
    ///
    /// The standard output goes to a file rather than a pipe: with two pipes read one after the other, a child that
    /// fills the second while the first is being drained would wait for ever.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let errors = Pipe()
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = errors
        try process.run()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardOutput: try Data(contentsOf: output),
                       errors: String(decoding: err, as: UTF8.self))
    }
}
