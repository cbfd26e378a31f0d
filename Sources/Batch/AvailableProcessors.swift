import Foundation
import CSystem

/// How many processors this process may really use: the CPUs of its affinity mask (what Slurm's task/affinity and
/// `taskset` grant) capped by its cgroup's CPU quota (what a Kubernetes CPU limit or Docker's `--cpus` sets).
/// Foundation's `activeProcessorCount` counts every online CPU of the machine, which on a 64-core node running a
/// 4-CPU Slurm task would give each of the batch's renders 16 times too many threads.
public enum AvailableProcessors {
    public static func count() -> Int {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var available = min(online, affinityCount() ?? online)
        if let quota = cgroupQuota() { available = min(available, quota) }
        return max(1, available)
    }

    /// The CPUs of this process's affinity mask.
    static func affinityCount() -> Int? {
        let count = Int(csystem_affinity_count())
        return count > 0 ? count : nil
    }

    /// The CPU quota of the process's cgroup (v2 `cpu.max`, or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`),
    /// rounded up to whole CPUs; nil when there is none.
    static func cgroupQuota(root: String = "/sys/fs/cgroup") -> Int? {
        func read(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let max = read(root + "/cpu.max") { return quota(cpuMax: max) }
        if let q = read(root + "/cpu/cpu.cfs_quota_us").flatMap(Int.init), let p = read(root + "/cpu/cpu.cfs_period_us").flatMap(Int.init),
           q > 0, p > 0 {
            return (q + p - 1) / p
        }
        return nil
    }

    /// `200000 100000` → 2, `150000 100000` → 2, `max 100000` → nil.
    static func quota(cpuMax: String) -> Int? {
        let parts = cpuMax.split(separator: " ")
        guard parts.count == 2, let q = Int(parts[0]), let p = Int(parts[1]), q > 0, p > 0 else { return nil }
        return (q + p - 1) / p
    }
}
