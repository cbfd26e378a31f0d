import AdPlayback
import AdScreen
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
    /// Each video full-screen ad's gain by request; a failure to measure it is kept, so it is not measured again.
    private var fullScreenGains: [Int: Result<SoundGain?, MediaError>] = [:]
    /// The `LOG` lines the event log gets: the content's at the render's start, an ad's before its `LOADED`, a
    /// full-screen ad's at the frame its sound starts; each taken by whoever opened the source.
    private var notes: [MediaNote] = []
    /// Polled between blocks of every measurement (0.1 s of sound each), so that a signal stops a render that is
    /// still measuring its content (40 minutes of it took 11 s to decode) at once, with `MediaError.interrupted`.
    private let control: JobControl

    /// Whose sound a record or a note is about.
    enum Subject: Hashable {
        case content
        case ad(AdReference)
        /// A video full-screen ad: its request, the scene it covers and the output frame it started on.
        case fullScreen(request: Int, scene: SceneID, frame: Int64)
    }

    /// Measures the content and sets its gain.
    /// - Throws: `MediaError` when its sound cannot be read or measured.
    init(_ normalisation: LoudnessNormalisation, content: MediaSource, format: OutputFormat,
         control: JobControl = .none) throws(MediaError) {
        precondition(normalisation != .off)
        self.normalisation = normalisation
        self.format = format
        self.control = control
        // In `content` mode the content keeps 0 dB and is never limited: its true peaks are not needed.
        let measured = try LoudnessAnalysis.measure(source: content.path, format: format, truePeak: normalisation != .content, control: control)
        let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
        switch normalisation {
        case .content: adTarget = measure.lufs
        case .lufs(let value): adTarget = value
        case .off: adTarget = nil
        }
        let decision = LoudnessDecision(measure: measure, target: normalisation == .content ? nil : adTarget)
        content.soundGain = try gain(decision, measured: measured, source: content.path, subject: .content)
    }

    /// Sets the gain of an ad's source, measuring it the first time that ad is opened.
    func prepare(_ source: MediaSource, ad: AdReference) throws(MediaError) {
        if let known = gains[ad] {
            source.soundGain = known
            return
        }
        let measured = try LoudnessAnalysis.measure(source: source.path, format: format, truePeak: adTarget != nil, control: control)
        let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
        let gain = try gain(LoudnessDecision(measure: measure, target: adTarget), measured: measured, source: source.path, subject: .ad(ad))
        gains[ad] = .some(gain)
        source.soundGain = gain
    }

    /// Sets the gain of a video full-screen ad's source (its sound replaces the covered player's), measuring it
    /// the first time request `request` covers: it is brought to the ads' target as a linear ad is.
    /// - Throws: `MediaError` when its sound cannot be read or measured (again on every call for that request).
    func prepare(_ source: MediaSource, fullScreen request: Int, scene: SceneID, frame: Int64) throws(MediaError) {
        let known: Result<SoundGain?, MediaError>
        if let done = fullScreenGains[request] {
            known = done
        } else {
            known = Result { () throws(MediaError) -> SoundGain? in
                let measured = try LoudnessAnalysis.measure(source: source.path, format: format, truePeak: adTarget != nil, control: control)
                let measure = measured.map { LoudnessDecision.measure(loudness: $0.loudness) } ?? .silent
                return try gain(LoudnessDecision(measure: measure, target: adTarget), measured: measured, source: source.path,
                                subject: .fullScreen(request: request, scene: scene, frame: frame))
            }
            fullScreenGains[request] = known
        }
        source.soundGain = try known.get()
    }

    /// The source's gain and limiter, recorded with its notes; `nil` for a source left as it is (0 dB, or silent).
    ///
    /// A source at 0 dB whose true peaks are under the ceiling is not touched. The limiter is planned
    /// from the blocks' true peaks, which cost most of a measurement (4x oversampling), so they are measured only
    /// for a source that may be gained: every source but the content in `content` mode (the content when it is
    /// silent, since then no ad has a target either).
    private func gain(_ decision: LoudnessDecision, measured: LoudnessAnalysis.SourceReport?, source path: String,
                      subject: Subject) throws(MediaError) -> SoundGain? {
        var measured = measured
        if measured != nil, decision.gain != 0, measured?.loudness.truePeak == nil {
            measured = try LoudnessAnalysis.measure(source: path, format: format, truePeak: true, control: control)
        }
        // A source measured with its true peaks (every ad, and the content brought to a number) is limited even at
        // 0 dB when a peak is over the ceiling: the rule is that no sample of a normalised source passes it.
        let overCeiling = measured?.loudness.truePeak.map { $0 + decision.gain > SoundGain.ceiling } ?? false
        let planned = decision.gain == 0 && !overCeiling ? nil : measured.map { SoundGain(decibels: decision.gain, peaks: $0.peaks) }
        let gain = planned?.isIdentity == true ? nil : planned
        // Where the limiter acts, the sound is measured again as it will play (gained and limited, a second decode
        // of that source only): the loudness it reached is what the render promises.
        var reached: Double?
        if let gain, gain.isLimiting, decision.target != nil {
            let played = try LoudnessAnalysis.measure(source: path, format: format, truePeak: false, control: control, gain: gain)
            reached = played.flatMap { report in
                switch decision.measure {
                case .momentary: report.loudness.maxMomentary
                default: report.loudness.integrated
                }
            }
        }
        record(decision, measured: measured, limited: gain?.isLimiting ?? false, reached: reached, source: path, subject: subject)
        return gain
    }

    /// The notes since the last call, in order.
    func takeNotes() -> [MediaNote] {
        defer { notes.removeAll() }
        return notes
    }

    var timeline: Timeline.Normalisation? {
        normalisation.timelineTarget.map { Timeline.Normalisation(target: $0, ceiling: SoundGain.ceiling, sources: records) }
    }

    private func record(_ decision: LoudnessDecision, measured: LoudnessAnalysis.SourceReport?, limited: Bool,
                        reached: Double?, source path: String, subject: Subject) {
        var record = Timeline.SourceLoudness(
            source: path, breakIndex: nil, adIndex: nil, measure: decision.measure,
            integrated: measured?.loudness.integrated, samplePeak: measured?.loudness.samplePeak, truePeak: measured?.loudness.truePeak,
            target: decision.target, gain: decision.gain, limited: limited)
        record.reached = reached
        let who: String
        switch subject {
        case .content: who = "the content"
        case .ad(let ad):
            (record.breakIndex, record.adIndex) = (ad.breakIndex, ad.adIndex)
            who = "break \(ad.breakIndex) ad \(ad.adIndex)"
        case .fullScreen(let request, let scene, _):
            record.fullScreen = Timeline.SourceLoudness.FullScreen(request: request, scene: scene)
            who = "the full-screen ad of request \(request) over scene \(scene)"
        }
        records.append(record)
        if case .momentary(let value) = decision.measure {
            notes.append(.log(.loudnessShortSource, message: "\(who) (\(path)): under 3 s of sound, "
                + "measured by its highest momentary loudness, \(LoudnessNormaliser.text(value)) LUFS"))
        }
        if abs(decision.gain) > LoudnessDecision.largeGain {
            notes.append(.log(.loudnessGainLarge, message: "\(who) (\(path)): gain "
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
