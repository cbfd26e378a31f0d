import Foundation
import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// A child process of the batch: one `pipctl render` or `pipctl verify`, in its own process group (so that a
/// terminal's Ctrl-C reaches the batch alone, which passes it on exactly once), with its standard output and
/// error in files and its standard input from /dev/null.
///
/// Those files are unlinked as soon as they are made (`CapturedOutput`): the batch reads them through its open
/// descriptor, and nothing is left in the temporary directory however the batch ends.
struct ChildProcess: Sendable {
    let pid: pid_t

    /// How a child ended.
    enum Termination: Hashable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        /// The status a shell would report: the exit code, or 128 + the signal.
        var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments` in `directory`.
    static func spawn(executable: String, arguments: [String], directory: String, environment: [String: String],
                      standardOutput: CapturedOutput, standardError: CapturedOutput) throws(SpawnFailure) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput.descriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError.descriptor, 2)
        csystem_spawn_file_actions_addchdir(&actions, directory)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envBuffer in
                posix_spawn(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, envBuffer.baseAddress!)
            }
        }
        guard result == 0 else {
            throw SpawnFailure(description: "cannot start \(executable): posix_spawn: \(String(cString: strerror(result)))")
        }
        return ChildProcess(pid: pid)
    }

    /// Blocks until the child ends.
    func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(127) }
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }
}

/// An anonymous file that takes a child's output: created and unlinked at once, read back through its descriptor.
final class CapturedOutput: Sendable {
    let descriptor: Int32

    init() throws(ChildProcess.SpawnFailure) {
        var template = Array((NSTemporaryDirectory() + "/pipctl-batch-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ChildProcess.SpawnFailure(description: "cannot make a temporary file in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        // Other jobs' children must not inherit it (dup2 onto 1 and 2 clears the flag for this job's child).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The last `limit` bytes written, as text.
    func tail(limit: Int = 65_536) -> String {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return "" }
        let size = Int(info.st_size)
        let start = max(0, size - limit)
        var bytes = [UInt8](repeating: 0, count: size - start)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
        return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
    }
}
