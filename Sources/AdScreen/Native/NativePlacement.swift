import AdPlayback
import MediaCore

/// A native placement in a scene, a slider of cards or a single native ad: where it sits, what it requests, and
/// its rules.
public struct NativePlacement: Hashable, Sendable {
    /// What the placement shows.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// The block's assets above a row of cards that swipes (the `slider` and `card` layers).
        case slider
        /// The first card of the response alone, without block assets, swipes or a block impression (the
        /// `native` layer).
        case single
    }

    /// The name `load slider NAME` uses.
    public var id: String
    public var scene: SceneID
    /// The request: a path, a `file:` URL or an http(s) URL of a slider block or a native response.
    public var source: String
    /// The slider's top edge, in points below the top of the scene's safe area; it spans the safe area's width.
    public var top: Int
    public var maximumRetries: Int
    public var template: NativeCardTemplate
    /// `false`: images show placeholders until `load images` (the guide's `loadImages`).
    public var loadImages: Bool
    /// How long a load lasts on the output clock (the placeholder's time, `latencyMs`); a render fetches before it
    /// starts, so this is what the viewer sees, not what the network took. In `play` a load lands no earlier than
    /// its answer, so a latency longer than the fetch makes it land where a render of the command log does.
    public var latency: MediaDuration
    public var style: Style
    /// Where the placement was declared, as an error names it (`session.json: scenes[0].native[1]`); `nil` when it
    /// was made in code.
    public var declaredAt: String?

    public init(id: String, scene: SceneID, source: String, style: Style = .slider, top: Int = 0,
                maximumRetries: Int = NativeLoadState.defaultMaximumRetries, template: NativeCardTemplate = .default,
                loadImages: Bool = true, latency: MediaDuration = .zero) {
        self.id = id
        self.scene = scene
        self.source = source
        self.top = top
        self.maximumRetries = maximumRetries
        self.template = template
        self.loadImages = loadImages
        self.latency = latency
        self.style = style
    }
}
