/// `--profile`, `--crf`, `--preset`: how a command that writes MP4 encodes it.
struct EncodingOptions: Hashable, Sendable {
    var profile: EncodingProfile
    /// x264 constant rate factor, for the delivery profile.
    var crf: Int
    var preset: EncoderPreset

    static let profile = Parameter.option(
        "profile", .choice(EncodingProfile.self), default: .delivery,
        help: "How to encode: delivery is H.264 4:2:0 at --crf with AAC audio, for people; lossless is lossless "
            + "H.264, so that frame stamps and hashes survive encoding exactly.")
    static let crf = Parameter.option(
        "crf", .integer("N", in: 0...51), default: 23,
        help: "x264 constant rate factor for the delivery profile, 0 (best, biggest) to 51 (worst, smallest); "
            + "ignored by lossless.")
    static let preset = Parameter.option(
        "preset", .choice(EncoderPreset.self), default: .veryfast,
        help: "x264 speed preset: slower presets make smaller files at the same quality.")

    static let parameters: [any ParameterDeclaration] = [profile, crf, preset]

    init(_ arguments: ParsedArguments) {
        profile = arguments[Self.profile]
        crf = arguments[Self.crf]
        preset = arguments[Self.preset]
    }
}
