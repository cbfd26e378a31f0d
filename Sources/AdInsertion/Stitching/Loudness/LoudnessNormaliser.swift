import AdCore
import Foundation
import MediaCore
import VideoPipeline

/// Measures each source of a normalised render once, before it plays, and sets the gain and limiter its sound is
/// read through (`MediaSource.soundGain`); keeps the timeline's records and the notes the event log gets.
///
/// What is measured is the source's sound conformed to the output's rate and channels (`LoudnessAnalysis.measure(
/// source:format:)`), the very samples the gain multiplies: a downmix changes loudness, and the ad must match the
/// content as heard in the output, not as mastered.
final class LoudnessNormaliser {
    let normalisation: LoudnessNormalisation
    let format: OutputFormat
    /// What ads are brought to (LUFS): the target, or in `content` mode the content's loudness; `nil` when there is
    /// nothing to bring them to (silent content).
    let adTarget: Double?
    private(set) var records: [Timeline.SourceLoudness] = []
    private var gains: [AdReference: SoundGain?] = [:]
    private var notes: [Note] = []

    /// A `LOG` line the event log gets: for the content at the render's start, for an ad before its `LOADED`.
    struct Note: Hashable {
        var ad: AdReference?
        var reason: SessionEventReason
        var message: String
    }

    /// Measures the content and sets its gain.
    /// - Throws: `MediaError` when its sound cannot be read or measured.
    init(_ normalisation: LoudnessNormalisation, content: MediaSource, format: OutputFormat) throws(MediaError) {
        precondition(normalisation != .off)
        self.normalisation = normalisation
        self.format = format
        let measured = try LoudnessNormaliser.measure(content.path, format: format)
        let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
        switch normalisation {
        case .content: adTarget = measure.lufs
        case .lufs(let value): adTarget = value
        case .off: adTarget = nil
        }
        let decision = LoudnessDecision(measure: measure, target: normalisation == .content ? nil : adTarget)
        content.soundGain = try record(decision, report: measured, source: content.path, ad: nil)
    }

    /// Sets the gain of an ad's source, measuring it the first time that ad is opened.
    func prepare(_ source: MediaSource, ad: AdReference) throws(MediaError) {
        if let known = gains[ad] {
            source.soundGain = known
            return
        }
        let measured = try LoudnessNormaliser.measure(source.path, format: format)
        let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
        let gain = try record(LoudnessDecision(measure: measure, target: adTarget), report: measured, source: source.path, ad: ad)
        gains[ad] = .some(gain)
        source.soundGain = gain
    }

    /// The notes since the last call, in order.
    func takeNotes() -> [Note] {
        defer { notes.removeAll() }
        return notes
    }

    var timeline: Timeline.Normalisation? {
        normalisation.timelineTarget.map { Timeline.Normalisation(target: $0, ceiling: SoundGain.ceiling, sources: records) }
    }

    private static func measure(_ path: String, format: OutputFormat) throws(MediaError) -> LoudnessAnalysis.SourceReport? {
        try LoudnessAnalysis.measure(source: path, format: format)
    }

    private func record(_ decision: LoudnessDecision, report: LoudnessAnalysis.SourceReport?, source path: String,
                        ad: AdReference?) throws(MediaError) -> SoundGain? {
        let gain = report.map { SoundGain(decibels: decision.gain, peaks: $0.peaks) }
        records.append(Timeline.SourceLoudness(
            source: path, breakIndex: ad?.breakIndex, adIndex: ad?.adIndex, measure: decision.measure,
            integrated: report?.loudness.integrated, truePeak: report?.loudness.truePeak, target: decision.target,
            gain: decision.gain, limited: gain?.isLimiting ?? false))
        let who = ad.map { "break \($0.breakIndex) ad \($0.adIndex)" } ?? "the content"
        if case .momentary(let value) = decision.measure {
            notes.append(Note(ad: ad, reason: .loudnessShortSource, message: "\(who) (\(path)): under 3 s of sound, "
                + "measured by its highest momentary loudness, \(LoudnessNormaliser.text(value)) LUFS"))
        }
        if abs(decision.gain) > LoudnessDecision.largeGain {
            notes.append(Note(ad: ad, reason: .loudnessGainLarge, message: "\(who) (\(path)): gain "
                + "\(LoudnessNormaliser.signed(decision.gain)) dB, from \(LoudnessNormaliser.text(decision.measure.lufs ?? 0)) "
                + "to \(LoudnessNormaliser.text(decision.target ?? 0)) LUFS"))
        }
        return gain
    }

    /// One decimal, as loudness meters show it.
    static func text(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths == 0 ? "0.0" : String(format: "%.1f", tenths / 10)
    }

    static func signed(_ value: Double) -> String { (value > 0 ? "+" : "") + text(value) }
}

extension LoudnessDecision {
    static func measure(loudness: Loudness) -> Timeline.SourceLoudness.Measure {
        measure(integrated: loudness.integrated, maxMomentary: loudness.maxMomentary, duration: loudness.duration)
    }
}
