#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only while holding a `pthread_mutex`: the project's one lock.
///
/// Why not `Synchronization.Mutex`: on Swift 6.3 for Linux, ThreadSanitizer does not see `Mutex` (its futex-based
/// lock is not one of the primitives TSan intercepts), so every value guarded by it reads as a data race and
/// `scripts/test --sanitize thread` says nothing useful. `pthread_mutex_lock`/`unlock` are intercepted, so the same
/// code guarded by this type is checked for real. The mutex lives in memory this object allocates and never moves.
///
/// Guard a value, not nothing: with an empty `Value` (`LockedState(())`), ThreadSanitizer on Swift 6.3 reports a
/// "Swift access race" between two `withLock` calls that the mutex orders (a twelve-line program shows it; an `Int`
/// in the same program reports nothing).
public final class LockedState<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock; `body` must not call back into this lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
