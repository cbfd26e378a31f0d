import AdPlayback

/// Full-screen ads (interstitial, app open, rewarded) against the scenes they are loaded for: which size a
/// request gets, and whether a loaded ad fits its window when it is about to present.
public enum FullScreenAd {
    /// The kind of full-screen ad; each presents the same way.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        case interstitial, appOpen, rewarded
    }

    /// An ad request, with its scene, or without it (the app bug of a multi-scene app that forgets to set it).
    public struct Request: Hashable, Sendable {
        public let kind: Kind
        public let scene: SceneID?

        public init(kind: Kind, scene: SceneID?) {
            self.kind = kind
            self.scene = scene
        }
    }

    /// What a request is filled for: the scene it names (if any) and the content size of the ad, in points.
    public struct Fill: Hashable, Sendable {
        public let scene: SceneID?
        public let contentSize: PointSize
    }

    /// Why a full-screen ad could not be loaded or presented; `reason` is the failure event's `reason` field.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Test mode on a device with several scenes: the request must carry its scene.
        case sceneNotSet(Kind)
        /// The ad's content is larger than its scene's window as it is now.
        case adTooLargeForWindow(scene: SceneID, ad: PointSize, window: PointSize)
        /// The request's scene is not one the app has or is not on screen.
        case sceneNotOnScreen(SceneID)

        /// The typed reason the failure event carries.
        public var reason: Reason {
            switch self {
            case .sceneNotSet: .sceneNotSet
            case .adTooLargeForWindow: .adTooLargeForWindow
            case .sceneNotOnScreen: .sceneNotOnScreen
            }
        }

        public var description: String {
            switch self {
            case .sceneNotSet(let kind):
                "\(kind.rawValue) request: invalid request, the window scene must be set in an app that supports multiple scenes"
            case .adTooLargeForWindow(let scene, let ad, let window):
                "scene \"\(scene)\": the ad's content (\(ad) pt) is larger than the window (\(window) pt)"
            case .sceneNotOnScreen(let scene):
                "scene \"\(scene)\" is not on screen"
            }
        }
    }

    /// The `reason` values of full-screen ad failures, as the event log writes them.
    public enum Reason: String, Hashable, Sendable, CaseIterable, Codable {
        case sceneNotSet, adTooLargeForWindow, sceneNotOnScreen
    }

    /// What `request` is filled for on `screen`: its scene's window size; without a scene, the whole screen in
    /// production, and an invalid request in test mode on a device that supports several scenes (Google Mobile
    /// Ads' multiple-windows guide: the request must carry its window scene).
    ///
    /// - Throws: `.sceneNotSet` (test mode, multi-scene device, no scene), `.sceneNotOnScreen`.
    public static func fill(_ request: Request, on screen: ScreenState, testMode: Bool) throws(Failure) -> Fill {
        guard let scene = request.scene else {
            if testMode && screen.device.supportsMultipleScenes { throw .sceneNotSet(request.kind) }
            return Fill(scene: nil, contentSize: screen.screenSize)
        }
        guard let layout = screen.layout(of: scene) else { throw .sceneNotOnScreen(scene) }
        return Fill(scene: scene, contentSize: layout.frame.size)
    }

    /// Checks, before presenting, that an ad of `adSize` fits `window` as it is now; an ad that no longer fits (the
    /// window shrank in a resize, rotation or fold) must be reloaded for the new size.
    ///
    /// - Throws: `.adTooLargeForWindow` naming both sizes.
    public static func canPresent(adSize: PointSize, in window: SceneLayout) throws(Failure) {
        guard window.frame.size.fits(adSize) else {
            throw .adTooLargeForWindow(scene: window.id, ad: adSize, window: window.frame.size)
        }
    }
}
