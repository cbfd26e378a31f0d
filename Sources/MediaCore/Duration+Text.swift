extension Duration {
    /// The duration for messages, in whole milliseconds: `4 s`, `0.25 s`.
    public var secondsText: String {
        let ms = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
    }
}
