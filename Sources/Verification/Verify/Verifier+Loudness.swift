import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// What verify measured of a normalised render's ads (`render --loudness content|TARGET`): each ad's play in the
/// output (a linear ad's, or a video full-screen ad's whose sound replaced the covered player's), measured by
/// BS.1770-4 / EBU R128 (libebur128), against the target its timeline records.
public struct LoudnessCheck: Codable, Hashable, Sendable {
    /// How far an ad's loudness may lie from its target (LU), as EBU R128 allows a programme: ±1 LU.
    public static let tolerance = 1.0
    /// The highest true peak allowed (dBTP), EBU R128's.
    public static let maxTruePeak = -1.0

    public var segments: [Segment]

    /// One ad's play: consecutive segments of that ad, or of one video full-screen ad covering the player.
    public struct Segment: Codable, Hashable, Sendable {
        /// Whose play it is.
        public enum Ad: Hashable, Sendable {
            case linear(breakIndex: Int, adIndex: Int)
            case fullScreen(Timeline.SourceLoudness.FullScreen)
        }

        public var ad: Ad
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
        /// Where the render's limiter took loudness away, the loudness the ad reached (LUFS): what is checked
        /// instead of `target` (`Timeline.SourceLoudness.reached`).
        public var reached: Double?
        /// The output's true peak over the play (dBTP); `nil` for silence.
        public var truePeak: Double?
        public var ok: Bool

        public init(ad: Ad, outStartFrame: Int64, outEndFrame: Int64, measure: String, measured: Double?, target: Double?,
                    reached: Double? = nil, truePeak: Double?, ok: Bool) {
            self.ad = ad
            self.outStartFrame = outStartFrame
            self.outEndFrame = outEndFrame
            self.measure = measure
            self.measured = measured
            self.target = target
            self.reached = reached
            self.truePeak = truePeak
            self.ok = ok
        }

        enum CodingKeys: String, CodingKey {
            // Beside the ad's own keys (`Ad`'s).
            case outStartFrame, outEndFrame, measure, measured, target, reached, truePeak, ok
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            ad = try Ad(from: decoder)
            outStartFrame = try c.decode(Int64.self, forKey: .outStartFrame)
            outEndFrame = try c.decode(Int64.self, forKey: .outEndFrame)
            measure = try c.decode(String.self, forKey: .measure)
            measured = try c.decodeIfPresent(Double.self, forKey: .measured)
            target = try c.decodeIfPresent(Double.self, forKey: .target)
            reached = try c.decodeIfPresent(Double.self, forKey: .reached)
            truePeak = try c.decodeIfPresent(Double.self, forKey: .truePeak)
            ok = try c.decode(Bool.self, forKey: .ok)
        }

        public func encode(to encoder: Encoder) throws {
            try ad.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(outStartFrame, forKey: .outStartFrame)
            try c.encode(outEndFrame, forKey: .outEndFrame)
            try c.encode(measure, forKey: .measure)
            try c.encodeIfPresent(measured, forKey: .measured)
            try c.encodeIfPresent(target, forKey: .target)
            try c.encodeIfPresent(reached, forKey: .reached)
            try c.encodeIfPresent(truePeak, forKey: .truePeak)
            try c.encode(ok, forKey: .ok)
        }

        /// The play as the report names it (`break 0 ad 1 (frames 90–210)`).
        var name: String { Self.name(of: ad, outStartFrame: outStartFrame, outEndFrame: outEndFrame) }

        /// What is wrong with it (none when `ok`).
        var problems: [VerifyFinding] {
            var problems: [VerifyFinding] = []
            if let target, let measured, abs(measured - (reached ?? target)) > LoudnessCheck.tolerance {
                problems.append(.init(.loudnessLevel(ad: ad, outStartFrame: outStartFrame, outEndFrame: outEndFrame, measure: measure,
                                                     measured: measured, target: target, reached: reached)))
            }
            if let truePeak, truePeak > LoudnessCheck.maxTruePeak {
                problems.append(.init(.truePeak(ad: ad, outStartFrame: outStartFrame, outEndFrame: outEndFrame, truePeak: truePeak,
                                                ceiling: LoudnessCheck.maxTruePeak)))
            }
            return problems
        }
    }

    /// One line per ad, for the text report.
    var lines: [String] {
        segments.map { s in
            let measured = s.measure == LoudnessCheck.tooShort ? "under 0.4 s, too short to measure"
                : s.measured.map { "\(LoudnessCheck.text($0)) LUFS" } ?? "silent"
            let target = (s.target.map { ", target \(LoudnessCheck.text($0)) LUFS" } ?? ", no target")
                + (s.reached.map { ", limited to \(LoudnessCheck.text($0)) LUFS" } ?? "")
            let peak = s.truePeak.map { ", true peak \(LoudnessCheck.text($0)) dBTP" } ?? ""
            return "loudness: \(s.name): \(s.measure) \(measured)\(target)\(peak)\(s.ok ? "" : " — FAILED")"
        }
    }

    static func text(_ value: Double) -> String { String(format: "%.1f", value) }

    /// `value`, known to be over `limit`, with as many decimals (one to four) as it takes to read over it: −0.97
    /// dBTP over −1 is "-0.97", not "-1.0".
    static func text(_ value: Double, over limit: Double) -> String {
        for digits in 1...4 {
            let shown = String(format: "%.\(digits)f", value)
            if let read = Double(shown), read > limit { return shown }
        }
        return String(format: "%.4f", value)
    }

    /// The measure of a play shorter than the momentary window (400 ms): not judged.
    static let tooShort = "tooShort"
}

/// `{"break": 0, "ad": 1}` for a linear ad, `{"fullScreen": {"request", "scene"}}` for a full-screen one: the keys a
/// segment of the check writes it with.
extension LoudnessCheck.Segment.Ad: Codable {
    enum CodingKeys: String, CodingKey { case breakIndex = "break", adIndex = "ad", fullScreen }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let fullScreen = try c.decodeIfPresent(Timeline.SourceLoudness.FullScreen.self, forKey: .fullScreen) {
            self = .fullScreen(fullScreen)
        } else {
            self = .linear(breakIndex: try c.decode(Int.self, forKey: .breakIndex), adIndex: try c.decode(Int.self, forKey: .adIndex))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .linear(let b, let a):
            try c.encode(b, forKey: .breakIndex)
            try c.encode(a, forKey: .adIndex)
        case .fullScreen(let fullScreen): try c.encode(fullScreen, forKey: .fullScreen)
        }
    }
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
                         problems: inout [VerifyFinding]) throws(Failure) -> LoudnessCheck? {
        guard let normalisation = timeline.loudness else { return nil }
        let clock = SampleClock(sampleRate: Int64(timeline.output.sampleRate), frameRate: rate)
        // Consecutive segments of one ad are one play: a linear ad's segments, or those in which a video full-screen
        // ad the render measured (its record names the scene it covered) is drawn over that scene.
        var plays: [(ad: LoudnessCheck.Segment.Ad, frames: Range<Int64>)] = []
        let covers = normalisation.sources.compactMap { record in record.fullScreen.map { (record.source, $0) } }
        for segment in timeline.segments {
            let ad: LoudnessCheck.Segment.Ad
            if segment.kind == .ad, let b = segment.breakIndex, let a = segment.adIndex {
                ad = .linear(breakIndex: b, adIndex: a)
            } else if let cover = covers.first(where: { source, fullScreen in
                (segment.screen.layers ?? []).contains {
                    if case .fullScreen(let area, .video(source, _)) = $0 { area.scene == fullScreen.scene } else { false }
                }
            }) {
                ad = .fullScreen(cover.1)
            } else {
                continue
            }
            if let last = plays.last, last.ad == ad, last.frames.upperBound == segment.outStartFrame {
                plays[plays.count - 1].frames = last.frames.lowerBound..<segment.outEndFrame
            } else {
                plays.append((ad, segment.outStartFrame..<segment.outEndFrame))
            }
        }
        guard !plays.isEmpty else { return LoudnessCheck(segments: []) }
        let sampleRate = Int64(timeline.output.sampleRate)
        // Each play without one AAC frame (1024 samples) at either cut: the encoder's transition across a hard cut
        // rings (a transient at an ad's first samples came out 1.8 dB over its source's true peak) and belongs to
        // neither source, so it is neither the gain's doing nor the limiter's to answer for. A play shorter than
        // four AAC frames is nearly all transition: it is measured whole, and its true peak is not judged.
        let margin = Self.loudnessCutMargin
        // Two spans a play: the whole of it for its loudness (as the render measured the source, from its first
        // sample: a 0.1 s sound lost a fifth of itself to the margin), and without the margin for its true peak.
        let spans = plays.flatMap { play in
            let start = clock.sample(atFrame: play.frames.lowerBound), end = clock.sample(atFrame: play.frames.upperBound)
            let edge = end - start >= 4 * margin ? margin : 0
            func time(_ sample: Int64) -> MediaTime { MediaTime(seconds: Rational(sample, sampleRate)) }
            return [time(start)..<time(end), time(start + edge)..<time(end - edge)]
        }
        let report: LoudnessAnalysis.Report
        do { report = try LoudnessAnalysis.measure(file: path, spans: spans) } catch { throw .media(error) }
        var segments: [LoudnessCheck.Segment] = []
        for (i, play) in plays.enumerated() {
            let measured = report.spans[2 * i], inner = report.spans[2 * i + 1]
            let record: Timeline.SourceLoudness?
            switch play.ad {
            case .linear(let b, let a): record = normalisation.source(breakIndex: b, adIndex: a)
            case .fullScreen(let f): record = normalisation.sources.first { $0.fullScreen == f }
            }
            let momentary: Bool
            if case .momentary? = record?.measure { momentary = true } else { momentary = false }
            // Shorter than the momentary window (400 ms), a play has no loudness of its own to judge: any measure
            // of it is mostly its neighbours' sound or the window's silence.
            let length = clock.samples(fromFrame: play.frames.lowerBound, toFrame: play.frames.upperBound)
            let measurable = length * 5 >= sampleRate * 2
            var segment = LoudnessCheck.Segment(
                ad: play.ad, outStartFrame: play.frames.lowerBound,
                outEndFrame: play.frames.upperBound,
                measure: !measurable ? LoudnessCheck.tooShort : momentary ? "momentary" : "integrated",
                measured: !measurable ? nil : momentary ? measured.maxMomentary : measured.integrated, target: record?.target,
                reached: record?.reached,
                // A play too short to measure has no true peak of its own either: its cuts' ringing is most of it (a
                // 3-frame play in a PiP and seek storm failed by it).
                truePeak: measurable && length >= 4 * margin ? inner.truePeak : nil,
                ok: true)
            let found = segment.problems
            segment.ok = found.isEmpty
            problems += found
            segments.append(segment)
        }
        return LoudnessCheck(segments: segments)
    }
}
