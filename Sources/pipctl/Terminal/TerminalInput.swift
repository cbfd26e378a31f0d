#if canImport(Glibc)
import Glibc
#endif
import MediaCore

/// `play`'s standard input when a person types at the terminal that also shows the status line: while play runs
/// the terminal neither echoes nor collects lines itself (no `ECHO`, no `ICANON`; Ctrl-C still signals), so that
/// `play` shows what is being typed at the end of its status line instead of the terminal echoing it onto the
/// status line, where the next redraw would erase it. `restore()` puts the terminal back as it was.
final class TerminalInput: Sendable {
    private let saved: LockedState<termios?>

    private init(saved: termios) {
        self.saved = LockedState(saved)
    }

    /// Takes over standard input when it is a terminal, unless play runs in the background of the terminal it
    /// controls (changing that terminal would stop the process); `nil` otherwise, and the terminal is left as it is.
    static func begin() -> TerminalInput? {
        guard Terminal.isTerminal(STDIN_FILENO) else { return nil }
        // -1: not this process's controlling terminal, which no job control stops it from changing.
        let foreground = tcgetpgrp(STDIN_FILENO)
        guard foreground == -1 || foreground == getpgrp() else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        return TerminalInput(saved: original)
    }

    /// Puts the terminal back as it was; only the first call does anything.
    func restore() {
        guard var original = saved.withLock({ state -> termios? in
            defer { state = nil }
            return state
        }) else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }

    deinit { restore() }
}

/// Splits standard input into lines, bounded: a line longer than `maximumLineBytes` is dropped (reported once per
/// line) rather than held. With `editing` (a terminal without its own line editing, `TerminalInput`), it also edits
/// the line being typed as a terminal would: Backspace, Ctrl-U (erase the line), Ctrl-D on an empty line (the end
/// of the input); escape sequences (arrow keys) and other control characters are ignored.
struct LineSplitter {
    /// The longest line kept: far longer than any command.
    static let maximumLineBytes = 4096

    enum Output: Equatable {
        case line(String)
        /// A line that was longer than the limit, dropped.
        case tooLong
        /// Ctrl-D on an empty line (editing only).
        case end
    }

    let editing: Bool
    private(set) var pending: [UInt8] = []
    private var overflowed = false
    private var escape: EscapeState = .none

    private enum EscapeState { case none, started, sequence }

    init(editing: Bool) {
        self.editing = editing
    }

    /// The line typed so far (editing), as text.
    var typed: String { String(decoding: pending, as: UTF8.self) }

    /// Takes `bytes`; returns what they complete, in order.
    mutating func take(_ bytes: some Sequence<UInt8>) -> [Output] {
        var outputs: [Output] = []
        for byte in bytes {
            if let output = take(byte) { outputs.append(output) }
            if outputs.last == .end { break }
        }
        return outputs
    }

    private mutating func take(_ byte: UInt8) -> Output? {
        if byte == UInt8(ascii: "\n") || (editing && byte == UInt8(ascii: "\r")) {
            // A line ended by CR LF, as `readLine` reads it.
            if !editing, pending.last == UInt8(ascii: "\r") { pending.removeLast() }
            defer {
                pending = []
                overflowed = false
            }
            return overflowed ? .tooLong : .line(typed)
        }
        if editing {
            switch escape {
            case .started:
                escape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .none
                return nil
            case .sequence:
                if (0x40...0x7E).contains(byte) { escape = .none }
                return nil
            case .none: break
            }
            switch byte {
            case 0x1B: escape = .started; return nil
            case 0x7F, 0x08:
                // One character back: its continuation bytes, then its first byte.
                while let last = pending.last, last & 0xC0 == 0x80 { pending.removeLast() }
                if !pending.isEmpty { pending.removeLast() }
                return nil
            case 0x15:
                pending = []
                overflowed = false
                return nil
            case 0x04:
                return pending.isEmpty && !overflowed ? .end : nil
            case 0x00..<0x20 where byte != UInt8(ascii: "\t"): return nil
            default: break
            }
        }
        if overflowed { return nil }
        if pending.count >= Self.maximumLineBytes {
            overflowed = true
            pending = []
            return nil
        }
        pending.append(byte)
        return nil
    }

    /// What is left when the input ends: the last line if it had no newline.
    mutating func finish() -> Output? {
        defer { pending = [] }
        if overflowed { return .tooLong }
        return pending.isEmpty ? nil : .line(typed)
    }
}
