import Foundation

/// `pipctl play … --step` driven by a test: the session's clock moves only when the test says `advance`, and each
/// advance is waited for (`stepped to H:MM:SS.mmm` on standard output, after the events of the frames it played), so
/// the frame every typed command lands on is the test's choice, not the machine's load.
final class SteppedPlay {
    let process: PipctlProcess
    /// Where the test has moved the session's clock to, from its start.
    private(set) var milliseconds: Int64 = 0

    /// Starts `pipctl play arguments… --step` with its standard input open.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = try PipctlProcess(arguments + ["--step"], keepsInputOpen: true, environment: environment)
    }

    /// Types `text` (lines of commands): each applies at the first frame due after the time reached.
    func type(_ text: String) throws {
        try process.write(text)
    }

    /// Moves the clock on by `milliseconds` and waits until play has played every frame due by then.
    func advance(milliseconds step: Int64) async throws {
        precondition(step > 0)
        try process.write("advance \(Self.seconds(step))\n")
        milliseconds += step
        // A bound against a hang only: play plays the frames as fast as the machine allows.
        try await process.waitForOutput(containing: "stepped to \(Self.clock(milliseconds))\n", timeout: .seconds(300))
    }

    /// Moves the clock on `step` at a time until `condition` holds for what play has written to standard output
    /// (or standard error); throws when the session ends first.
    func advance(until what: String, step: Int64 = 100, onStandardError: Bool = false,
                 _ condition: (String) -> Bool) async throws {
        while !condition(onStandardError ? process.standardErrorSoFar : process.standardOutputSoFar) {
            do { try await advance(milliseconds: step) } catch {
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "waiting for \(what): \(error)"])
            }
        }
    }

    /// Advances until play has written `text` to standard output (or standard error).
    func advance(untilShown text: String, step: Int64 = 100, onStandardError: Bool = false) async throws {
        try await advance(until: "writing \(text)", step: step, onStandardError: onStandardError) { $0.contains(text) }
    }

    /// Moves the clock on, `step` at a time, until play ends by itself (a quit key in its window); returns its result.
    func advanceUntilItEnds(step: Int64 = 100) async throws -> PipctlResult {
        while (try? await advance(milliseconds: step)) != nil {}
        return try await process.result(timeout: .seconds(120))
    }

    /// Types `quit` and ends the input: the clock then follows real time, and `quit` applies at the next frame.
    func quit(timeout: Duration = .seconds(120)) async throws -> PipctlResult {
        try process.write("quit\n")
        process.closeInput()
        return try await process.result(timeout: timeout)
    }

    /// `1.25` for 1250 ms: exact, as `advance` reads it.
    static func seconds(_ milliseconds: Int64) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `0:00:01.250`, as `play` prints the time it stepped to.
    static func clock(_ milliseconds: Int64) -> String {
        let s = milliseconds / 1000
        func pad(_ v: Int64, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        return "\(s / 3600):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2)).\(pad(milliseconds % 1000, 3))"
    }
}
