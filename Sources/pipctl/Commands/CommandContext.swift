import MediaCore

/// What a running command may use besides its options: where to write, the environment, and the interrupt flag.
struct CommandContext: Sendable {
    /// `pipctl ads inspect`: the prefix of the command's messages.
    let command: String
    /// Results: reports, JSON.
    let output: any TextSink
    /// Progress and warnings.
    let errorOutput: any TextSink
    let environment: [String: String]
    /// Set by the first terminating signal when the command catches interrupts; never set otherwise.
    let interrupt: InterruptFlag

    /// A progress line on standard error for work of length `total` (drawn only on a terminal).
    func progress(_ label: String, total: MediaDuration?) -> ProgressLine {
        ProgressLine(label: label, total: total, sink: errorOutput, environment: environment)
    }

    /// Runs `work` as a task that is cancelled when a terminating signal arrives, and then throws `Interrupted`:
    /// network waits (decisioning, downloads) stop at once instead of running out their timeouts.
    func interruptible<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        interrupt.onInterrupt { _ in task.cancel() }
        let result = await task.result
        try interrupt.checkpoint()
        return try result.get()
    }

    /// Writes one line of warning to standard error as `pipctl <command>: warning: <message>`.
    func warn(_ message: String) {
        errorOutput.write("\(command): warning: \(message)\n")
    }
}
