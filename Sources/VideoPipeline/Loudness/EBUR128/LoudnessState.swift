import CEBUR128

/// One libebur128 measurement (ITU-R BS.1770-4 K-weighting, EBU R128 gating, loudness range, true peak), owned
/// from its allocation and destroyed in `deinit`. All of libebur128's pointers stay in this file.
final class LoudnessState {
    /// What a channel contributes to the sum, as BS.1770-4 weighs it.
    enum ChannelRole {
        case left, right, centre, leftSurround, rightSurround
        /// Not measured (the LFE channel).
        case unused

        fileprivate var value: UInt32 {
            switch self {
            case .left: EBUR128_LEFT.rawValue
            case .right: EBUR128_RIGHT.rawValue
            case .centre: EBUR128_CENTER.rawValue
            case .leftSurround: EBUR128_LEFT_SURROUND.rawValue
            case .rightSurround: EBUR128_RIGHT_SURROUND.rawValue
            case .unused: EBUR128_UNUSED.rawValue
            }
        }
    }

    private var state: UnsafeMutablePointer<ebur128_state>
    let channels: Int
    let sampleRate: Int
    private var interleaved: [Float] = []

    /// - Throws: `MediaError.loudness` when libebur128 refuses the format (no channels, a rate out of its range)
    ///   or cannot allocate.
    /// Whether true peaks are measured (4x oversampling, the costliest part); sample peaks always are.
    let measuresTruePeak: Bool

    init(channels: Int, sampleRate: Int, roles: [ChannelRole], truePeak: Bool = true) throws(MediaError) {
        precondition(roles.count == channels)
        let mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue
            | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_SAMPLE_PEAK.rawValue)
        guard channels > 0, sampleRate > 0,
              let state = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(bitPattern: mode)) else {
            throw .loudness(function: "ebur128_init", detail: "\(channels) channels at \(sampleRate) Hz")
        }
        self.state = state
        measuresTruePeak = truePeak
        self.channels = channels
        self.sampleRate = sampleRate
        for (index, role) in roles.enumerated() {
            try check(ebur128_set_channel(state, UInt32(index), Int32(bitPattern: role.value)), "ebur128_set_channel")
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Adds `count` frames of planar float samples (one pointer per channel, nominal range ±1).
    func add(planes: [UnsafePointer<Float>], count: Int) throws(MediaError) {
        precondition(planes.count == channels)
        guard count > 0 else { return }
        if interleaved.count < count * channels { interleaved = [Float](repeating: 0, count: count * channels) }
        interleaved.withUnsafeMutableBufferPointer { out in
            for (c, plane) in planes.enumerated() {
                var o = c
                for i in 0..<count { out[o] = plane[i]; o += channels }
            }
        }
        try check(interleaved.withUnsafeBufferPointer { ebur128_add_frames_float(state, $0.baseAddress, count) },
                  "ebur128_add_frames_float")
    }

    /// Integrated loudness in LUFS; nil when every block is gated out (silence, or under 400 ms of sound).
    func integrated() throws(MediaError) -> Double? { try reading(ebur128_loudness_global, "ebur128_loudness_global") }

    /// Loudness range (EBU Tech 3342) in LU; nil when no short-term block passed the gates.
    func range() throws(MediaError) -> Double? { try reading(ebur128_loudness_range, "ebur128_loudness_range") }

    /// Momentary loudness (the last 400 ms) in LUFS; nil for silence.
    func momentary() throws(MediaError) -> Double? { try reading(ebur128_loudness_momentary, "ebur128_loudness_momentary") }

    /// Short-term loudness (the last 3 s) in LUFS; nil for silence.
    func shortTerm() throws(MediaError) -> Double? { try reading(ebur128_loudness_shortterm, "ebur128_loudness_shortterm") }

    /// The highest true peak (4x oversampled, as BS.1770-4 Annex 2) over every channel, as a linear amplitude.
    func truePeak() throws(MediaError) -> Double { try highest(ebur128_true_peak, "ebur128_true_peak") }

    /// The highest true peak over every channel of the samples given to the last `add` alone, as a linear
    /// amplitude: what the limiter of a normalised render reads block by block.
    func previousTruePeak() throws(MediaError) -> Double { try highest(ebur128_prev_true_peak, "ebur128_prev_true_peak") }

    /// The highest sample peak over every channel of the samples given to the last `add` alone, as a linear amplitude.
    func previousSamplePeak() throws(MediaError) -> Double { try highest(ebur128_prev_sample_peak, "ebur128_prev_sample_peak") }

    /// The highest sample peak over every channel, as a linear amplitude.
    func samplePeak() throws(MediaError) -> Double { try highest(ebur128_sample_peak, "ebur128_sample_peak") }

    /// One of libebur128's loudness readings; its −∞ (nothing measured) is nil.
    private func reading(_ read: (UnsafeMutablePointer<ebur128_state>?, UnsafeMutablePointer<Double>?) -> Int32,
                         _ function: String) throws(MediaError) -> Double? {
        var value = 0.0
        try check(read(state, &value), function)
        return value.isFinite ? value : nil
    }

    /// The highest of a per-channel peak reading.
    private func highest(_ read: (UnsafeMutablePointer<ebur128_state>?, UInt32, UnsafeMutablePointer<Double>?) -> Int32,
                         _ function: String) throws(MediaError) -> Double {
        var highest = 0.0
        for channel in 0..<channels {
            var value = 0.0
            try check(read(state, UInt32(channel), &value), function)
            highest = max(highest, value)
        }
        return highest
    }

    private func check(_ result: Int32, _ function: String) throws(MediaError) {
        guard result != EBUR128_SUCCESS.rawValue else { return }
        let detail = switch UInt32(bitPattern: result) {
        case EBUR128_ERROR_NOMEM.rawValue: "out of memory"
        case EBUR128_ERROR_INVALID_MODE.rawValue: "the state was not made for this measurement"
        case EBUR128_ERROR_INVALID_CHANNEL_INDEX.rawValue: "no such channel"
        default: "error \(result)"
        }
        throw .loudness(function: function, detail: detail)
    }
}
