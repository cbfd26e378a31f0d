import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A render started by `pipctl batch` ends with its batch: if the batch dies (even by SIGKILL), the render sends
/// itself SIGTERM once, which it catches to remove what it half-wrote. The batch passes its pid in
/// `PIPCTL_PARENT_PID`; a thread checks every 200 ms whether this process still has that parent.
///
/// Why not `prctl(PR_SET_PDEATHSIG)`: the kernel sends that signal each time the child is handed to another thread
/// of the dying parent, so a multi-threaded batch killed at once delivered SIGTERM three times, and the second one
/// ended the render before it could clean up.
enum ParentWatch {
    static let variable = "PIPCTL_PARENT_PID"

    static func install(environment: [String: String]) {
        guard let text = environment[variable], let parent = pid_t(text) else { return }
        let thread = Thread {
            while getppid() == parent { usleep(200_000) }
            kill(getpid(), SIGTERM)
        }
        thread.stackSize = 64 << 10
        thread.start()
    }
}
