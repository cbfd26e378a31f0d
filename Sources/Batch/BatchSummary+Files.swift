import Foundation
import MediaCore

extension BatchSummary {
    /// Writes the summary to `path` and the JUnit report to `junit` together: both appear, or neither changes.
    public func write(to path: String, junit: String?) throws(AtomicFile.Failure) {
        var files = [try AtomicFile(destination: path)]
        try files[0].write(json())
        if let junit {
            files.append(try AtomicFile(destination: junit))
            try files[1].write(Data(JUnitReport.xml(self).utf8))
        }
        try AtomicFile.commitAll(files)
    }

    /// Where a batch writes its summary when not told: `titles.jsonl` → `titles.summary.json`, and
    /// `titles.shard-0-of-3.summary.json` for a shard.
    public static func defaultPath(forManifest manifest: String, shard: BatchShard?) -> String {
        var base = manifest
        for suffix in [".jsonl", ".ndjson", ".json"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        return base + (shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? "") + ".summary.json"
    }
}
