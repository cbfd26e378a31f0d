import Foundation
import MediaCore
#if canImport(Glibc)
import Glibc
#endif

/// The temporary MP4s `verify` joins an fMP4 HLS render's segments into (`$TMPDIR/pipctl-verify-PID-UUID.mp4`, as
/// large as the render): each is registered before it is written, so that a terminating signal removes it
/// (`removeAll`, from the command's signal handler) and none is left in `$TMPDIR`; and each run first removes those
/// of runs that were killed (SIGKILL cannot be caught): the files of a process that is gone, never a live one's.
public enum TemporaryRemux {
    static let prefix = "pipctl-verify-"

    private struct State {
        var paths: Set<String> = []
        /// Set by `removeAll`: no file is made after it.
        var closed = false
    }

    private static let state = LockedState(State())

    /// A new path in `directory` (the system's temporary directory by default), registered for removal; `nil`
    /// once `removeAll` has run (the process is stopping).
    static func make(in directory: String = NSTemporaryDirectory()) -> String? {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + prefix + "\(getpid())-\(UUID().uuidString).mp4"
        return state.withLock { state in
            guard !state.closed else { return nil }
            state.paths.insert(path)
            return path
        }
    }

    /// Removes `path` and forgets it.
    static func remove(_ path: String) {
        state.withLock { state in
            unlink(path)
            state.paths.remove(path)
        }
    }

    /// Removes every temporary MP4 of this process and refuses new ones: for a command stopped by a signal, whose
    /// verifying thread may still be writing one.
    public static func removeAll() {
        state.withLock { state in
            state.closed = true
            for path in state.paths { unlink(path) }
            state.paths.removeAll()
        }
    }

    /// Removes the temporary MP4s in `directory` whose process is gone (`kill(pid, 0)` says ESRCH). A live
    /// process's, this one's included, is never touched.
    static func removeAbandoned(in directory: String = NSTemporaryDirectory()) {
        AbandonedFiles.remove(in: directory, prefix: prefix, suffix: ".mp4")
    }
}
