import AdInsertion
import Foundation
import Synchronization

/// Reads `pipctl play`'s commands from standard input, one per line, on a thread of its own, and hands them to
/// the session's inbox; the session applies each at its next frame.
///
/// Lines are the `--script` commands without a time (`pip`, `pip on`, `pip off`, `seek T`, `pause`, `resume`,
/// `skip`, `quit`) plus `status`. Anything else gets a one-line help and the session goes on. At the end of the
/// input the inbox is closed: a session waiting for a command that can no longer come ends.
final class CommandReader: Sendable {
    static let help = "commands: pip | pip on | pip off | seek T | pause | resume | skip | status | quit"

    private let inbox: CommandInbox
    private let errorOutput: any TextSink
    private let statusRequests = Atomic<Int>(0)

    init(inbox: CommandInbox, errorOutput: any TextSink) {
        self.inbox = inbox
        self.errorOutput = errorOutput
    }

    /// Starts reading standard input.
    func start() {
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) { handle(line) }
            inbox.close()
        }
        thread.start()
    }

    /// True once for each `status` line read since the last call.
    func takeStatusRequest() -> Bool {
        statusRequests.exchange(0, ordering: .relaxed) > 0
    }

    func handle(_ line: String) {
        let text = line.trimmingCharacters(in: .whitespaces)
        switch text.lowercased() {
        case "": return
        case "status": statusRequests.add(1, ordering: .relaxed)
        case "help", "?": errorOutput.write(CommandReader.help + "\n")
        default:
            switch Result(catching: { () throws(ScriptError) in try SessionCommand(parsing: text) }) {
            case .success(let command): inbox.submit(command)
            case .failure(.unknownCommand): errorOutput.write("unknown command '\(text)'; \(CommandReader.help)\n")
            case .failure(let error): errorOutput.write("ignored '\(text)': \(error)\n")
            }
        }
    }
}
