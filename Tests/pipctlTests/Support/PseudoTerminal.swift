import Foundation
#if canImport(Glibc)
import Glibc
import MediaCore
#endif

/// Runs the built `pipctl` on a pseudo-terminal, as a person at a terminal would: its standard input, output and
/// error are the terminal, so it draws its status line and prints events for people.
///
/// What pipctl writes arrives as the terminal shows it: the line discipline turns `\n` into `\r\n` and echoes
/// what the test types. With `inputThroughPipe`, standard input is a pipe instead (commands piped in while a
/// person watches): nothing is echoed.
final class PseudoTerminal: Sendable {
    private let master: Int32
    private let process: Process
    private let inputPipe: FileHandle?
    private let screen = LockedState((text: Data(), closed: false))

    /// Opens a terminal pair and starts `pipctl arguments…` on the slave side.
    init(_ arguments: [String], inputThroughPipe: Bool = false, directory: URL? = nil) throws {
        let pty = try PseudoTerminalFunctions()
        let master = pty.posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0, let name = pty.ptsname(master) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open a pseudo-terminal: errno \(errno)"])
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open \(String(cString: name)): errno \(errno)"])
        }
        self.master = master
        process = Process()
        process.executableURL = try PipctlProcess.executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm"]) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        let pipe = inputThroughPipe ? Pipe() : nil
        // Writing to the pipe of a child that has gone must fail, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        inputPipe = pipe?.fileHandleForWriting
        process.standardInput = pipe ?? terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        // Only the child holds the slave now, so reading the master ends (EIO) when the child has gone.
        close(slave)
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(master, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                screen.withLock { $0.text.append(contentsOf: buffer[0..<n]) }
            }
            screen.withLock { $0.closed = true }
        }
    }

    deinit { close(master) }

    /// Everything the terminal has shown so far, control sequences included.
    var shown: String { String(decoding: screen.withLock { $0.text }, as: UTF8.self) }

    /// Types `text` at the terminal (or writes it to the input pipe).
    func type(_ text: String) {
        if let inputPipe {
            try? inputPipe.write(contentsOf: Data(text.utf8))
            return
        }
        var bytes = Array(text.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Ends the input: closes the pipe, or types Ctrl-D on an empty line at the terminal.
    func endInput() {
        if let inputPipe { try? inputPipe.close() } else { type("\u{04}") }
    }

    /// `play --step` at this terminal: types `advance` `step` ms at a time until the terminal shows `text`, each
    /// waited for (`stepped to …`); `milliseconds` is where the session's clock stands.
    func advance(untilShown text: String, clock milliseconds: inout Int64, step: Int64 = 100) async throws {
        while !shown.contains(text) {
            milliseconds += step
            type("advance \(SteppedPlay.seconds(step))\n")
            // A bound against a hang only.
            try await waitUntilShown("stepped to \(SteppedPlay.clock(milliseconds))", timeout: .seconds(300))
        }
    }

    /// Waits until the terminal shows `text`; throws after `timeout` or when pipctl ended without showing it.
    func waitUntilShown(_ text: String, timeout: Duration = .seconds(30)) async throws {
        try await waitUntil("the terminal shows \(text) (it shows \(shown.debugDescription))", timeout: timeout) {
            if shown.contains(text) { return true }
            if screen.withLock({ $0.closed }) {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "pipctl ended without showing \(text): \(shown.debugDescription)"])
            }
            return false
        }
    }

    /// Waits for pipctl to end (killing it after `timeout`) and for the terminal to be read to its end; returns the
    /// exit status.
    func exitStatus(timeout: Duration = .seconds(60)) async throws -> Int32 {
        do { try await waitUntil("pipctl ends", timeout: timeout) { !process.isRunning } } catch {
            process.terminate()
            throw error
        }
        try await waitUntil("the terminal is read to its end", timeout: .seconds(10)) { screen.withLock { $0.closed } }
        return process.terminationStatus
    }
}

/// The C library's pseudo-terminal functions, looked up at run time: Swift's Glibc module does not import
/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname` (stdlib.h declares them only for `_XOPEN_SOURCE`).
private struct PseudoTerminalFunctions {
    let posixOpenpt: @convention(c) (Int32) -> Int32
    let grantpt: @convention(c) (Int32) -> Int32
    let unlockpt: @convention(c) (Int32) -> Int32
    let ptsname: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    init() throws {
        let library = dlopen(nil, RTLD_NOW)
        func symbol<F>(_ name: String, as type: F.Type) throws -> F {
            guard let address = dlsym(library, name) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "the C library has no \(name)"])
            }
            return unsafeBitCast(address, to: type)
        }
        posixOpenpt = try symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        grantpt = try symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        unlockpt = try symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        ptsname = try symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
    }
}
