import Foundation
import MediaCore

/// The loudness of a stretch of sound, by ITU-R BS.1770-4 with EBU R128's gating (EBU Tech 3341/3342), as
/// libebur128 measures it.
public struct Loudness: Hashable, Sendable {
    /// Integrated loudness (LUFS); nil when every 400 ms block is gated out (silence, or under 400 ms of sound).
    public var integrated: Double?
    /// Loudness range (LU, EBU Tech 3342); nil when no 3 s block passed the gates.
    public var range: Double?
    /// The highest momentary loudness (400 ms blocks, LUFS): what stands for the integrated loudness of a source
    /// too short for the gates to say much (under 3 s).
    public var maxMomentary: Double?
    /// The highest true peak over every channel (dBTP, 4x oversampled); nil for digital silence.
    public var truePeak: Double?
    /// The highest sample peak over every channel (dBFS); nil for digital silence.
    public var samplePeak: Double?
    /// How long the measured sound is.
    public var duration: MediaDuration

    public init(integrated: Double?, range: Double?, maxMomentary: Double?, truePeak: Double?, samplePeak: Double?,
                duration: MediaDuration) {
        self.integrated = integrated
        self.range = range
        self.maxMomentary = maxMomentary
        self.truePeak = truePeak
        self.samplePeak = samplePeak
        self.duration = duration
    }

    /// Sound under 3 s is too short for a loudness range and barely gated: EBU Tech 3341 measures integrated
    /// loudness from 400 ms blocks, and a few of them say little.
    public static let shortestGated = MediaDuration(seconds: Rational(3, 1))

    /// A linear amplitude in decibels relative to full scale; nil for zero.
    static func decibels(_ linear: Double) -> Double? { linear > 0 ? 20 * log10(linear) : nil }
}

/// Measures the loudness of sound fed to it block by block (planar float, the output's or a source's format).
public final class LoudnessMeter {
    private let state: LoudnessState
    private var samples: Int64 = 0
    private var highestMomentary: Double?
    private var sinceMomentary = 0

    /// A meter for `channels` channels at `sampleRate`, in FFmpeg's default layout for the count (the layout every
    /// source is remixed to): mono as a single front channel, as FFmpeg's `ebur128` filter does; 5.1 as L R C LFE
    /// Ls Rs with the LFE left out, as BS.1770-4 says; and so on up to 7.1 (`ChannelLayouts.loudnessRoles`).
    /// - Throws: `MediaError.loudness` for a count FFmpeg has no layout for (nine or more), or when libebur128
    ///   refuses the format.
    /// - Parameter truePeak: whether true peaks are measured (4x oversampled, the costliest part of a measurement);
    ///   without, `result()` has no `truePeak` and `addReadingPeak` reads sample peaks.
    public init(channels: Int, sampleRate: Int, truePeak: Bool = true) throws(MediaError) {
        guard let roles = LoudnessMeter.roles(channels: channels) else {
            throw .loudness(function: "ebur128_set_channel", detail: "no BS.1770 channel map for \(channels) channels")
        }
        state = try LoudnessState(channels: channels, sampleRate: sampleRate, roles: roles, truePeak: truePeak)
    }

    /// How each channel of `channels` counts, in FFmpeg's default layout for the count; `nil` for a count without
    /// one, which is remixed to stereo first where a file is measured on its own.
    static func roles(channels: Int) -> [LoudnessState.ChannelRole]? {
        ChannelLayouts.loudnessRoles(ofDefaultLayoutWith: channels)
    }

    public var channels: Int { state.channels }
    public var sampleRate: Int { state.sampleRate }

    /// Adds samples `[from, to)` of `buffer` (to its count when `to` is nil).
    public func add(_ buffer: AudioBuffer, from: Int = 0, to: Int? = nil) throws(MediaError) {
        let end = to ?? buffer.count
        precondition(buffer.channels == channels && 0 <= from && from <= end && end <= buffer.capacity)
        let n = end - from
        // The momentary maximum is sampled every 100 ms, as EBU Tech 3341 updates the meter at least 10 times a
        // second; libebur128 keeps only the latest window.
        let step = sampleRate / 10
        var done = 0
        while done < n {
            let at = from + done
            let chunk = min(n - done, step - sinceMomentary)
            try state.add(planes: (0..<channels).map { UnsafePointer(buffer.plane($0) + at) }, count: chunk)
            done += chunk
            sinceMomentary += chunk
            if sinceMomentary == step {
                sinceMomentary = 0
                if let m = try state.momentary() { highestMomentary = max(highestMomentary ?? m, m) }
            }
        }
        samples += Int64(n)
    }

    /// Adds samples `[from, to)` of `buffer`, as `add`, and returns their own true peak (linear, the highest over
    /// every channel; 4x oversampled as BS.1770-4 Annex 2 says), or their sample peak for a meter made without
    /// true peaks.
    public func addReadingPeak(_ buffer: AudioBuffer, from: Int = 0, to: Int) throws(MediaError) -> Double {
        // `add` may split the samples at a momentary reading; the peak is the highest of its parts.
        var peak = 0.0
        var at = from
        let step = sampleRate / 10
        while at < to {
            let chunk = min(to - at, step - sinceMomentary)
            try add(buffer, from: at, to: at + chunk)
            peak = max(peak, state.measuresTruePeak ? try state.previousTruePeak() : try state.previousSamplePeak())
            at += chunk
        }
        return peak
    }

    /// Short-term loudness (the last 3 s) now; nil for silence.
    public func shortTerm() throws(MediaError) -> Double? { try state.shortTerm() }

    /// What has been measured so far.
    public func result() throws(MediaError) -> Loudness {
        let integrated = try state.integrated()
        // libebur128 reads a range of 0 LU where nothing passed the gates; no sound has no range.
        return Loudness(integrated: integrated, range: integrated == nil ? nil : try state.range(), maxMomentary: highestMomentary,
                 truePeak: state.measuresTruePeak ? Loudness.decibels(try state.truePeak()) : nil, samplePeak: Loudness.decibels(try state.samplePeak()),
                 duration: MediaDuration(seconds: Rational(samples, Int64(sampleRate))))
    }
}
