import Foundation
import Testing
@testable import Batch

@Suite struct BatchShardTests {
    let ids = (0..<500).map { "title-\($0)-\(["fr", "de", "us"][$0 % 3])" }

    @Test func shardsAreDisjointAndTogetherEveryJob() throws {
        for count in [1, 2, 3, 7] {
            let shards = try (0..<count).map { try BatchShard(index: $0, count: count) }
            for (line, id) in ids.enumerated() {
                #expect(shards.filter { $0.contains(id: id, line: line + 1) }.count == 1)
            }
            // No shard is empty or holds nearly everything on 500 ids.
            for shard in shards {
                let size = ids.enumerated().filter { shard.contains(id: $1, line: $0 + 1) }.count
                #expect(size > 500 / count / 2 && size < 500 / count * 2, "shard \(shard) holds \(size)")
            }
        }
    }

    @Test func aJobsShardDependsOnItsIdOnly() throws {
        let shard = try BatchShard(index: 1, count: 3)
        let mine = Set(ids.enumerated().filter { shard.contains(id: $1, line: $0 + 1) }.map(\.element))
        // Reversed, with other jobs added: the same ids are in shard 1.
        let other = (ids.reversed() + ["new-1", "new-2"]).enumerated().filter { shard.contains(id: $1, line: $0 + 1) }.map(\.element)
        #expect(Set(other).subtracting(["new-1", "new-2"]) == mine)
    }

    @Test func theHashIsFNV1a64() {
        // Published test vectors of 64-bit FNV-1a.
        #expect(Fingerprint.hash("".utf8) == 0xcbf29ce484222325)
        #expect(Fingerprint.hash("a".utf8) == 0xaf63dc4c8601ec8c)
        #expect(Fingerprint.hash("foobar".utf8) == 0x85944171f73967e8)
    }

    @Test func parsesIOverN() throws {
        #expect(try BatchShard(parsing: "2/3") == BatchShard(index: 2, count: 3))
        #expect(throws: BatchShard.Problem.self) { try BatchShard(parsing: "3/3") }
        #expect(throws: BatchShard.Problem.self) { try BatchShard(parsing: "1/0") }
        #expect(throws: BatchShard.Problem.self) { try BatchShard(parsing: "a/3") }
        #expect(throws: BatchShard.Problem.self) { try BatchShard(parsing: "1-3") }
    }

    @Test func readsSlurmArraysAndKubernetesIndexedJobs() throws {
        #expect(try BatchShard.from(environment: [:]) == nil)
        #expect(try BatchShard.from(environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"]) == BatchShard(index: 2, count: 3))
        // --array=1-3: task ids start at 1.
        #expect(try BatchShard.from(environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3",
                                                  "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3"]) == BatchShard(index: 0, count: 3))
        #expect(throws: BatchShard.Problem.self) {
            try BatchShard.from(environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3",
                                              "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4"])
        }
        #expect(throws: BatchShard.Problem.self) { try BatchShard.from(environment: ["SLURM_ARRAY_TASK_ID": "2"]) }
        #expect(try BatchShard.from(environment: ["JOB_COMPLETION_INDEX": "4", "PIPCTL_SHARD_COUNT": "5"]) == BatchShard(index: 4, count: 5))
        #expect(try BatchShard.from(environment: ["JOB_COMPLETION_INDEX": "0"], count: 2) == BatchShard(index: 0, count: 2))
        #expect(throws: BatchShard.Problem.self) { try BatchShard.from(environment: ["JOB_COMPLETION_INDEX": "0"]) }
        #expect(throws: BatchShard.Problem.self) { try BatchShard.from(environment: ["JOB_COMPLETION_INDEX": "x", "PIPCTL_SHARD_COUNT": "2"]) }
    }
}

extension BatchShardTests {
    static let extremes = ["-9223372036854775808", "9223372036854775807", "9223372036854775808", "-1", "2147483648"]

    /// Every variable at the extremes of Int: a clear problem naming it and quoting its value, never a trap.
    @Test(arguments: ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT"])
    func slurmVariablesAtTheExtremesOfIntAreProblemsNotOverflows(name: String) throws {
        for value in Self.extremes {
            var environment = ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "3"]
            environment[name] = value
            do throws(BatchShard.Problem) {
                let shard = try BatchShard.from(environment: environment)
                Issue.record("\(name)=\(value) gave \(String(describing: shard))")
            } catch {
                #expect(error.description.hasPrefix("\(name)=\"\(value)\" is not a whole number from "), "\(error)")
            }
        }
    }

    @Test func aSlurmTaskOutsideItsArrayIsAProblemNamingIt() {
        #expect(throws: BatchShard.Problem("SLURM_ARRAY_TASK_ID=\"7\" is outside the array's tasks 1-3")) {
            try BatchShard.from(environment: ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"])
        }
        #expect(throws: BatchShard.Problem("SLURM_ARRAY_TASK_ID=\"0\" is outside the array's tasks 1-3")) {
            try BatchShard.from(environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"])
        }
    }

    @Test(arguments: ["JOB_COMPLETION_INDEX", "PIPCTL_SHARD_COUNT"])
    func kubernetesVariablesAtTheExtremesOfIntAreProblemsNotOverflows(name: String) throws {
        for value in Self.extremes {
            var environment = ["JOB_COMPLETION_INDEX": "0", "PIPCTL_SHARD_COUNT": "3"]
            environment[name] = value
            #expect(throws: BatchShard.Problem.self, "\(name)=\(value)") { try BatchShard.from(environment: environment) }
        }
        #expect(throws: BatchShard.Problem("JOB_COMPLETION_INDEX=\"3\": the shard index 3 is not between 0 and 2 (shards are numbered from 0)")) {
            try BatchShard.from(environment: ["JOB_COMPLETION_INDEX": "3", "PIPCTL_SHARD_COUNT": "3"])
        }
    }

    @Test func iOverNAtTheExtremesOfIntIsAProblem() {
        for text in ["-9223372036854775808/3", "9223372036854775807/9223372036854775807", "0/-9223372036854775808",
                     "9223372036854775808/3", "0/9223372036854775807"] {
            #expect(throws: BatchShard.Problem.self, "\(text)") { try BatchShard(parsing: text) }
        }
    }
}

@Suite struct AvailableProcessorsTests {
    @Test func readsACgroupQuotaInWholeCPUs() {
        #expect(AvailableProcessors.quota(cpuMax: "200000 100000") == 2)
        #expect(AvailableProcessors.quota(cpuMax: "150000 100000") == 2)
        #expect(AvailableProcessors.quota(cpuMax: "50000 100000") == 1)
        #expect(AvailableProcessors.quota(cpuMax: "max 100000") == nil)
    }

    @Test func countsTheAffinityMask() throws {
        // This process may use at least one CPU and no more than the machine has.
        let count = try #require(AvailableProcessors.affinityCount())
        #expect(count >= 1 && count <= ProcessInfo.processInfo.activeProcessorCount)
        #expect(AvailableProcessors.count() <= count)
    }
}
