import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time spent by this process, to check that waiting on the network costs none.
public enum ProcessCPU {
    /// User plus system CPU seconds so far.
    public static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// CPU time spent by the calling thread: for a bound on synchronous work that other tests running beside it (or
/// another process keeping the cores busy) do not change, as wall time and the process's CPU time are.
public enum ThreadCPU {
    /// CPU seconds of the calling thread so far.
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// CPU time of this process's threads by name (`/proc/self/task/*/comm`): for a bound on what one kind of thread
/// (the HTTP client's `pipctl-http` loop) spends while it waits, which tests running beside it do not change.
public enum NamedThreadCPU {
    /// CPU seconds so far of each live thread named `name`, by thread id.
    public static func seconds(named name: String) -> [Int: Double] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [:] }
        var result: [Int: Double] = [:]
        for entry in tids {
            guard let tid = Int(entry),
                  let comm = try? String(contentsOfFile: "/proc/self/task/\(entry)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm) ": state is field 3, utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            result[tid] = (user + system) / ticks
        }
        return result
    }

    /// The most CPU seconds any one thread named `name` spent since `before` (a `seconds(named:)` snapshot).
    public static func most(named name: String, since before: [Int: Double]) -> Double {
        seconds(named: name).map { tid, now in now - (before[tid] ?? 0) }.max() ?? 0
    }
}
