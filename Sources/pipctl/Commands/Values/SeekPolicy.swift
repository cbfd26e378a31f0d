/// Which ad breaks play when a seek jumps over several.
enum SeekPolicy: String, CaseIterable, Sendable {
    /// Only the last break before the seek target (as IMA does).
    case last
    /// Every break jumped over, in order.
    case all
    /// None of them.
    case none
}
