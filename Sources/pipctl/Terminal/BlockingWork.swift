import Foundation

/// Runs long synchronous work (decoding, encoding) on a thread of its own, so that it never holds one of Swift
/// concurrency's few cooperative threads: beacons, signals and standard input keep being served meanwhile.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
