import AdDecisioning
import AdPlayback
import MediaCore

/// One rectangle of a native placement for the drawing side and the timeline, in output pixels.
public struct NativeLayer: Hashable, Sendable {
    /// What the rectangle is; the timeline's `layers[].kind` (`slider`, `card`, `native`) and the assets in them.
    public enum Kind: Hashable, Sendable {
        /// The slider's whole frame (its background).
        case slider
        /// The grey stand-in drawn while the block is loading.
        case placeholder
        /// A card: its index in the response's `ads` and its ad id.
        case card(index: Int, ad: String)
        /// A single native ad (a `single` placement's card), with the same fields.
        case native(index: Int, ad: String)
        /// An asset laid out in a card (`card` its index) or in the block's header (`card` nil). `asset` is the
        /// index in that ad's (or the block's) `assets`, nil for the feedback button; `placeholder` is true for
        /// an image not loaded yet (`loadImages: false` before `load images`).
        case asset(NativeAssetSlot, card: Int?, asset: Int?, placeholder: Bool)
    }

    public let placement: String
    public let scene: SceneID
    public let kind: Kind
    /// The whole rectangle (a card scrolled half out still has its full size here).
    public let rect: PixelRect
    /// What of it may be drawn: the slider's viewport.
    public let clip: PixelRect

    /// The card or single native ad this layer is, if it is one.
    public var card: (index: Int, ad: String)? {
        switch kind {
        case .card(let index, let ad), .native(let index, let ad): (index, ad)
        default: nil
        }
    }

    public init(placement: String, scene: SceneID, kind: Kind, rect: PixelRect, clip: PixelRect) {
        self.placement = placement
        self.scene = scene
        self.kind = kind
        self.rect = rect
        self.clip = clip
    }

    /// Whether output pixel (x, y) is inside the part drawn.
    public func contains(x: Int, y: Int) -> Bool {
        x >= max(rect.x, clip.x) && x < min(rect.maxX, clip.maxX) && y >= max(rect.y, clip.y) && y < min(rect.maxY, clip.maxY)
    }
}

/// One event of a native placement, on the output clock, with the guide's names.
public struct NativeAdEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// An event of the slider guide (`onAdLoadPhase`, `onAdLoad`, `onAdFailure`, …), with what it carries.
        case moment(SessionEvent.NativeMoment)
        /// A command refused (`load` past `maxRetries`, a swipe before the block loaded…), with why.
        case refused(String)
        /// A tracker URL fired (impression or clickTracking; a card's video also start, the quartiles and complete),
        /// for the beacon ledger.
        case beacon(TrackingEventName, url: String)
        /// A card's video cannot play (its VAST or media failed), with why: its frame shows the placeholder.
        case videoFailed(String)
    }

    public var time: MediaTime
    public var placement: String
    public var scene: SceneID
    public var kind: Kind
    /// The card's index in the response's `ads`; `nil` for the block.
    public var card: Int?
    public var ad: String?

    public init(time: MediaTime, placement: String, scene: SceneID, kind: Kind, card: Int? = nil, ad: String? = nil) {
        self.time = time
        self.placement = placement
        self.scene = scene
        self.kind = kind
        self.card = card
        self.ad = ad
    }
}
