#if canImport(Glibc)
import AdPlayback
import Foundation
import Glibc
import MediaCore
import Rendering
import Synchronization
#endif

/// Reads `pipctl play`'s commands from standard input, one per line, on a thread of its own, and hands them to
/// the session's inbox; the session applies each at its next frame.
///
/// Lines are the `--script` commands without a time (`pip`, `pip on`, `pip off`, `seek T`, `pause`, `resume`,
/// `skip`, `click`, `quit`) plus `status`. Anything else gets a one-line help and the session goes on. The help is not
/// written from the reading thread but queued for the display, which prints it between frames, off the status
/// line. At the end of the input the inbox is closed: a session waiting for a command that can no longer come ends.
///
/// Lines are read in chunks and split by `LineSplitter`, so a line is held only up to its limit and a long input
/// costs work in proportion to its length. With `editing` (standard input is a terminal that `TerminalInput` took
/// over), the line being typed is edited here and shown by the display (`typed`). With `step` (`play --step`),
/// `advance T` moves the session's clock on by T seconds, and waits until the session has played to it
/// (`PlayStep`), and the end of the input hands the clock to real time.
final class CommandReader: Sendable {
    static let help = "commands: pip | pip on | pip off | seek T | pause | resume | skip | click | status | quit"
    static let stepHelp = help + " | advance T"

    private let inbox: CommandInbox
    private let editing: Bool
    private let step: PlayStep?
    private let statusRequests = Atomic<Int>(0)
    private let notices = LockedState<[String]>([])
    private let pending = LockedState<String>("")

    init(inbox: CommandInbox, editing: Bool = false, step: PlayStep? = nil) {
        self.inbox = inbox
        self.editing = editing
        self.step = step
    }

    private var help: String { step == nil ? Self.help : Self.stepHelp }

    /// Starts reading standard input.
    func start() {
        let thread = Thread { [self] in
            read(descriptor: STDIN_FILENO)
            inbox.close()
            step?.inputEnded()
        }
        thread.start()
    }

    /// Reads `descriptor` to its end, handling each line.
    func read(descriptor: Int32) {
        var splitter = LineSplitter(editing: editing)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        reading: while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            for output in splitter.take(buffer[0..<n]) {
                if output == .end { break reading }
                take(output)
            }
            if editing { pending.withLock { $0 = splitter.typed } }
        }
        if let last = splitter.finish() { take(last) }
        if editing { pending.withLock { $0 = "" } }
    }

    /// The line being typed (editing), for the display; empty otherwise.
    var typed: String { pending.withLock { $0 } }

    private func take(_ output: LineSplitter.Output) {
        switch output {
        case .line(let line): handle(line)
        case .tooLong: notify("ignored a line longer than \(LineSplitter.maximumLineBytes) bytes; \(help)")
        case .end: break
        }
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
        case "help", "?": notify(help)
        case let advance where advance.hasPrefix("advance"):
            self.advance(String(text.dropFirst("advance".count)))
        default:
            switch Result(catching: { () throws(ScriptError) in try SessionCommand(parsing: text) }) {
            case .success(let command): inbox.submit(command)
            case .failure(.unknownCommand): notify("unknown command '\(text)'; \(help)")
            case .failure(let error): notify("ignored '\(text)': \(error)")
            }
        }
    }

    /// `advance T` (`play --step`): T in seconds or as a clock (`2.5`, `0:01:30`), more than zero.
    private func advance(_ argument: String) {
        guard let step else { return notify("'advance' needs --step: without it the session plays on the wall clock") }
        guard let time = MediaTime(parsing: argument), time.seconds > .zero else {
            return notify("ignored 'advance\(argument)': advance takes a time in seconds, more than 0 (advance 2.5)")
        }
        step.advance(by: MediaDuration(seconds: time.seconds))
    }

    private func notify(_ message: String) {
        notices.withLock { $0.append(message) }
    }
}
