/// How the output is encoded.
public struct EncodingSettings: Hashable, Sendable {
    public enum Profile: String, Hashable, Sendable, CaseIterable {
        /// H.264 (libx264) + AAC in MP4 with the index at the front (faststart): what players and ad servers take.
        case delivery
        /// FFV1 + 16-bit PCM in Matroska: bit-exact pictures and samples, for verification.
        case lossless
    }

    public var profile: Profile
    /// x264 constant rate factor, 0–51 (delivery only).
    public var crf: Int
    /// x264 preset (delivery only).
    public var preset: String
    /// AAC bit rate in bit/s (delivery only). The default, 192 kbit/s for stereo, keeps FFmpeg's AAC encoder from
    /// raising a limited sound's true peaks by more than about 0.1 dB; at 128 kbit/s it raised them by up to 1.5 dB,
    /// past the −1 dBTP a normalised render promises (`SoundGain.ceiling`; docs/LOUDNESS.md has the figures).
    public var audioBitRate: Int
    /// Encoder threads; 0 lets the codec choose.
    public var threads: Int
    /// Whether the output stage encodes on a thread of its own while the caller draws the next frames
    /// (`OutputStage`); the bytes written are the same either way.
    public var pipelined: Bool
    /// A ceiling on the video's bit rate (bit/s), for a stream that must fit an HLS rendition's `BANDWIDTH`: x264's
    /// CRF capped by its VBV (`maxrate`, with a buffer of one second); `nil` for CRF alone.
    public var maximumBitRate: Int?
    /// Whether x264 may reorder pictures (B-frames). `pipctl serve` conditions ads without: a player that freezes
    /// after a discontinuity following reordered pictures (Video.js 7.5's VHS) then shows the content after an ad.
    public var reorders = true

    public init(profile: Profile = .delivery, crf: Int = 23, preset: String = "veryfast", audioBitRate: Int = 192_000,
                threads: Int = 0, pipelined: Bool = true, maximumBitRate: Int? = nil) {
        self.profile = profile
        self.crf = crf
        self.preset = preset
        self.audioBitRate = audioBitRate
        self.threads = threads
        self.pipelined = pipelined
        self.maximumBitRate = maximumBitRate
    }

    public static let x264Presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow",
                                     "slower", "veryslow", "placebo"]

    public func validate() throws(MediaError) {
        guard (0...51).contains(crf) else {
            throw .invalidSetting(name: "crf", value: String(crf), reason: "must be between 0 and 51")
        }
        guard EncodingSettings.x264Presets.contains(preset) else {
            throw .invalidSetting(name: "preset", value: preset,
                                  reason: "is not an x264 preset (\(EncodingSettings.x264Presets.joined(separator: ", ")))")
        }
        if let rate = maximumBitRate, !(10_000...1_000_000_000).contains(rate) {
            throw .invalidSetting(name: "maximum bit rate", value: String(rate), reason: "must be between 10000 and 1000000000 bit/s")
        }
    }
}
