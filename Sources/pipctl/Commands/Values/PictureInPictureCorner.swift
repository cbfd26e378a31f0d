/// The corner of the output where the picture-in-picture window sits.
enum PictureInPictureCorner: String, CaseIterable, Sendable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
}
