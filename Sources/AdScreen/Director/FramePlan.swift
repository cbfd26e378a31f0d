import AdPlayback
import MediaCore

/// What one output frame shows and plays, decided without media: the layers bottom first, each placed on the
/// canvas in output pixels; the frame's sound; and what the timeline records of it.
///
/// `FramePlanner` makes it from the sessions' decisions and the screen; the renderer (Rendering's `Stitcher`)
/// resolves each `MediaReference` to a picture, draws the layers in order and writes the sound. Drawing changes no
/// ad state: what the renderer finds of the media goes back to the session as a `MediaReport`, which plans the
/// frame again.
public struct FramePlan: Sendable {
    /// The output frame.
    public let frame: Int64
    /// The layers, bottom first.
    public var layers: [PlannedLayer]
    /// The index in `layers` of the primary player's picture (for the timeline's `picture`: where it landed);
    /// `nil` when the player's scene is off screen.
    public var playerLayer: Int?
    public var audio: PlannedAudio
    /// The timeline's layers of a device frame (`nil` without a device).
    public var timeline: [Timeline.Layer]?

    public init(frame: Int64, layers: [PlannedLayer], playerLayer: Int?, audio: PlannedAudio, timeline: [Timeline.Layer]?) {
        self.frame = frame
        self.layers = layers
        self.playerLayer = playerLayer
        self.audio = audio
        self.timeline = timeline
    }
}

/// One layer of a frame: what it shows, where on the canvas (output pixels), and what of it may be drawn.
public struct PlannedLayer: Hashable, Sendable {
    /// How a picture fills its rectangle (the compositor's fits).
    public enum Fit: Hashable, Sendable {
        /// Whole, its display aspect kept, centred; the rest of the rectangle is left as it was.
        case letterbox
        /// Stretched over the rectangle.
        case fill
        /// Its display aspect kept, cropped to cover the rectangle.
        case crop
    }

    public enum Content: Hashable, Sendable {
        /// A picture of a source, at a tick of that source's clock; `placeholder` is drawn instead when the
        /// renderer cannot read it (a card's video), `nil` when that is an error of the frame.
        case picture(MediaReference, Fit, placeholder: Paint? = nil)
        case color(Paint)
        case roundedRect(Paint, radius: Int)
        /// Text measured with the cards' font at `pixelSize`, broken within the rectangle's width in at most
        /// `lineLimit` lines; `centred` centres its lines' box in the rectangle (a call to action's capsule).
        case text(PlannedText)
        /// The corners outside a rectangle rounded to `radius`, in `paint`: drawn over a picture, they round its
        /// corners on what is under it.
        case corners(Paint, radius: Int)
        /// The soft shadow `caster` (corners rounded to `radius`) casts `reach` pixels around itself, drawn only in
        /// the layer's rectangle.
        case shadow(caster: PixelRect, radius: Int, reach: Int)
    }

    public var content: Content
    public var rect: PixelRect
    /// The only part of the canvas it may touch (a slider's viewport); anywhere when `nil`.
    public var clip: PixelRect?
    /// The scene it belongs to; `nil` for the canvas's own layers (the bezel, the display).
    public var scene: SceneID?

    public init(_ content: Content, in rect: PixelRect, clip: PixelRect? = nil, scene: SceneID?) {
        self.content = content
        self.rect = rect
        self.clip = clip
        self.scene = scene
    }

    /// The part of the canvas it can touch: its rectangle (a shadow's too) cut to its clip.
    public var drawn: PixelRect { clip.map { rect.intersection($0) } ?? rect }
}

/// Text to draw, as the cards lay it out.
public struct PlannedText: Hashable, Sendable {
    public var text: String
    public var paint: Paint
    public var pixelSize: Int
    public var lineLimit: Int
    public var centred: Bool
    /// What the text is (`title`, `body`…), for the message when it cannot be drawn.
    public var slot: String
}

/// A picture the renderer reads: the source and the tick of its own clock.
public enum MediaReference: Hashable, Sendable {
    /// A player's source at `tick`: the content or one of its plan's ads. `scene` is the player's (`nil`: the
    /// primary player of a render without a device).
    case player(SceneID?, FrameDecision.Source)
    /// The picture-in-picture backdrop (`--pip-background`) at output frame `frame` (its frames looped).
    case pictureInPictureBackground(frame: Int64)
    /// The banner creative `scene` shows at output frame `frame`.
    case banner(SceneID, frame: Int64)
    /// The image loaded by full-screen request `request`, at output frame `frame`.
    case fullScreenImage(request: Int, frame: Int64)
    /// The video loaded by full-screen request `request`, at `tick` of its own clock.
    case fullScreenVideo(request: Int, tick: Int64)
    /// A native asset's image.
    case nativeImage(url: String)
    /// A card's video (its VAST tag) in `placement`, at `tick` of its own clock.
    case nativeVideo(placement: String, card: Int, tag: String, tick: Int64)
    /// The file a timeline's layer says a picture was read from, at `frame` (`Timeline.Segment.planned`): what verify
    /// draws a render's layers again by. A planner never makes one; the renderer has nothing to read for it.
    case recorded(source: String, RecordedFrame)
}

/// The colours a plan names; the renderer knows their values.
public enum Paint: Hashable, Sendable, CaseIterable {
    /// The device's frame around the display.
    case bezel
    case black
    /// The picture-in-picture backdrop without `--pip-background`.
    case slate
    /// A full-screen ad's placeholder (`--device` without loaded creatives).
    case fullScreenPlaceholder
    /// A banner's landing screen.
    case overlay
    /// Split View's divider.
    case divider
    /// A Slide Over window's rim.
    case slideOverEdge
    /// A native slider's background.
    case slider
    /// A native block still loading, or an image not loaded.
    case nativePlaceholder
    /// A native card's body.
    case card
    case nativeText
    case callToAction
    case callToActionText
}

/// Where a frame's sound comes from.
public enum PlannedAudio: Hashable, Sendable {
    /// Silence: the player is paused (or frozen at the content's end).
    case silence
    /// The primary player's source, read on from `tick` of its clock (a run continues while ticks follow on).
    case player(FrameDecision.Source)
    /// A video full-screen ad over the player's scene: its own sound, from output frame `start` (when it presented),
    /// replacing the paused player's.
    case fullScreenVideo(request: Int, scene: SceneID, start: Int64)
}
