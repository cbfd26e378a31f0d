import AdDecisioning
import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

/// What a render does to its sources' loudness (`render --loudness content|TARGET|off`).
public enum LoudnessNormalisation: Hashable, Sendable {
    /// Every sound as it is: the output's sound is what it was before renders normalised, byte for byte.
    case off
    /// Each ad brought to the content's loudness; the content left as it is (limited only if it peaks too high).
    case content
    /// The content and each ad brought to this loudness (LUFS).
    case lufs(Double)

    /// The targets a render accepts (LUFS): from −60 up to full scale. Under −60 a render cannot keep its promise:
    /// at −70, BS.1770's absolute gate, the output's blocks are gated out (its loudness is undefined), and its sound
    /// lies under −60 dBFS, which verify hears as silence. A target near full scale is accepted: the limiter keeps
    /// the peaks under the ceiling and the timeline records the loudness it reached (`SourceLoudness.reached`).
    public static let targetRange = -60.0...0.0

    /// The normalisation of a request that does not say: `content` when its plan has ads or its screen may present
    /// a video full-screen ad (whose sound replaces the content's), else `off`.
    public static func `default`(plan: AdPlan, screenAds: ScreenAdRun? = nil) -> LoudnessNormalisation {
        let videoCover = screenAds?.fullScreenChanges.contains {
            if case .video? = $0.creative?.content { return true }
            return false
        } ?? false
        return plan.breaks.contains { !$0.ads.isEmpty } || videoCover ? .content : .off
    }

    /// What the timeline says of it; `nil` for `off`.
    var timelineTarget: Timeline.Normalisation.Target? {
        switch self {
        case .off: nil
        case .content: .content
        case .lufs(let value): .lufs(value)
        }
    }
}

/// One source's gain decision: the pure rule between measuring and playing.
struct LoudnessDecision: Hashable, Sendable {
    var measure: Timeline.SourceLoudness.Measure
    /// What the source is brought to (LUFS); `nil` when it is left as it is.
    var target: Double?
    /// The static gain (dB): `target − measured`, or 0.
    var gain: Double

    /// Gains over this (dB, either way) are logged (`LOG`, `loudnessGainLarge`).
    static let largeGain = 10.0

    /// Integrated loudness stands for a source of 3 s or more with a reading; the highest momentary loudness for a
    /// shorter one (or one whose every block was gated out); nothing for silence.
    static func measure(integrated: Double?, maxMomentary: Double?, duration: MediaDuration) -> Timeline.SourceLoudness.Measure {
        if duration >= Loudness.shortestGated, let integrated { return .integrated(integrated) }
        if let maxMomentary { return .momentary(maxMomentary) }
        if let integrated { return .integrated(integrated) }
        return .silent
    }

    /// Brings `measure` to `target` (nothing to bring, or nothing to bring it to: 0 dB).
    init(measure: Timeline.SourceLoudness.Measure, target: Double?) {
        self.measure = measure
        if let measured = measure.lufs, let target {
            self.target = target
            gain = target - measured
        } else {
            self.target = nil
            gain = 0
        }
    }
}
