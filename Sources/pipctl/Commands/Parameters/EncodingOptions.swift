import VideoPipeline

/// `--profile`, `--crf`, `--preset`, `--threads`: how a command that writes media encodes it.
struct EncodingOptions: Hashable, Sendable {
    var profile: EncodingProfile
    /// x264 constant rate factor, for the delivery profile.
    var crf: Int
    var preset: EncoderPreset
    var threads: Int

    static let profile = Parameter.option(
        "profile", .choice(EncodingProfile.self), default: .delivery,
        help: "How to encode: delivery is H.264 (libx264) and AAC in an MP4 with its index first, for players; "
            + "lossless is FFV1 and 16-bit PCM in Matroska (name the output .mkv), so that pictures and samples "
            + "survive exactly, for verification.")
    static let crf = Parameter.option(
        "crf", .integer("N", in: 0...51), default: 23,
        help: "x264 constant rate factor for the delivery profile, 0 (best, biggest) to 51 (worst, smallest); "
            + "ignored by lossless.")
    static let preset = Parameter.option(
        "preset", .choice(EncoderPreset.self), default: .veryfast,
        help: "x264 speed preset: slower presets make smaller files at the same quality.")
    static let threads = Parameter.option(
        "threads", .integer("N", in: 0...64), default: 0,
        help: "Threads for each decoder and encoder; 0 lets FFmpeg choose (one per core).")

    static let parameters: [any ParameterDeclaration] = [profile, crf, preset, threads]

    init(_ arguments: ParsedArguments) {
        profile = arguments[Self.profile]
        crf = arguments[Self.crf]
        preset = arguments[Self.preset]
        threads = arguments[Self.threads]
    }

    /// The library's settings.
    var settings: EncodingSettings {
        EncodingSettings(profile: profile == .delivery ? .delivery : .lossless, crf: crf, preset: preset.rawValue,
                         threads: threads)
    }
}
