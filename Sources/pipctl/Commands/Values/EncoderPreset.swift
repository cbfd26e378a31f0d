/// x264's speed presets, fastest first.
enum EncoderPreset: String, CaseIterable, Sendable {
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow
}
