import Foundation

/// Waits until `condition` holds, checking every 10 ms; throws naming `what` when it has not after `timeout`.
/// For facts the tests cannot be told about (a file appearing), never to let time pass.
func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "timed out after \(timeout) waiting until \(what)"])
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
