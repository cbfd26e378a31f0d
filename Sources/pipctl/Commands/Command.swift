/// One runnable pipctl command: its definition (name, help, parameters), the typed options those parameters
/// parse into, and what it does with them.
protocol Command: SendableMetatype {
    associatedtype Options: CommandOptions

    static var definition: CommandDefinition { get }

    /// Whether SIGINT and SIGTERM set `context.interrupt` instead of ending the process at once. Commands that
    /// write files over a long time say yes and poll the flag, so that they can remove what they half-wrote.
    static var catchesInterrupts: Bool { get }

    /// Does the work; a thrown error is reported as `pipctl <command>: <error>` with exit status 1.
    static func run(_ options: Options, context: CommandContext) async throws
}

extension Command {
    static var catchesInterrupts: Bool { false }
}

/// The typed options of a command, read from its parsed arguments.
protocol CommandOptions: Sendable {
    /// Reads each parameter; throws for combinations that single parameters cannot refuse on their own.
    init(_ arguments: ParsedArguments) throws(UsageError)
}

/// A runtime failure of a command that has no more specific error type.
struct CommandFailure: Error, Hashable, Sendable, CustomStringConvertible {
    let message: String
    /// The process's exit status: 1, or another documented one (`verify --sources` exits 3 for "not verifiable").
    let exitStatus: Int32

    init(_ message: String, exitStatus: Int32 = 1) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// The failure of a command whose body is not connected to the libraries yet.
    static func notWired(_ command: String) -> CommandFailure {
        CommandFailure("not wired yet: this build parses the options of '\(command)' but cannot run it")
    }

    var description: String { message }
}
