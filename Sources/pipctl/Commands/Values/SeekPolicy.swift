import AdPlayback
import Rendering

/// Which ad breaks play when a seek jumps over several.
enum SeekPolicy: String, CaseIterable, Sendable {
    /// Only the last break before the seek target (as IMA does).
    case last
    /// Every break jumped over, in order.
    case all
    /// None of them.
    case none
}

extension SeekPolicy {
    var library: AdsRenderingSettings.SeekPolicy {
        switch self {
        case .last: .last
        case .all: .all
        case .none: .none
        }
    }
}
