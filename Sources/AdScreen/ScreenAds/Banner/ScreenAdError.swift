import AdDecisioning
import AdPlayback
/// Why a banner or full-screen ad could not be loaded or presented: one line naming the request or the scene.
public enum ScreenAdError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A placement that does not fit the screen (its scene is missing, has no banner, or has two).
    case placement(String, String)
    /// The placement's request is not a URL or a path pipctl can fetch.
    case badRequestURL(String)
    /// Test mode on a multi-scene app, and the request did not set its window scene (`sceneNotSet`).
    case sceneNotSet(placement: String)
    /// The placement's scene is not on screen, so no size can be requested for it.
    case sceneNotOnScreen(placement: String, scene: SceneID)
    /// Fetching or parsing the response failed, with the fetch's own limits and origin policy.
    case fetch(DecisioningError)
    /// The response (or the StaticResource it names) is not a PNG, JPEG or GIF.
    case notAnImage(source: String)
    /// The image is larger than `PictureLimit.creatives` allows (read from its header, before any decoding);
    /// `detail` gives its size and the limit.
    case pictureTooLarge(source: String, detail: String)
    /// A VAST response without an in-line ad whose NonLinear or Companion has an image StaticResource (nor, for
    /// a full-screen ad, a linear MediaFile); `detail` says what was dropped or found instead.
    case noCreative(source: String, detail: String)
    /// A video full-screen creative whose media file cannot be opened or downloaded; `detail` says why.
    case mediaUnavailable(source: String, detail: String)

    /// The `reason` of the failure event, when the failure has one.
    public var reason: SessionEventReason? {
        switch self {
        case .sceneNotSet: .sceneNotSet
        case .sceneNotOnScreen: .sceneNotOnScreen
        case .mediaUnavailable: .mediaUnavailable
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .placement(let label, let detail):
            "\(label): \(detail)"
        case .badRequestURL(let text):
            "ad request \"\(text)\": not an http(s) URL, a file: URL or a path"
        case .sceneNotSet(let placement):
            "\(placement) request: invalid request, the window scene must be set in an app that supports multiple scenes"
        case .sceneNotOnScreen(let placement, let scene):
            "\(placement) request: scene \"\(scene)\" is not on screen"
        case .fetch(let error):
            error.description
        case .notAnImage(let source):
            "\(source): not a PNG, JPEG or GIF image"
        case .noCreative(let source, let detail), .pictureTooLarge(let source, let detail), .mediaUnavailable(let source, let detail):
            "\(source): \(detail)"
        }
    }
}
