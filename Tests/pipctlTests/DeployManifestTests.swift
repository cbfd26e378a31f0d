import Foundation
import LoopbackServer
import Testing

/// The files of `deploy/` checked against what Kubernetes and Slurm document: the Indexed Job's fields and the
/// shard count it gives pipctl, the volume the manifest lives on, the sbatch script's array and directives, and
/// the container build's inputs. The YAML is read by a real parser (PyYAML, from `scripts/setup --for-tests`).
/// `scripts/cluster-test` runs the sbatch script on a real Slurm cluster; no Kubernetes runs here.
@Suite struct DeployManifestTests {
    static let deploy = PipctlProcess.repositoryRoot.appendingPathComponent("deploy")

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Every document of a YAML file as JSON values, parsed by PyYAML's safe loader.
    static func yamlDocuments(_ name: String) throws -> [[String: Any]] {
        // Debian's python3, which python3-yaml installs into; any python3 with PyYAML otherwise.
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/bin/env"
        let arguments = (python == "/usr/bin/env" ? ["python3"] : []) + [
            "-c", "import json, sys, yaml; json.dump(list(yaml.safe_load_all(open(sys.argv[1]))), sys.stdout)",
            deploy.appendingPathComponent(name).path,
        ]
        let text = try standardOutput(of: python, arguments)
        guard let documents = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw Failure(description: "\(name): PyYAML printed no documents (is python3-yaml installed? scripts/setup --for-tests)")
        }
        return documents.compactMap { $0 as? [String: Any] }
    }

    /// The value at a dotted path of dictionaries (`spec.template.spec`), or nil.
    static func value(_ object: Any?, _ path: String) -> Any? {
        path.split(separator: ".").reduce(object) { ($0 as? [String: Any])?[String($1)] }
    }

    static func document(_ documents: [[String: Any]], kind: String) throws -> [String: Any] {
        guard let found = documents.first(where: { $0["kind"] as? String == kind }) else {
            throw Failure(description: "no \(kind) among \(documents.compactMap { $0["kind"] })")
        }
        return found
    }

    /// The batch Job: its container, the shard count and where the manifest is mounted.
    struct BatchJob {
        var job: [String: Any]
        var container: [String: Any]
        var completions: Int
        var command: [String]

        init(_ documents: [[String: Any]]) throws {
            job = try document(documents, kind: "Job")
            let containers = value(job, "spec.template.spec.containers") as? [[String: Any]] ?? []
            guard containers.count == 1 else { throw Failure(description: "the Job has \(containers.count) containers, not 1") }
            container = containers[0]
            completions = value(job, "spec.completions") as? Int ?? -1
            command = container["command"] as? [String] ?? []
        }

        var environment: [String: String] {
            var values: [String: String] = [:]
            for variable in container["env"] as? [[String: Any]] ?? [] {
                if let name = variable["name"] as? String { values[name] = variable["value"] as? String }
            }
            return values
        }
    }

    @Test func kubernetesJobIsAnIndexedJobWhoseShardCountIsItsCompletions() throws {
        let batch = try BatchJob(try Self.yamlDocuments("kubernetes/pipctl-batch-job.yaml"))
        #expect(batch.job["apiVersion"] as? String == "batch/v1")
        #expect(Self.value(batch.job, "spec.completionMode") as? String == "Indexed")
        #expect(batch.completions > 1)
        #expect(Self.value(batch.job, "spec.parallelism") as? Int == batch.completions)
        // pipctl reads JOB_COMPLETION_INDEX (set by the Job controller) of PIPCTL_SHARD_COUNT; an env value is a string.
        #expect(batch.environment["PIPCTL_SHARD_COUNT"] == String(batch.completions))
        #expect(batch.environment["JOB_COMPLETION_INDEX"] == nil)
        // backoffLimitPerIndex and podFailurePolicy are documented to need restartPolicy Never.
        #expect(Self.value(batch.job, "spec.template.spec.restartPolicy") as? String == "Never")
        let rules = Self.value(batch.job, "spec.podFailurePolicy.rules") as? [[String: Any]] ?? []
        for rule in rules {
            #expect(["FailJob", "FailIndex", "Ignore", "Count"].contains(rule["action"] as? String ?? ""))
            #expect(Self.value(rule, "onExitCodes.containerName") as? String == batch.container["name"] as? String)
        }
        if let limit = Self.value(batch.job, "spec.backoffLimitPerIndex") { #expect(limit as? Int ?? -1 >= 0) }
    }

    @Test func kubernetesJobRunsPipctlBatchOnAManifestOnTheSharedClaim() throws {
        let documents = try Self.yamlDocuments("kubernetes/pipctl-batch-job.yaml")
        let batch = try BatchJob(documents)
        #expect(Array(batch.command.prefix(2)) == ["pipctl", "batch"])
        let manifest = batch.command.count > 2 ? batch.command[2] : ""
        #expect(manifest.hasPrefix("/") && manifest.hasSuffix(".jsonl"))
        // The shard comes from the index, never from a fixed --shard on a command every pod shares.
        #expect(!batch.command.contains { $0.hasPrefix("--shard") })
        if let jobs = batch.command.firstIndex(of: "--jobs") {
            #expect(Int(batch.command[jobs + 1]) ?? 0 >= 1)
        }
        #expect(Self.value(batch.container, "resources.requests.cpu") != nil)

        // The manifest lies under a mount whose volume is the file's own ReadWriteMany claim.
        let mounts = batch.container["volumeMounts"] as? [[String: Any]] ?? []
        let mount = try #require(mounts.first { manifest.hasPrefix(($0["mountPath"] as? String ?? "?") + "/") },
                                 "no volumeMount holds \(manifest)")
        let volumes = Self.value(batch.job, "spec.template.spec.volumes") as? [[String: Any]] ?? []
        let volume = try #require(volumes.first { $0["name"] as? String == mount["name"] as? String })
        let claim = try Self.document(documents, kind: "PersistentVolumeClaim")
        #expect(claim["apiVersion"] as? String == "v1")
        #expect(Self.value(volume, "persistentVolumeClaim.claimName") as? String == Self.value(claim, "metadata.name") as? String)
        #expect((Self.value(claim, "spec.accessModes") as? [String] ?? []).contains("ReadWriteMany"))
        #expect(Self.value(claim, "spec.resources.requests.storage") is String)
    }

    @Test func kubernetesMergeReadsEveryShardSummaryOfTheBatchJob() throws {
        let batch = try BatchJob(try Self.yamlDocuments("kubernetes/pipctl-batch-job.yaml"))
        let merge = try Self.document(try Self.yamlDocuments("kubernetes/pipctl-batch-merge.yaml"), kind: "Job")
        let container = try #require((Self.value(merge, "spec.template.spec.containers") as? [[String: Any]])?.first)
        let script = (container["command"] as? [String] ?? []).joined(separator: " ")
        // The shards' default summaries: MANIFEST-without-.jsonl.shard-I-of-N.summary.json beside the manifest.
        let stem = String(batch.command[2].dropLast(".jsonl".count))
        #expect(script.contains("pipctl batch merge \(stem).shard-*-of-\(batch.completions).summary.json"))
        let claim = { (job: [String: Any]) in
            (Self.value(job, "spec.template.spec.volumes") as? [[String: Any]])?.first.flatMap {
                Self.value($0, "persistentVolumeClaim.claimName") as? String
            }
        }
        #expect(claim(merge) != nil && claim(merge) == claim(batch.job))
    }

    /// The `#SBATCH` directives of the sbatch script, in order, and whether any comes after the first command
    /// (sbatch stops reading them there).
    static func sbatchDirectives() throws -> (directives: [String], header: String, lateDirective: Bool) {
        let text = try String(contentsOf: deploy.appendingPathComponent("slurm/pipctl-batch.sbatch"), encoding: .utf8)
        var directives: [String] = [], header = "", inBody = false, late = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#SBATCH ") {
                directives.append(String(trimmed.dropFirst("#SBATCH ".count)))
                late = late || inBody
            } else if trimmed.hasPrefix("#") {
                if !inBody { header += trimmed + "\n" }
            } else if !trimmed.isEmpty {
                inBody = true
            }
        }
        return (directives, header, late)
    }

    @Test func sbatchScriptsArrayIsTheShardCountItDocuments() throws {
        let (directives, header, late) = try Self.sbatchDirectives()
        #expect(!late, "an #SBATCH line after the first command is ignored by sbatch")
        let array = try #require(directives.first { $0.hasPrefix("--array=") }).dropFirst("--array=".count)
        let bounds = array.split(separator: "-").compactMap { Int($0) }
        try #require(bounds.count == 2, "--array=\(array) is not a range A-B")
        let documented = try #require(header.firstMatch(of: /(\d+) shards by default \(--array=([^)]+)\)/))
        #expect(Int(documented.output.1) == bounds[1] - bounds[0] + 1)
        #expect(documented.output.2 == array)
        #expect(directives.contains { $0.hasPrefix("--cpus-per-task=") })
        // One log per array task: %A is the array's job id, %a the task's index.
        #expect(directives.contains { $0.hasPrefix("--output=") && $0.contains("%A") && $0.contains("%a") })
    }

    /// Runs the sbatch script as Slurm's batch step would (bash, the array task's variables), with `PIPCTL` a
    /// command that prints its arguments.
    static func runSbatchScript(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        let ran = try ChildProcess.run("/bin/bash", [deploy.appendingPathComponent("slurm/pipctl-batch.sbatch").path] + arguments,
                                       environment: ["PATH": "/usr/bin:/bin", "PIPCTL": "/bin/echo"].merging(environment) { $1 })
        return (ran.status, ran.output, ran.errors)
    }

    @Test func sbatchScriptRunsBatchWithRendersForItsCPUsAndThePassedOptions() throws {
        let task = ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "5",
                    "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_JOB_ID": "77"]
        let run = try Self.runSbatchScript(["/shared/m.jsonl", "--force"],
                                           environment: task.merging(["SLURM_CPUS_PER_TASK": "4", "PIPCTL_BATCH_ARGS": "--verify --junit j.xml"]) { $1 })
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.last == "batch /shared/m.jsonl --jobs 2 --verify --junit j.xml --force")
        #expect(lines.first?.hasPrefix("pipctl-batch: task 4 of array 77 (tasks 3-5, 3 in all)") == true)

        let fromVariable = try Self.runSbatchScript([], environment: task.merging(["MANIFEST": "/shared/n.jsonl", "SLURM_CPUS_PER_TASK": "1", "PIPCTL_JOBS": "3"]) { $1 })
        #expect(fromVariable.output.split(separator: "\n").last == "batch /shared/n.jsonl --jobs 3")
    }

    @Test func sbatchScriptRefusesToRunWithoutAManifestOrOutsideAnArray() throws {
        let noManifest = try Self.runSbatchScript([], environment: ["SLURM_ARRAY_TASK_ID": "0"])
        #expect(noManifest.status == 2 && noManifest.output.isEmpty)
        #expect(noManifest.errors.contains("no manifest"))
        let notArray = try Self.runSbatchScript(["/shared/m.jsonl"], environment: [:])
        #expect(notArray.status == 2 && notArray.output.isEmpty)
        #expect(notArray.errors.contains("not an array task"))
    }

    @Test func containerfileCopiesOnlyWhatTheBuildContextHolds() throws {
        let root = PipctlProcess.repositoryRoot
        let text = try String(contentsOf: Self.deploy.appendingPathComponent("Containerfile"), encoding: .utf8)
        let ignored = try String(contentsOf: root.appendingPathComponent(".dockerignore"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        // Continuation lines joined, comments dropped: one instruction per line.
        let instructions = text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var copied: [String] = []
        for instruction in instructions where instruction.hasPrefix("COPY ") {
            let words = instruction.split(separator: " ").map(String.init).dropFirst()
            if words.contains(where: { $0.hasPrefix("--from=") }) { continue }
            let paths = words.filter { !$0.hasPrefix("--") }
            for source in paths.dropLast() {
                copied.append(source)
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(source).path), "COPY \(source): not in the checkout")
                let top = String(source.split(separator: "/").first ?? "")
                #expect(!ignored.contains(top), "COPY \(source): .dockerignore leaves it out of the context")
            }
        }
        // Package.swift names the test targets' folders, so the build needs them beside Sources.
        #expect(Set(["Package.swift", "Sources", "Tests", "scripts/setup"]).isSubset(of: copied))
        #expect(instructions.filter { $0.hasPrefix("FROM ") }.count == 2)
        #expect(instructions.contains("ENTRYPOINT [\"pipctl\"]"))
        #expect(instructions.contains { $0.contains("swift build -c release") })
    }
}
