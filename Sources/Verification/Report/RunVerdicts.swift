import AdPlayback

/// Verify's verdict on each run (segment) of a render: the problems `Verifier` found, each given to the segments
/// whose frames it names (`output frame N`, `output frames A–B`); a problem that names no frame (the sound is
/// missing, the frame count differs) belongs to the whole render.
public struct RunVerdicts: Hashable, Sendable {
    /// The whole verdict, as verify's first line says it.
    public var summary: String
    public var passed: Bool
    /// One list per timeline segment.
    public var segments: [[String]]
    /// Problems that name no frame.
    public var general: [String]
    /// Why verify could not check the render (its sources carry no stamps, its output cannot be read), when it
    /// could not: then no run is OK or failed, each is "not checked".
    public var notChecked: String?

    public init(summary: String, passed: Bool, problems: [String], timeline: Timeline) {
        self.summary = summary
        self.passed = passed
        segments = Array(repeating: [], count: timeline.segments.count)
        general = []
        for problem in problems {
            guard let frames = Self.frames(named: problem) else { general.append(problem); continue }
            let hit = timeline.segments.indices.filter {
                timeline.segments[$0].outStartFrame <= frames.upperBound && frames.lowerBound < timeline.segments[$0].outEndFrame
            }
            if hit.isEmpty { general.append(problem) }
            for i in hit { segments[i].append(problem) }
        }
    }

    /// A verify that could not run, for the reason given: every run "not checked".
    public init(notChecked reason: String, timeline: Timeline) {
        summary = "verify could not check this render: " + reason
        passed = false
        segments = Array(repeating: [], count: timeline.segments.count)
        general = []
        notChecked = reason
    }

    /// Verify's report of the render, per run.
    public init(_ report: VerifyReport, timeline: Timeline) {
        self.init(summary: report.text.split(separator: "\n").first.map(String.init) ?? "",
                  passed: report.passed && !report.notVerifiable, problems: report.problems, timeline: timeline)
    }

    /// The frames `output frame N` or `output frames A–B` in `problem` name (A–B inclusive), if it names any.
    static func frames(named problem: String) -> ClosedRange<Int64>? {
        guard let found = problem.range(of: "output frame") else { return nil }
        var rest = problem[found.upperBound...]
        if rest.hasPrefix("s") { rest = rest.dropFirst() }
        rest = rest.drop { $0 == " " }
        let first = rest.prefix { $0.isASCII && $0.isNumber }
        guard let a = Int64(first) else { return nil }
        rest = rest.dropFirst(first.count)
        if let dash = rest.first, dash == "–" || dash == "-" {
            let second = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if let b = Int64(second), b >= a { return a...b }
        }
        return a...a
    }
}
