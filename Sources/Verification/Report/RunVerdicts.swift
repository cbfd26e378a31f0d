import AdPlayback

/// Verify's verdict on each run (segment) of a render: the findings `Verifier` made, each given to the segments
/// whose output frames its subject is (frames, or a layer at a frame), as its sentence; a finding about anything
/// else (the sound is missing, the frame count differs, a golden's difference) belongs to the whole render.
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

    public init(summary: String, passed: Bool, findings: [VerifyFinding], timeline: Timeline) {
        self.summary = summary
        self.passed = passed
        segments = Array(repeating: [], count: timeline.segments.count)
        general = []
        for finding in findings {
            let problem = finding.description
            guard let frames = Self.frames(of: finding.subject) else { general.append(problem); continue }
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
                  passed: report.passed && !report.notVerifiable, findings: report.findings, timeline: timeline)
    }

    /// The output frames a finding is about, if it is about frames.
    static func frames(of subject: VerifyFinding.Subject) -> ClosedRange<Int64>? {
        switch subject {
        case .frames(let first, let last): first...max(first, last)
        case .layer(let frame, _): frame...frame
        case .render, .ad, .adBreak, .playlistSegment, .golden: nil
        }
    }
}
