import AdPlayback

/// A full-screen ad (interstitial, app open, rewarded) loaded for a scene and presented there by
/// `present interstitial SCENE`.
public struct FullScreenPlacement: Hashable, Sendable {
    public let scene: SceneID
    public let kind: FullScreenAd.Kind
    public let source: CreativeSource
    /// Whether the request carries its window scene; `false` reproduces the multi-scene app bug (test mode: the
    /// request fails with `sceneNotSet`; production: it is filled for the whole screen).
    public let setsScene: Bool

    public init(scene: SceneID, kind: FullScreenAd.Kind = .interstitial, source: CreativeSource, setsScene: Bool = true) {
        self.scene = scene
        self.kind = kind
        self.source = source
        self.setsScene = setsScene
    }

    /// `interstitial for scene "side"`, for messages.
    public var label: String { "\(kind.rawValue) for scene \"\(scene)\"" }
}
