import AdInsertion
import AdPlayback
import Foundation
import MediaCore
import Synchronization

/// Reads `pipctl play`'s commands from standard input, one per line, on a thread of its own, and hands them to
/// the session's inbox; the session applies each at its next frame.
///
/// Lines are the `--script` commands without a time (`pip`, `pip on`, `pip off`, `seek T`, `pause`, `resume`,
/// `skip`, `click`, `quit`) plus `status`. Anything else gets a one-line help and the session goes on. The help is not
/// written from the reading thread but queued for the display, which prints it between frames, off the status
/// line. At the end of the input the inbox is closed: a session waiting for a command that can no longer come ends.
final class CommandReader: Sendable {
    static let help = "commands: pip | pip on | pip off | seek T | pause | resume | skip | click | status | quit"

    private let inbox: CommandInbox
    private let statusRequests = Atomic<Int>(0)
    private let notices = LockedState<[String]>([])

    init(inbox: CommandInbox) {
        self.inbox = inbox
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

    /// The messages for the user (help, refused lines) queued since the last call, oldest first.
    func takeNotices() -> [String] {
        notices.withLock { queued in
            defer { queued = [] }
            return queued
        }
    }

    func handle(_ line: String) {
        let text = line.trimmingCharacters(in: .whitespaces)
        switch text.lowercased() {
        case "": return
        case "status": statusRequests.add(1, ordering: .relaxed)
        case "help", "?": notify(CommandReader.help)
        default:
            switch Result(catching: { () throws(ScriptError) in try SessionCommand(parsing: text) }) {
            case .success(let command): inbox.submit(command)
            case .failure(.unknownCommand): notify("unknown command '\(text)'; \(CommandReader.help)")
            case .failure(let error): notify("ignored '\(text)': \(error)")
            }
        }
    }

    private func notify(_ message: String) {
        notices.withLock { $0.append(message) }
    }
}
