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
