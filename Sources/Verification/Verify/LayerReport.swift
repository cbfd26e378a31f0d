/// What `pipctl verify` found of a device render's screen layers (banners, full-screen ads, landing screens,
/// scenes without a player, the display and the bezel), checked from the pixels of sampled frames.
public struct LayerReport: Codable, Hashable, Sendable {
    /// Layer checks made: one per layer per sampled frame, counted when some part of the layer could be compared.
    public var checked: Int
    /// The output frames sampled (the first, middle and last of each segment with layers).
    public var frames: Int
    /// Layers whose expected picture could not be made (a source that is not a readable local image), in words:
    /// they are not counted as checked, and make the verdict "not verifiable" rather than a pass.
    public var notVerifiable: [String]
    /// Layers left unchecked on purpose, each once, in words: a native card with too little of it visible in its
    /// slider's viewport (scrolled almost out) to compare.
    public var skipped: [String]

    public init(checked: Int = 0, frames: Int = 0, notVerifiable: [String] = [], skipped: [String] = []) {
        self.checked = checked
        self.frames = frames
        self.notVerifiable = notVerifiable
        self.skipped = skipped
    }

    /// A clause for a report's verdict line: `, 42 layers checked on 9 frames`; empty without layers.
    var summary: String {
        guard frames > 0 else { return "" }
        return ", \(checked) layer\(checked == 1 ? "" : "s") checked on \(frames) frame\(frames == 1 ? "" : "s")"
            + (notVerifiable.isEmpty ? "" : " (\(notVerifiable.count) not verifiable)")
            + (skipped.isEmpty ? "" : " (\(skipped.count) skipped: \(skipped.joined(separator: "; ")))")
    }
}
