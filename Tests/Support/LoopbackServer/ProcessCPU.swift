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


/// The threads of this process, by id (`/proc/self/task`), and the CPU time of one: to bound what the threads a
/// test starts (an HTTP client's transfer loop) spend, which the tests running beside it do not change.
public enum ProcessThreads {
    /// The ids of the live threads.
    public static func ids() -> Set<Int> {
        guard let dir = opendir("/proc/self/task") else { return [] }
        defer { closedir(dir) }
        var ids: Set<Int> = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let id = Int(name) { ids.insert(id) }
        }
        return ids
    }

    /// User plus system CPU seconds of thread `id` so far (0 once it has ended).
    public static func cpuSeconds(_ id: Int) -> Double {
        guard let file = fopen("/proc/self/task/\(id)/stat", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
        let stat = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        // After "pid (comm) ": the state is field 3; utime and stime, in clock ticks, fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
