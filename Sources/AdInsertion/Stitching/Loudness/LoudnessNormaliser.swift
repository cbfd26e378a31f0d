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
        // In `content` mode the content keeps 0 dB and is never limited: its true peaks are not needed.
        let measured = try LoudnessAnalysis.measure(source: content.path, format: format, truePeak: normalisation != .content)
        let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
        switch normalisation {
        case .content: adTarget = measure.lufs
        case .lufs(let value): adTarget = value
        case .off: adTarget = nil
        }
        let decision = LoudnessDecision(measure: measure, target: normalisation == .content ? nil : adTarget)
        content.soundGain = try gain(decision, measured: measured, source: content.path, ad: nil)
    }

    /// Sets the gain of an ad's source, measuring it the first time that ad is opened.
    func prepare(_ source: MediaSource, ad: AdReference) throws(MediaError) {
        if let known = gains[ad] {
            source.soundGain = known
            return
        }
        let measured = try LoudnessAnalysis.measure(source: source.path, format: format, truePeak: adTarget != nil)
        let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
        let gain = try gain(LoudnessDecision(measure: measure, target: adTarget), measured: measured, source: source.path, ad: ad)
        gains[ad] = .some(gain)
        source.soundGain = gain
    }

    /// The source's gain and limiter, recorded with its notes; `nil` for a source left as it is (0 dB, or silent).
    ///
    /// A source at 0 dB whose true peaks are under the ceiling is not touched. The limiter is planned
    /// from the blocks' true peaks, which cost most of a measurement (4x oversampling), so they are measured only
    /// for a source that may be gained: every source but the content in `content` mode (the content when it is
    /// silent, since then no ad has a target either).
    private func gain(_ decision: LoudnessDecision, measured: LoudnessAnalysis.SourceReport?, source path: String,
                      ad: AdReference?) throws(MediaError) -> SoundGain? {
        var measured = measured
        if measured != nil, decision.gain != 0, measured?.loudness.truePeak == nil {
            measured = try LoudnessAnalysis.measure(source: path, format: format, truePeak: true)
        }
        // A source measured with its true peaks (every ad, and the content brought to a number) is limited even at
        // 0 dB when a peak is over the ceiling: the rule is that no sample of a normalised source passes it.
        let overCeiling = measured?.loudness.truePeak.map { $0 + decision.gain > SoundGain.ceiling } ?? false
        let planned = decision.gain == 0 && !overCeiling ? nil : measured.map { SoundGain(decibels: decision.gain, peaks: $0.peaks) }
        let gain = planned?.isIdentity == true ? nil : planned
        record(decision, measured: measured, limited: gain?.isLimiting ?? false, source: path, ad: ad)
        return gain
    }

    /// The notes since the last call, in order.
    func takeNotes() -> [Note] {
        defer { notes.removeAll() }
        return notes
    }

    var timeline: Timeline.Normalisation? {
        normalisation.timelineTarget.map { Timeline.Normalisation(target: $0, ceiling: SoundGain.ceiling, sources: records) }
    }

    private func record(_ decision: LoudnessDecision, measured: LoudnessAnalysis.SourceReport?, limited: Bool,
                        source path: String, ad: AdReference?) {
        records.append(Timeline.SourceLoudness(
            source: path, breakIndex: ad?.breakIndex, adIndex: ad?.adIndex, measure: decision.measure,
            integrated: measured?.loudness.integrated, samplePeak: measured?.loudness.samplePeak, truePeak: measured?.loudness.truePeak,
            target: decision.target, gain: decision.gain, limited: limited))
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
