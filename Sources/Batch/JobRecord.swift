import Foundation

/// `OUT.batch.json`, written beside a job's output once the render has succeeded: what the output was made from.
/// A later batch skips the job when the record still matches (same pipctl, same command line, same input files by
/// size and modification time, and the outputs as they were left); `--force` ignores it.
///
/// Inputs are the files the job names (content, ads document, break videos, option values that name files).
/// Files a VMAP or session file refers to, and documents fetched from URLs, are not looked into: their changes
/// are not seen (docs/BATCH.md).
public struct JobRecord: Codable, Hashable, Sendable {
    /// A file as last seen: nil size and time for a URL or a file that did not exist.
    public struct FileState: Codable, Hashable, Sendable {
        public var path: String
        public var size: Int64?
        /// Nanoseconds since 1970.
        public var modified: Int64?

        /// A file not looked at yet.
        public init(path: String) {
            self.path = path
        }

        /// The state of `path` now (resolved against `directory` when relative); URLs are kept as they are.
        public init(_ path: String, in directory: String) {
            self.path = path
            guard !BatchManifest.isURL(path) else { return }
            var info = stat()
            guard stat(BatchManifest.resolve(path, in: directory), &info) == 0 else { return }
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }
    }

    public var version = 1
    public var id: String
    public var pipctlVersion: String
    /// The render's command line, without what does not change the result (`--threads` chosen by `--jobs`).
    public var arguments: [String]
    public var inputs: [FileState]
    public var outputs: [FileState]
    /// The output's frames, from its timeline, for the summary of a later batch that skips the job.
    public var frames: Int64?

    public init(id: String, pipctlVersion: String, arguments: [String], inputs: [FileState], outputs: [FileState]) {
        self.id = id
        self.pipctlVersion = pipctlVersion
        self.arguments = arguments
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The record's path for an output.
    public static func path(forOutput output: String) -> String { output + ".batch.json" }

    /// The record stored beside `output` (resolved against `directory`), or nil when there is none or it is not
    /// a record.
    public static func stored(forOutput output: String, in directory: String) -> JobRecord? {
        let path = BatchManifest.resolve(JobRecord.path(forOutput: output), in: directory)
        guard let data = FileManager.default.contents(atPath: path), data.count < 16 << 20 else { return nil }
        return try? JSONDecoder().decode(JobRecord.self, from: data)
    }

    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try! encoder.encode(self)) + Data("\n".utf8)
    }
}
