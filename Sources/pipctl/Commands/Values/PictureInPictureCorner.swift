import AdPlayback
import Rendering

/// The corner of the output where the picture-in-picture window sits.
enum PictureInPictureCorner: String, CaseIterable, Sendable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
}

extension PictureInPictureCorner {
    var library: PictureInPictureSettings.Corner {
        switch self {
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }
}
