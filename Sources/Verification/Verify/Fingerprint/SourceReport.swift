import Foundation

/// What `pipctl verify --sources` found by comparing the output's pictures and sound with the timeline's sources.
public struct SourceReport: Codable, Hashable, Sendable {
    /// The three outcomes; each has its own exit status in `pipctl verify` (0, 1, 3).
    public enum Verdict: String, Codable, Hashable, Sendable {
        /// Every frame that could be told apart shows what it should, and the sound is in place.
        case passed
        /// At least one problem.
        case failed
        /// No problem, but some segment has no frame that could be identified (static or black pictures): a
        /// render of such frames proves nothing.
        case notVerifiable
    }

    public var verdict: Verdict
    public var output: String
    public var frames: Int64
    /// Per segment: how many frames were identified, how many were ambiguous, and how sure the matches are.
    public var segments: [SegmentResult]
    /// Every audio window compared with its source.
    public var audio: [AudioAlignment]
    /// Each problem found, the first difference first: its code, subject and sentence.
    public var findings: [VerifyFinding]
    /// What could not be checked (static or black runs, periodic or silent sound), in words.
    public var notes: [String]
    /// The screen layers of a device render checked from the pixels (`Verifier+Layers`).
    public var layers: LayerReport
    /// Each ad's loudness and true peak in a normalised render; absent when the render was not normalised.
    public var loudness: LoudnessCheck? = nil

    public var passed: Bool { verdict == .passed }

    /// Each problem in words, the first difference first: the findings' sentences, as the text report writes them
    /// (and `verify --json` too, beside `findings`).
    public var problems: [String] { findings.map(\.description) }

    public struct SegmentResult: Codable, Hashable, Sendable {
        public var segment: Int
        public var name: String
        public var outStartFrame: Int64
        public var outEndFrame: Int64
        /// Frames matched to one source frame with a clear margin.
        public var identified: Int
        /// Frames whose candidates look alike (static, black or flat pictures): not judged.
        public var ambiguous: Int
        /// Frames that look like none of the candidates.
        public var unmatched: Int
        /// The lowest confidence among identified frames: `(second best − best) / (second best + best)` of the
        /// signature distances, 1 for a perfect match against distinct neighbours; `nil` when none was identified.
        public var lowestConfidence: Double?
        /// The largest distance of an identified frame to its best match (0 identical, about 2 unrelated).
        public var largestDistance: Double?
    }

    public struct AudioAlignment: Codable, Hashable, Sendable {
        public enum Place: String, Codable, Hashable, Sendable { case start, end }
        public var segment: Int
        /// The segment's start or its end: the window lies just after or just before that splice.
        public var place: Place
        /// The output frame at the splice.
        public var frame: Int64
        /// How late the output's sound is against its source (negative: early), in milliseconds; `nil` when the
        /// window could not be aligned (silent or periodic sound).
        public var offsetMilliseconds: Double?
        /// The normalised correlation at the best lag (1: the same sound).
        public var correlation: Double?
        public var ok: Bool
    }

    /// A short report for people: a verdict line, then the problems and notes.
    public var text: String {
        var lines: [String] = []
        switch verdict {
        case .passed:
            let confidence = segments.compactMap(\.lowestConfidence).min() ?? 0
            let worst = audio.compactMap(\.offsetMilliseconds).map(abs).max()
            let aligned = audio.filter { $0.offsetMilliseconds != nil }.count
            lines.append("verify \(output) --sources: OK — \(frames) frames in \(segments.count) segments match their sources (lowest confidence \(String(format: "%.2f", confidence)))"
                + (worst.map { ", \(aligned) audio windows within \(String(format: "%.1f", $0)) ms" } ?? "")
                + layers.summary)
            lines += (loudness?.lines ?? []).map { "  " + $0 }
        case .failed:
            lines.append("verify \(output) --sources: FAILED — \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            lines += problems.prefix(20).map { "  " + $0 }
            if problems.count > 20 { lines.append("  … and \(problems.count - 20) more") }
        case .notVerifiable:
            if segments.contains(where: { $0.identified == 0 && $0.outEndFrame > $0.outStartFrame }) {
                lines.append("verify \(output) --sources: NOT VERIFIABLE — the pictures are static or black, so which frame is shown cannot be told")
            } else {
                lines.append("verify \(output) --sources: NOT VERIFIABLE — some screen layers cannot be checked" + layers.summary)
            }
        }
        lines += notes.prefix(20).map { "  note: " + $0 }
        lines += layers.notVerifiable.map { "  not verifiable: " + $0 }
        return lines.joined(separator: "\n")
    }
}
