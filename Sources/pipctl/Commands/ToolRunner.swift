import Foundation
import MediaCore

/// Runs a command line against a command tree and turns the outcome into output and an exit status:
/// 0 success (and help, version), 1 runtime failure, 2 usage error, 128 + N when stopped by signal N.
struct ToolRunner: Sendable {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2

    let root: CommandNode
    let output: any TextSink
    let errorOutput: any TextSink
    let environment: [String: String]
    /// Caught for commands that ask for it; a fresh flag (never set by a signal) otherwise.
    let makeInterruptFlag: @Sendable () -> InterruptFlag

    init(root: CommandNode, output: any TextSink, errorOutput: any TextSink, environment: [String: String],
         makeInterruptFlag: @escaping @Sendable () -> InterruptFlag = { InterruptFlag() }) {
        self.root = root
        self.output = output
        self.errorOutput = errorOutput
        self.environment = environment
        self.makeInterruptFlag = makeInterruptFlag
    }

    /// Runs `arguments` (without the program name) and returns the exit status.
    func run(_ arguments: [String]) async -> Int32 {
        let rootName = root.definition.name
        let request: CommandNode.Request
        do {
            request = try root.resolve(arguments, command: rootName)
        } catch {
            errorOutput.write("\(oneLine(error.description))\n\(error.hint)\n")
            return Self.usage
        }
        switch request {
        case .help(let node, let command):
            output.write(HelpFormatter().help(command: command, definition: node.definition,
                                              subcommands: node.subcommands.map(\.definition),
                                              hasVersion: node.version != nil))
            return Self.success
        case .version(let version):
            output.write("\(rootName) \(version)\n")
            return Self.success
        case .run(let node, let parsed, let command):
            return await execute(node, parsed, command: command)
        }
    }

    private func execute(_ node: CommandNode, _ parsed: ParsedArguments, command: String) async -> Int32 {
        guard let action = node.action else { return Self.usage }
        let interrupt = makeInterruptFlag()
        if node.catchesInterrupts { interrupt.catchSignals() }
        defer { interrupt.stopCatching() }
        let context = CommandContext(command: command, output: output, errorOutput: errorOutput,
                                     environment: environment, interrupt: interrupt)
        do {
            try await action(parsed, context)
            return Self.success
        } catch let error as UsageError {
            errorOutput.write("\(oneLine(error.description))\n\(error.hint)\n")
            return Self.usage
        } catch let error as Interrupted {
            return stopped(error, command: command)
        } catch {
            // A failure after a signal (a write that SIGXFSZ or SIGPIPE made fail) is that signal's doing.
            if let signal = interrupt.signal { return stopped(Interrupted(signal: signal), command: command) }
            errorOutput.write("\(command): \(oneLine(String(describing: error)))\n")
            return (error as? CommandFailure)?.exitStatus ?? Self.failure
        }
    }

    /// Reports a command stopped by a signal. The temporary files something still holds are the process's to remove
    /// (`Pipctl.main`), not the runner's: in a process that runs other work beside it (the tests run hundreds at
    /// once), `AtomicFile.removeAllPending()` would take their files from under them too.
    private func stopped(_ error: Interrupted, command: String) -> Int32 {
        errorOutput.write("\(command): \(error)\n")
        return error.exitStatus
    }

    /// Keeps a message on one line, whatever the error's description contains.
    private func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
