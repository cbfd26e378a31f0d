import Foundation

/// A JUnit XML report of a batch, the format CI systems (GitLab, Jenkins, GitHub actions' reporters) read: one
/// `<testcase>` per job, `<failure>` for a failed job or an invalid line, `<skipped>` for a job that did not run.
public enum JUnitReport {
    public static func xml(_ summary: BatchSummary, name: String = "pipctl batch") -> String {
        let jobs = summary.jobs
        let failures = summary.failures
        let skipped = jobs.filter { !$0.status.isFailure && $0.status != .rendered }.count
        let time = jobs.compactMap(\.seconds).reduce(0, +)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\(attribute(name)) tests=\"\(jobs.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
        out += "  <testsuite name=\(attribute(summary.manifest)) tests=\"\(jobs.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
        for job in jobs {
            out += "    <testcase classname=\(attribute(summary.manifest)) name=\(attribute(job.name)) time=\"\(seconds(job.seconds ?? 0))\""
            switch job.status {
            case .rendered:
                out += "/>\n"
            case .failed, .invalid:
                let message = job.error ?? job.verify.map { "verify: \($0.message)" } ?? job.status.rawValue
                let type = job.status == .invalid ? "invalid" : (job.verify?.passed == false && job.exitCode == 0 ? "verify" : "render")
                out += ">\n      <failure type=\"\(type)\" message=\(attribute(message))>\(text(detail(job)))</failure>\n    </testcase>\n"
            case .upToDate, .interrupted, .notStarted:
                out += ">\n      <skipped message=\(attribute(job.status.rawValue))/>\n    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private static func detail(_ job: BatchSummary.JobResult) -> String {
        var lines = ["line \(job.line)"]
        if let output = job.output { lines.append("output: \(output)") }
        if let code = job.exitCode { lines.append("exit status: \(code)") }
        if let error = job.error { lines.append(error) }
        if let verify = job.verify { lines.append("verify: \(verify.passed ? "passed" : "failed"): \(verify.message)") }
        return lines.joined(separator: "\n")
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Character data with XML's five escapes; characters XML 1.0 cannot hold become U+FFFD.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                let allowed = (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    private static func attribute(_ value: String) -> String {
        "\"" + text(value).replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
            .replacingOccurrences(of: "\t", with: "&#9;") + "\""
    }
}
