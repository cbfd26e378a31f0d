import Foundation

/// `summary.json`: what happened to every job of a batch (or of one shard of it), for people and for CI.
public struct BatchSummary: Codable, Hashable, Sendable {
    public var version = 1
    /// The manifest as given to `pipctl batch`.
    public var manifest: String
    /// `BatchManifest.digest`: shards of one manifest share it.
    public var manifestDigest: String
    /// The shard this summary covers, or nil for the whole manifest.
    public var shard: BatchShard?
    /// The shards merged into this summary (`batch merge`), or nil.
    public var mergedShards: [Int]?
    /// In manifest line order.
    public var jobs: [JobResult]

    public enum Status: String, Codable, Hashable, Sendable, CaseIterable {
        /// Rendered by this run (and verified, with `--verify`).
        case rendered
        /// Skipped: its output exists and its record (`JobRecord`) matches.
        case upToDate
        /// The render (or its `--verify`) failed.
        case failed
        /// The manifest line is not a valid job.
        case invalid
        /// Stopped by a signal while rendering; nothing of it was left.
        case interrupted
        /// Not started because the batch was stopped first.
        case notStarted

        /// Whether the job counts as a failure in the exit status and the JUnit report.
        public var isFailure: Bool { self == .failed || self == .invalid }
    }

    /// The outcome of one `pipctl verify`.
    public struct Verification: Codable, Hashable, Sendable {
        public var passed: Bool
        /// Its last line of output: the verdict, or the first failure.
        public var message: String

        public init(passed: Bool, message: String) {
            self.passed = passed
            self.message = message
        }
    }

    public struct JobResult: Codable, Hashable, Sendable {
        /// Nil for an invalid line without a readable id.
        public var id: String?
        public var line: Int
        public var status: Status
        /// The render's exit status; nil when it did not run.
        public var exitCode: Int32?
        /// One line: the render's, the verify's or the manifest's error.
        public var error: String?
        /// As the manifest wrote it.
        public var output: String?
        /// Frames of the output (from its timeline), when it exists.
        public var frames: Int64?
        /// Wall time of the render (and its verify), when it ran.
        public var seconds: Double?
        /// With `--verify`.
        public var verify: Verification?

        public init(id: String?, line: Int, status: Status, exitCode: Int32? = nil, error: String? = nil,
                    output: String? = nil, frames: Int64? = nil, seconds: Double? = nil, verify: Verification? = nil) {
            self.id = id
            self.line = line
            self.status = status
            self.exitCode = exitCode
            self.error = error
            self.output = output
            self.frames = frames
            self.seconds = seconds
            self.verify = verify
        }

        /// How JUnit and messages name it.
        public var name: String { id ?? "line \(line)" }
    }

    public init(manifest: String, manifestDigest: String, shard: BatchShard?, jobs: [JobResult]) {
        self.manifest = manifest
        self.manifestDigest = manifestDigest
        self.shard = shard
        self.jobs = jobs
    }

    /// How many jobs have each status (every status appears, with 0 when none).
    public var counts: [Status: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Status.allCases.map { ($0, 0) })
        for job in jobs { counts[job.status, default: 0] += 1 }
        return counts
    }

    public var failures: Int { jobs.filter(\.status.isFailure).count }

    enum CodingKeys: String, CodingKey {
        case version, manifest, manifestDigest, shard, mergedShards, jobs, counts
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        manifest = try c.decode(String.self, forKey: .manifest)
        manifestDigest = try c.decode(String.self, forKey: .manifestDigest)
        shard = try c.decodeIfPresent(BatchShard.self, forKey: .shard)
        mergedShards = try c.decodeIfPresent([Int].self, forKey: .mergedShards)
        jobs = try c.decode([JobResult].self, forKey: .jobs)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(manifest, forKey: .manifest)
        try c.encode(manifestDigest, forKey: .manifestDigest)
        try c.encode(shard, forKey: .shard)
        try c.encodeIfPresent(mergedShards, forKey: .mergedShards)
        try c.encode(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }), forKey: .counts)
        try c.encode(jobs, forKey: .jobs)
    }

    /// Pretty, key-sorted JSON with a final newline.
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values cannot fail.
        return (try! encoder.encode(self)) + Data("\n".utf8)
    }

    /// Why summaries cannot be merged.
    public struct MergeProblem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// One summary of the whole manifest from its shards' summaries (each labelled with its file for messages).
    /// They must come from one manifest and one shard count, each shard once; a missing shard is an error, since
    /// its jobs would silently be absent.
    public static func merge(_ parts: [(label: String, summary: BatchSummary)]) throws(MergeProblem) -> BatchSummary {
        guard let first = parts.first else { throw MergeProblem("no summaries to merge") }
        var byIndex: [Int: String] = [:]
        var count: Int?
        for (label, summary) in parts {
            guard summary.manifestDigest == first.summary.manifestDigest else {
                throw MergeProblem("\(label) is a summary of another manifest (or another version of it) than \(first.label)")
            }
            guard let shard = summary.shard else {
                throw MergeProblem("\(label) covers the whole manifest, not one shard: there is nothing to merge it with")
            }
            if let count, count != shard.count {
                throw MergeProblem("\(label) is shard \(shard) but \(first.label) splits the manifest into \(count)")
            }
            count = shard.count
            if let other = byIndex[shard.index] {
                throw MergeProblem("\(label) and \(other) are both shard \(shard)")
            }
            byIndex[shard.index] = label
        }
        let missing = (0..<count!).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw MergeProblem("shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count!)" }.joined(separator: ", ")) missing: its summary was not given")
        }
        var jobs: [JobResult] = []
        var seen: [String: String] = [:]
        for (label, summary) in parts {
            for job in summary.jobs {
                let key = job.id ?? "line \(job.line)"
                if let other = seen[key] { throw MergeProblem("\(quoted(key)) is in both \(other) and \(label)") }
                seen[key] = label
                jobs.append(job)
            }
        }
        jobs.sort { $0.line < $1.line }
        var merged = BatchSummary(manifest: first.summary.manifest, manifestDigest: first.summary.manifestDigest, shard: nil, jobs: jobs)
        merged.mergedShards = Array(0..<count!)
        return merged
    }
}
