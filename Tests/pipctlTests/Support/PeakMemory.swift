import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `pipctl` once and reports its peak resident memory, as the kernel counted it.
///
/// The figure must come from a small parent: Linux carries the high-water mark of the memory a process replaces at
/// `exec` into its `ru_maxrss`, so a child forked straight from this test process (hundreds of MB, holding the
/// served bodies) would report this process's size, whether read with `wait4` or `getrusage(RUSAGE_CHILDREN)`.
/// `/usr/bin/time -f %M` is a parent of a few MB that reaps pipctl with `wait4` and writes its `ru_maxrss` (KiB).
/// The wait runs on a thread of its own, never on Swift concurrency's pool, so the loopback server keeps serving.
enum PeakMemory {
    struct Result: Sendable {
        var exitStatus: Int32
        /// Peak resident set size in bytes (`ru_maxrss` is in KiB on Linux).
        var peakBytes: Int
        var standardOutput: String
        var standardError: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// - Parameter environment: added to (and overriding) this process's environment.
    static func run(_ arguments: [String], in scratch: ScratchDirectory, environment: [String: String] = [:]) async throws -> Result {
        let pipctl = try PipctlProcess.executable().path
        let executable = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Failure(description: "\(executable) is needed to measure peak memory (Debian package 'time')")
        }
        let out = scratch.path("peak-memory.stdout"), err = scratch.path("peak-memory.stderr")
        let report = scratch.path("peak-memory.kib")
        let (status, kib) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Int32, Int), any Error>) in
            Thread.detachNewThread {
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                let argv = ([executable, "-f", "%M", "-o", report, pipctl] + arguments).map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
                defer { envp.forEach { free($0) } }
                var pid: pid_t = 0
                let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
                guard spawned == 0 else {
                    continuation.resume(throwing: Failure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))"))
                    return
                }
                var status: Int32 = 0
                var usage = rusage()
                while wait4(pid, &status, 0, &usage) < 0 {
                    guard errno == EINTR else {
                        continuation.resume(throwing: Failure(description: "wait4: \(String(cString: strerror(errno)))"))
                        return
                    }
                }
                // WIFEXITED/WEXITSTATUS are macros; a normal exit has the low 7 bits clear.
                let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                // The last line is %M; a line before it says when the command failed.
                let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
                guard let kib = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
                    continuation.resume(throwing: Failure(description: "no peak memory in \(report): '\(text)'"))
                    return
                }
                continuation.resume(returning: (exit, kib))
            }
        }
        return Result(exitStatus: status, peakBytes: kib * 1024,
                      standardOutput: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
