import Foundation

/// Work run on a thread of its own (never Swift concurrency's pool: it decodes for seconds), whose result is
/// waited for once: the report measures loudness while it decodes thumbnails, one core each.
///
/// `@unchecked Sendable`: `result` is written once on the work's thread before `done` is signalled, and read only
/// after waiting for it.
final class BackgroundWork<Value>: @unchecked Sendable {
    private var result: Result<Value, ReportError>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () throws(ReportError) -> Value) {
        // The work's captures (a JobControl polling the interrupt flag) are only used on its thread.
        nonisolated(unsafe) let work = work
        let thread = Thread { [self] in
            do throws(ReportError) { result = .success(try work()) } catch { result = .failure(error) }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work to end; its value, or what it threw.
    func value() throws(ReportError) -> Value {
        done.wait()
        return try result!.get()
    }
}
