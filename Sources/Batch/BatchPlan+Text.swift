extension BatchPlan {
    /// What the batch is about to do, for its first line on standard error: `3 of 8 lines (shard 0/3), 2 to render,
    /// 2 at a time with 4 threads each (8 processors available)`.
    public func headline(concurrency: Int, threads: Int, processors: Int) -> String {
        let lines = steps.count
        return (shard.map { "\(lines) of \(manifest.entries.count) lines (shard \($0))" } ?? "\(lines) line\(lines == 1 ? "" : "s")")
            + ", \(renders.count) to render, \(concurrency) at a time with \(threads) thread\(threads == 1 ? "" : "s") each"
            + " (\(processors) processor\(processors == 1 ? "" : "s") available)"
    }

    /// `--dry-run`'s lines, one per line of the shard in manifest order: an invalid or up-to-date line as the batch
    /// would report it, a job to render with why (`to render   "a"  a.mp4  (its options changed)`), or one whose
    /// input is missing (`would fail  "b"  b.mp4  (/m/c.mp4 does not exist)`). Not escaped for a terminal yet
    /// (`PrintableText`).
    public var dryRunLines: [String] {
        steps.map { step in
            switch step {
            case .invalid(let error): BatchSummary.JobResult(invalid: error).statusLine
            case .upToDate(let job, let stored): BatchSummary.JobResult(upToDate: job, stored: stored).statusLine
            case .render(let render):
                if let file = render.missingInput {
                    "would fail  \(quotedID(render.job.id))  \(render.job.output)  (\(file) does not exist)"
                } else {
                    "to render   \(quotedID(render.job.id))  \(render.job.output)  (\(render.staleness))"
                }
            }
        }
    }
}
