import AdCore
import Foundation
import MediaCore
import VideoPipeline

/// What verify measured of a normalised render's ads (`render --loudness content|TARGET`): each ad's play in the
/// output, measured by BS.1770-4 / EBU R128 (libebur128), against the target its timeline records.
public struct LoudnessCheck: Codable, Hashable, Sendable {
    /// How far an ad's loudness may lie from its target (LU), as EBU R128 allows a programme: ±1 LU.
    public static let tolerance = 1.0
    /// The highest true peak allowed (dBTP), EBU R128's.
    public static let maxTruePeak = -1.0

    public var segments: [Segment]

    /// One ad's play: consecutive segments of that ad.
    public struct Segment: Codable, Hashable, Sendable {
        public var breakIndex: Int
        public var adIndex: Int
        public var outStartFrame: Int64
        /// Exclusive.
        public var outEndFrame: Int64
        /// `integrated`, or `momentary` (the highest momentary loudness) for a source too short to gate, as the
        /// render measured it.
        public var measure: String
        /// The output's loudness over the play by that measure (LUFS); `nil` for silence.
        public var measured: Double?
        /// The loudness the render brought the ad to (LUFS); `nil` when it left the ad as it was (not checked).
        public var target: Double?
        /// The output's true peak over the play (dBTP); `nil` for silence.
        public var truePeak: Double?
        public var ok: Bool

        enum CodingKeys: String, CodingKey {
            case breakIndex = "break", adIndex = "ad", outStartFrame, outEndFrame, measure, measured, target, truePeak, ok
        }

        var name: String { "break \(breakIndex) ad \(adIndex) (frames \(outStartFrame)–\(outEndFrame))" }

        /// What is wrong with it, in words (empty when `ok`).
        var problems: [String] {
            var problems: [String] = []
            if let target, let measured, abs(measured - target) > LoudnessCheck.tolerance {
                problems.append("loudness: \(name): \(measure) \(LoudnessCheck.text(measured)) LUFS, target \(LoudnessCheck.text(target)) LUFS: \(LoudnessCheck.text(abs(measured - target))) LU off (±1 LU allowed)")
            }
            if let truePeak, truePeak > LoudnessCheck.maxTruePeak {
                problems.append("loudness: \(name): true peak \(LoudnessCheck.text(truePeak)) dBTP is over -1.0 dBTP")
            }
            return problems
        }
    }

    /// One line per ad, for the text report.
    var lines: [String] {
        segments.map { s in
            let measured = s.measure == LoudnessCheck.tooShort ? "under 0.4 s, too short to measure"
                : s.measured.map { "\(LoudnessCheck.text($0)) LUFS" } ?? "silent"
            let target = s.target.map { ", target \(LoudnessCheck.text($0)) LUFS" } ?? ", no target"
            let peak = s.truePeak.map { ", true peak \(LoudnessCheck.text($0)) dBTP" } ?? ""
            return "loudness: \(s.name): \(s.measure) \(measured)\(target)\(peak)\(s.ok ? "" : " — FAILED")"
        }
    }

    static func text(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The measure of a play shorter than the momentary window (400 ms): not judged.
    static let tooShort = "tooShort"
}

extension Verifier {
    /// The samples left out of a play's measurement at each of its cuts: one AAC frame.
    static let loudnessCutMargin: Int64 = 1024

    /// Measures each ad's play in the output against its target, when the timeline records a normalisation; `nil`
    /// for a render made with `--loudness off` or before renders normalised.
    ///
    /// The plays are read from the timeline's segments (output samples `[A(start), A(end))`, exact), the figures
    /// from the output's own sound: an independent reading of what the renderer did, not its notes.
    static func loudness(_ path: String, timeline: Timeline, rate: FrameRate,
                         problems: inout [String]) throws(Failure) -> LoudnessCheck? {
        guard let normalisation = timeline.loudness else { return nil }
        let clock = SampleClock(sampleRate: Int64(timeline.output.sampleRate), frameRate: rate)
        // Consecutive segments of one ad are one play.
        var plays: [(breakIndex: Int, adIndex: Int, frames: Range<Int64>)] = []
        for segment in timeline.segments where segment.kind == .ad {
            guard let b = segment.breakIndex, let a = segment.adIndex else { continue }
            if let last = plays.last, last.breakIndex == b, last.adIndex == a, last.frames.upperBound == segment.outStartFrame {
                plays[plays.count - 1].frames = last.frames.lowerBound..<segment.outEndFrame
            } else {
                plays.append((b, a, segment.outStartFrame..<segment.outEndFrame))
            }
        }
        guard !plays.isEmpty else { return LoudnessCheck(segments: []) }
        let sampleRate = Int64(timeline.output.sampleRate)
        // Each play without one AAC frame (1024 samples) at either cut: the encoder's transition across a hard cut
        // rings (a transient at an ad's first samples came out 1.8 dB over its source's true peak) and belongs to
        // neither source, so it is neither the gain's doing nor the limiter's to answer for. A play shorter than
        // four AAC frames is nearly all transition: it is measured whole, and its true peak is not judged.
        let margin = Self.loudnessCutMargin
        let spans = plays.map { play in
            let start = clock.sample(atFrame: play.frames.lowerBound), end = clock.sample(atFrame: play.frames.upperBound)
            let edge = end - start >= 4 * margin ? margin : 0
            return MediaTime(seconds: Rational(start + edge, sampleRate)) ..< MediaTime(seconds: Rational(end - edge, sampleRate))
        }
        let report: LoudnessAnalysis.Report
        do { report = try LoudnessAnalysis.measure(file: path, spans: spans) } catch { throw .media(error) }
        var segments: [LoudnessCheck.Segment] = []
        for (play, measured) in zip(plays, report.spans) {
            let record = normalisation.source(breakIndex: play.breakIndex, adIndex: play.adIndex)
            let momentary: Bool
            if case .momentary? = record?.measure { momentary = true } else { momentary = false }
            // Shorter than the momentary window (400 ms), a play has no loudness of its own to judge: any measure
            // of it is mostly its neighbours' sound or the window's silence.
            let length = clock.samples(fromFrame: play.frames.lowerBound, toFrame: play.frames.upperBound)
            let measurable = length * 5 >= sampleRate * 2
            var segment = LoudnessCheck.Segment(
                breakIndex: play.breakIndex, adIndex: play.adIndex, outStartFrame: play.frames.lowerBound,
                outEndFrame: play.frames.upperBound,
                measure: !measurable ? LoudnessCheck.tooShort : momentary ? "momentary" : "integrated",
                measured: !measurable ? nil : momentary ? measured.maxMomentary : measured.integrated, target: record?.target,
                truePeak: clock.samples(fromFrame: play.frames.lowerBound, toFrame: play.frames.upperBound) >= 4 * margin ? measured.truePeak : nil,
                ok: true)
            let found = segment.problems
            segment.ok = found.isEmpty
            problems += found
            segments.append(segment)
        }
        return LoudnessCheck(segments: segments)
    }
}
