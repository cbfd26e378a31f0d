import Foundation

/// The batch's lines for people: each job's line as it ends, the counts, the closing line and the failure.
/// Not escaped for a terminal yet (`PrintableText`).
extension BatchSummary {
    /// `2 rendered, 1 up to date, 1 failed`: the statuses that occur, in `Status` order.
    public var countsText: String {
        let counts = counts
        return Status.allCases.compactMap { counts[$0]! > 0 ? "\(counts[$0]!) \($0.words)" : nil }.joined(separator: ", ")
    }

    /// The batch's last line on standard error: `4 jobs (shard 0/2): 3 rendered, 1 failed; summary: s.json; junit: j.xml`.
    public func closingLine(summaryPath: String, junit: String?) -> String {
        "\(jobs.count) job\(jobs.count == 1 ? "" : "s")" + (shard.map { " (shard \($0))" } ?? "") + ": " + countsText
            + "; summary: \(summaryPath)" + (junit.map { "; junit: \($0)" } ?? "")
    }

    /// `1 of 4 jobs failed; first: b: exit status 1`, or nil when none failed.
    public var failureMessage: String? {
        guard failures > 0 else { return nil }
        return "\(failures) of \(jobs.count) jobs failed; first: "
            + (jobs.first { $0.status.isFailure }.map { "\($0.name): \($0.error ?? $0.status.rawValue)" } ?? "")
    }
}

extension BatchSummary.Status {
    /// `up to date`.
    public var words: String {
        switch self {
        case .rendered: "rendered"
        case .upToDate: "up to date"
        case .failed: "failed"
        case .invalid: "invalid"
        case .interrupted: "interrupted"
        case .notStarted: "not started"
        }
    }
}

extension BatchSummary.JobResult {
    /// One line per job: `rendered    "title-fr"  out/title-fr.mp4  1234 frames  12.3 s  verify passed`.
    public var statusLine: String {
        let words = status.words.padding(toLength: 11, withPad: " ", startingAt: 0)
        var parts = [words + " " + (id.map(quotedID) ?? "line \(line)")]
        if let output, status != .invalid { parts.append(output) }
        if let frames { parts.append("\(frames) frames") }
        if let seconds, status == .rendered { parts.append(String(format: "%.1f s", seconds)) }
        if let verify, verify.passed { parts.append("verify passed") }
        if let error { parts.append(error) }
        return parts.joined(separator: "  ")
    }

    /// An invalid line's result.
    init(invalid error: BatchLineError) {
        self.init(id: error.id, line: error.line, status: .invalid, error: error.description)
    }

    /// A skipped job's result, with the frames its record noted.
    init(upToDate job: BatchJob, stored: JobRecord) {
        self.init(id: job.id, line: job.line, status: .upToDate, output: job.output, frames: stored.frames)
    }
}

/// `"id"` with quotes and backslashes escaped, as the batch's lines name a job (control characters are left to
/// `PrintableText`).
func quotedID(_ id: String) -> String {
    "\"" + id.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
