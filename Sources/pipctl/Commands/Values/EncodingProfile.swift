/// How output video and audio are encoded.
enum EncodingProfile: String, CaseIterable, Sendable {
    /// H.264 4:2:0 at `--crf`, AAC audio: files for people.
    case delivery
    /// FFV1 and PCM in Matroska, so that frame stamps and hashes survive encoding exactly.
    case lossless
}
