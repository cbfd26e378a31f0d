/// What `pipctl verify` found: what the output really shows, and every way it differs from what was promised.
public struct VerifyReport: Codable, Hashable, Sendable {
    /// True when every check held.
    public var passed: Bool
    public var output: String
    public var frames: Int64
    /// What the pixels show, as runs of one source going forward.
    public var shown: [ShownRun]
    /// Audio boundaries found beside the video boundaries they belong to.
    public var audioBoundaries: [AudioBoundary]
    /// Each problem found, the first difference first: its code, subject and sentence.
    public var findings: [VerifyFinding]
    /// Checks that could not be made (a picture too small to carry a readable stamp), in words.
    public var notes: [String]
    /// The screen layers of a device render checked from the pixels (`Verifier+Layers`).
    public var layers: LayerReport
    /// Each ad's loudness and true peak in a normalised render (`render --loudness`); absent for one made with
    /// `--loudness off` or before renders normalised, which are not checked for it.
    public var loudness: LoudnessCheck? = nil

    /// Each problem in words, the first difference first: the findings' sentences, as the text report writes them
    /// (and `verify --json` too, beside `findings`).
    public var problems: [String] { findings.map(\.description) }

    /// Passed, except for layers whose expected picture could not be made: `pipctl verify` exits 3.
    public var notVerifiable: Bool { passed && !layers.notVerifiable.isEmpty }

    public struct ShownRun: Codable, Hashable, Sendable {
        public var outStartFrame: Int64
        /// Exclusive.
        public var outEndFrame: Int64
        /// The stamp's source id; `nil` for frames without a readable stamp.
        public var source: String?
        public var firstIndex: Int?
        public var lastIndex: Int?
    }

    public struct AudioBoundary: Codable, Hashable, Sendable {
        /// The output frame at which the video changes source.
        public var frame: Int64
        /// The output sample where the video boundary lies.
        public var expectedSample: Int64
        /// Where the audio really changes, when found.
        public var foundSample: Int64?
        /// `found - expected` in video frames.
        public var offsetFrames: Double?
        public var ok: Bool
    }

    /// A short report for people: a verdict line, then the problems.
    public var text: String {
        var lines: [String] = []
        if notVerifiable {
            lines.append("verify \(output): NOT VERIFIABLE — \(frames) frames hold, but some screen layers cannot be checked" + layers.summary)
        } else if passed {
            let worst = audioBoundaries.compactMap(\.offsetFrames).map(abs).max() ?? 0
            lines.append("verify \(output): OK — \(frames) frames in \(shown.count) runs, \(audioBoundaries.count) audio boundaries within \(String(format: "%.2f", worst)) frames of the video"
                + layers.summary)
        } else {
            lines.append("verify \(output): FAILED — \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            lines += problems.prefix(20).map { "  " + $0 }
            if problems.count > 20 { lines.append("  … and \(problems.count - 20) more") }
        }
        if passed { lines += (loudness?.lines ?? []).map { "  " + $0 } }
        lines += notes.map { "  note: " + $0 }
        lines += layers.notVerifiable.map { "  not verifiable: " + $0 }
        return lines.joined(separator: "\n")
    }
}
