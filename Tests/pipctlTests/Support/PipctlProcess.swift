import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
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

    /// Starts `pipctl arguments…`; `result(timeout:)` waits for it. Use this form to signal a running child.
    init(_ arguments: [String], standardInput: Data = Data(), environment: [String: String] = [:],
         directory: URL? = nil) throws {
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
        Thread.detachNewThread {
            try? writer.write(contentsOf: standardInput)
            try? writer.close()
        }
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
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

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

/// Reads a pipe to its end on a thread of its own.
private final class PipeDrain: Sendable {
    private let collected = Mutex<(data: Data, done: Bool, waiter: CheckedContinuation<Data, Never>?)>((Data(), false, nil))

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let data = (try? handle.readToEnd()) ?? Data()
            let waiter = collected.withLock { state -> CheckedContinuation<Data, Never>? in
                state.data = data
                state.done = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: data)
        }
    }

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
