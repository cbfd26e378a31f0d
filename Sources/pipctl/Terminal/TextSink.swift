#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes text: standard output or standard error, or a buffer in tests.
///
/// pipctl never uses colour (so `NO_COLOR` is honoured trivially); the only control sequences it writes are the
/// carriage return and clear-to-end-of-line of a progress line, and only to a terminal.
protocol TextSink: Sendable {
    /// Writes `text` as it is (no newline is added).
    func write(_ text: String)
    /// Whether a person is watching: the sink is a terminal.
    var isTerminal: Bool { get }
}

/// A file descriptor of this process, written with `write(2)` unbuffered, so that standard output and standard
/// error interleave in the order they were written.
struct FileDescriptorSink: TextSink {
    let descriptor: Int32

    static let standardOutput = FileDescriptorSink(descriptor: STDOUT_FILENO)
    static let standardError = FileDescriptorSink(descriptor: STDERR_FILENO)

    var isTerminal: Bool { Terminal.isTerminal(descriptor) }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                // A closed pipe (`pipctl … | head`) or a full disk: nothing useful can be done with the rest.
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

/// Facts about the terminal pipctl runs in.
enum Terminal {
    /// Whether `descriptor` is a terminal (`isatty`).
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether the terminal understands `ESC [ K` (clear to end of line): any terminal but `TERM=dumb`.
    static func supportsControlSequences(environment: [String: String]) -> Bool {
        environment["TERM"] != "dumb"
    }
}
