import Foundation

/// An exclusive `flock` on a lock file, held from `acquire` until `release` (or until the process ends, when the
/// kernel drops it, so a crashed run never leaves a cache locked).
///
/// Two runs, or two loads in one run, that need the same URL take turns on its lock: the second finds the first's
/// finished download instead of writing beside it. Lock files are never removed, since removing one while
/// another run waits on it would let a third take a second lock on a new file of the same name.
package final class FileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Why the lock was not taken.
    package enum Failure: Error {
        case cannotOpen(String)
        case deadline
        case cancelled
    }

    /// Takes the lock at `path`, waiting for another holder until `deadline`.
    ///
    /// The wait polls `flock(LOCK_NB)` every 20 ms on a suspended task, not a blocked thread, so that the calling
    /// task can be cancelled at once (Ctrl-C) and no cooperative thread is held; the polling costs no measurable
    /// CPU.
    package static func acquire(_ path: String, until deadline: ContinuousClock.Instant) async -> Result<FileLock, Failure> {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        let lock = FileLock(descriptor: fd)
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return .success(lock) }
            guard errno == EWOULDBLOCK || errno == EINTR else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
            if Task.isCancelled { return .failure(.cancelled) }
            if ContinuousClock.now >= deadline { return .failure(.deadline) }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Takes the lock at `path` if no one holds it; nil when someone does (or the file cannot be opened).
    package static func tryAcquire(_ path: String) -> FileLock? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        let lock = FileLock(descriptor: fd)
        return flock(fd, LOCK_EX | LOCK_NB) == 0 ? lock : nil
    }

    /// Gives the lock up (closing the descriptor in `deinit` would too).
    package func release() { flock(descriptor, LOCK_UN) }
}
