/// One of `count` disjoint parts of a manifest, for running a batch on several machines: a job belongs to shard
/// `hash(id) mod count` (64-bit FNV-1a of the id's UTF-8), so the split depends on ids only and survives
/// reordering, insertions and deletions of other lines. The union of shards `0..<count` is the whole manifest.
public struct BatchShard: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 0-based.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) throws(Problem) {
        guard count >= 1, count <= BatchShard.maximumCount else {
            throw Problem("the shard count \(count) is not between 1 and \(BatchShard.maximumCount)")
        }
        guard index >= 0, index < count else {
            throw Problem("the shard index \(index) is not between 0 and \(count - 1) (shards are numbered from 0)")
        }
        self.index = index
        self.count = count
    }

    public static let maximumCount = 100_000

    /// Why a shard cannot be formed.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Parses `I/N`.
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw Problem("\(quoted(String(text.prefix(200)))) is not a shard (I/N, e.g. 0/3)")
        }
        try self.init(index: i, count: n)
    }

    /// The shard a scheduler's environment names, or nil when it names none:
    /// - Slurm array tasks: `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` (0 when absent) of
    ///   `SLURM_ARRAY_TASK_COUNT`;
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` of `count` (from `--shard-count`) or `PIPCTL_SHARD_COUNT`.
    public static func from(environment: [String: String], count: Int? = nil) throws(Problem) -> BatchShard? {
        // Bounded before any arithmetic, so that no value of a variable can overflow it.
        func number(_ name: String, from low: Int = 0) throws(Problem) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), (low...maximumEnvironmentValue).contains(value) else {
                throw Problem("\(name)=\(quoted(String(text.prefix(200)))) is not a whole number from \(low) to \(maximumEnvironmentValue)")
            }
            return value
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            guard let tasks = try number("SLURM_ARRAY_TASK_COUNT", from: 1) else {
                throw Problem("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let max = try number("SLURM_ARRAY_TASK_MAX") ?? (first + tasks - 1)
            // An array with gaps or a step (--array=0-10:2) has task ids that do not number shards 0…N-1.
            guard max - first + 1 == tasks else {
                throw Problem("the Slurm array runs tasks \(first)-\(max) but counts \(tasks): submit a contiguous array (--array=0-\(tasks - 1))")
            }
            guard task >= first, task <= max else {
                throw Problem("SLURM_ARRAY_TASK_ID=\(quoted(String(task))) is outside the array's tasks \(first)-\(max)")
            }
            return try BatchShard(index: task - first, count: count ?? tasks)
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            let fromEnvironment = try number("PIPCTL_SHARD_COUNT", from: 1)
            guard let total = count ?? fromEnvironment else {
                throw Problem("JOB_COMPLETION_INDEX is set but the shard count is not: pass --shard-count N or set PIPCTL_SHARD_COUNT (the Job's completions)")
            }
            do { return try BatchShard(index: index, count: total) } catch {
                throw Problem("JOB_COMPLETION_INDEX=\(quoted(String(index))): \(error)")
            }
        }
        return nil
    }

    /// The largest value a scheduler's variable may hold (Slurm's task ids and counts are far below it).
    public static let maximumEnvironmentValue = Int(Int32.max)

    /// The shard of `id` among `count`.
    public static func index(of id: String, count: Int) -> Int {
        Int(Fingerprint.hash(id.utf8) % UInt64(count))
    }

    /// Whether this shard runs the job with this id. A line without a readable id belongs to the shard of its
    /// line number, so that exactly one shard reports it.
    public func contains(id: String?, line: Int) -> Bool {
        BatchShard.index(of: id ?? "line \(line)", count: count) == index
    }
}
