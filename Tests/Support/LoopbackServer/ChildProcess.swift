import Foundation

/// A command run to its end by a test, its standard output and error read whole.
public enum ChildProcess {
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    /// Runs `executable` with `arguments` (and `environment`, or this process's) and waits for it to end.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                       errors: String(decoding: err, as: UTF8.self))
    }
}
