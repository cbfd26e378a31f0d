import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import MediaCore
#endif

/// What a finished run of the built `pipctl` printed and returned.
struct PipctlResult: Sendable {
    var exitStatus: Int32
    /// True when the process ended by a signal; `exitStatus` is then the signal number.
    var endedBySignal: Bool
    var standardOutputData: Data
    var standardErrorData: Data

    var standardOutput: String { String(decoding: standardOutputData, as: UTF8.self) }
    var standardError: String { String(decoding: standardErrorData, as: UTF8.self) }

    /// Standard error split into lines, without the final empty one.
    var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
            standardError.hasSuffix("\n") ? 1 : 0)
    }
}

/// Runs the built `pipctl` executable as a child process, for end-to-end tests.
///
/// The executable is the one SwiftPM built next to the test bundle (the test target depends on `pipctl`, so it
/// is built first); `PIPCTL_EXECUTABLE` overrides it. Output pipes are drained on their own threads while the
/// child runs, so a child that writes a lot never blocks.
final class PipctlProcess: Sendable {
    /// Where the executable is looked for, first found wins.
    static var candidateExecutables: [URL] {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["PIPCTL_EXECUTABLE"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        // The test bundle runs from the build products directory, beside the executable.
        if let bundle = Bundle.main.executableURL {
            candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("pipctl"))
        }
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug/pipctl"))
        return candidates
    }

    /// The checkout this file belongs to (Tests/pipctlTests/Support/ is three levels down).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `pipctl`.
    static func executable() throws -> URL {
        guard let found = candidateExecutables.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw CocoaError(.fileNoSuchFile, userInfo: [
                NSLocalizedDescriptionKey: "pipctl is not built; looked at \(candidateExecutables.map(\.path))",
            ])
        }
        return found
    }

    /// Runs `pipctl arguments…` to the end and returns what it printed.
    /// - Parameters:
    ///   - standardInput: written to the child's standard input, which is then closed (empty by default).
    ///   - environment: added to (and overriding) this process's environment.
    ///   - directory: the child's working directory.
    ///   - timeout: the child is killed (and this throws) if it runs longer.
    static func run(_ arguments: [String], standardInput: Data = Data(), environment: [String: String] = [:],
                    directory: URL? = nil, timeout: Duration = .seconds(120)) async throws -> PipctlResult {
        let process = try PipctlProcess(arguments, standardInput: standardInput, environment: environment,
                                        directory: directory)
        return try await process.result(timeout: timeout)
    }

    private let process: Process
    private let exit = ExitLatch()
    private let output: PipeDrain
    private let errors: PipeDrain
    /// The write end of the child's standard input while it is kept open; nil once closed.
    private let input: LockedState<FileHandle?>

    /// Starts `pipctl arguments…`; `result(timeout:)` waits for it. Use this form to signal a running child or to
    /// talk to it.
    /// - Parameter keepsInputOpen: when true, standard input stays open after `standardInput` is written, for
    ///   `write(_:)`, until `closeInput()`; otherwise it is closed at once.
    init(_ arguments: [String], standardInput: Data = Data(), keepsInputOpen: Bool = false,
         environment: [String: String] = [:], directory: URL? = nil) throws {
        process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        output = PipeDrain(stdout.fileHandleForReading)
        errors = PipeDrain(stderr.fileHandleForReading)
        process.terminationHandler = { [exit] _ in exit.open() }
        // A child that exits without reading its input closes the pipe; writing to it must then fail with EPIPE
        // instead of killing the test process.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let writer = stdin.fileHandleForWriting
        input = LockedState(keepsInputOpen ? writer : nil)
        if keepsInputOpen {
            try writer.write(contentsOf: standardInput)
        } else {
            Thread.detachNewThread {
                try? writer.write(contentsOf: standardInput)
                try? writer.close()
            }
        }
    }

    /// Writes `text` to the child's standard input (kept open with `keepsInputOpen`).
    func write(_ text: String) throws {
        try input.withLock { handle in
            guard let handle else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "standard input is closed"]) }
            try handle.write(contentsOf: Data(text.utf8))
        }
    }

    /// Closes the child's standard input: it reads the end of its input.
    func closeInput() {
        input.withLock { handle in
            try? handle?.close()
            handle = nil
        }
    }

    /// What the child has written to standard output so far.
    var standardOutputSoFar: String { String(decoding: output.snapshot, as: UTF8.self) }
    /// What the child has written to standard error so far.
    var standardErrorSoFar: String { String(decoding: errors.snapshot, as: UTF8.self) }

    /// Waits until `condition` holds for what the child has written to standard output (or standard error),
    /// checking every 10 ms; throws when it has not after `timeout` or the child ended first.
    func waitForOutput(_ what: String, onStandardError: Bool = false, timeout: Duration = .seconds(30),
                       until condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = onStandardError ? standardErrorSoFar : standardOutputSoFar
            if condition(text) { return }
            if ContinuousClock.now > deadline || exit.isOpen {
                throw CocoaError(.executableLoad, userInfo: [
                    NSLocalizedDescriptionKey: "pipctl \(exit.isOpen ? "ended" : "ran \(timeout)") before \(what); it wrote:\n\(text)",
                ])
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until the child has written `text` to standard output (or standard error).
    func waitForOutput(containing text: String, onStandardError: Bool = false, timeout: Duration = .seconds(30)) async throws {
        try await waitForOutput("writing \(text)", onStandardError: onStandardError, timeout: timeout) { $0.contains(text) }
    }

    /// The child's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` (SIGINT, SIGTERM…) to the child.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the child to end and its output to be read; kills it and throws after `timeout`.
    func result(timeout: Duration = .seconds(120)) async throws -> PipctlResult {
        let timedOut = Atomic<Bool>(false)
        let watchdog = Task { [process] in
            try await Task.sleep(for: timeout)
            timedOut.store(true, ordering: .sequentiallyConsistent)
            process.terminate()
        }
        await exit.wait()
        watchdog.cancel()
        let result = PipctlResult(exitStatus: process.terminationStatus,
                                  endedBySignal: process.terminationReason == .uncaughtSignal,
                                  standardOutputData: await output.data(), standardErrorData: await errors.data())
        if timedOut.load(ordering: .sequentiallyConsistent) {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "pipctl ran longer than \(timeout)"])
        }
        return result
    }
}

/// Opens once, when the child has ended; waiters suspend until then.
private final class ExitLatch: Sendable {
    private let state = LockedState<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// Reads a pipe to its end on a thread of its own, keeping what has arrived so far readable.
private final class PipeDrain: Sendable {
    private let collected = LockedState<(data: Data, done: Bool, waiter: CheckedContinuation<Data, Never>?)>((Data(), false, nil))

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            // read(2) itself: FileHandle's reads wait for a full buffer, and tests watch the output as it comes.
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(handle.fileDescriptor, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                collected.withLock { $0.data.append(contentsOf: buffer[0..<n]) }
            }
            let (waiter, data) = collected.withLock { state -> (CheckedContinuation<Data, Never>?, Data) in
                state.done = true
                defer { state.waiter = nil }
                return (state.waiter, state.data)
            }
            waiter?.resume(returning: data)
        }
    }

    /// What the pipe has carried so far.
    var snapshot: Data { collected.withLock { $0.data } }

    /// Everything the pipe carried, once the writer closed it.
    func data() async -> Data {
        await withCheckedContinuation { continuation in
            let ready = collected.withLock { state -> Data? in
                if state.done { return state.data }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
