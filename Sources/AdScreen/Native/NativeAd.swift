import AdPlayback

/// One native ad of an OpenRTB Native 1.2 response (the "Native Markup Response Object"): its assets, its link,
/// and its impression and event trackers.
///
/// OpenRTB carries the ad's and the creative's ids on the bid, not in the native markup; a slider's cards need
/// them to leave out an ad another placement already showed, so each ad here has `adid` and `crid` (docs/NATIVE.md).
public struct NativeAd: Hashable, Sendable {
    /// The bid's `adid`: the key of "the same ad" across placements.
    public var id: String
    /// The bid's `crid`: the key of "the same creative"; `nil` when the response does not say.
    public var creativeID: String?
    public var assets: [NativeAsset]
    /// Where a click on the ad goes, and whom it tells.
    public var link: NativeLink
    /// `imptrackers`: image URLs fired on the impression (OpenRTB's older form of an `event 1, method 1` tracker).
    public var impressionTrackers: [String]
    public var eventTrackers: [NativeEventTracker]

    public init(id: String, creativeID: String? = nil, assets: [NativeAsset], link: NativeLink,
                impressionTrackers: [String] = [], eventTrackers: [NativeEventTracker] = []) {
        self.id = id
        self.creativeID = creativeID
        self.assets = assets
        self.link = link
        self.impressionTrackers = impressionTrackers
        self.eventTrackers = eventTrackers
    }

    /// The URLs fired when the ad counts an impression: `imptrackers`, then each image-pixel impression event
    /// tracker (`event 1`, `method 1`); a JavaScript tracker (`method 2`) cannot run headless and is left out.
    public var impressionBeacons: [String] {
        impressionTrackers + eventTrackers.filter { $0.event == .impression && $0.method == .image }.map(\.url)
    }

    /// The first asset of `slot`, if the ad has one.
    public func asset(_ slot: NativeAssetSlot) -> NativeAsset? { assets.first { $0.slot == slot } }

    /// What makes two ads "the same creative" across placements: the `crid`, else the main image or video.
    public var creativeKey: String? {
        creativeID.map { "crid:\($0)" } ?? assets.lazy.compactMap { asset -> String? in
            switch asset.content {
            case .image(.main, let url, _): "media:\(url)"
            case .video(let tag): "media:\(tag)"
            default: nil
            }
        }.first
    }
}

/// A block of native ads for a slider: its own block-level assets (the block's "sponsored" label) and its cards.
public struct NativeBlock: Hashable, Sendable {
    /// Assets of the block itself, drawn above the cards.
    public var assets: [NativeAsset]
    /// The cards, in the order the response gives them.
    public var ads: [NativeAd]

    public init(assets: [NativeAsset], ads: [NativeAd]) {
        self.assets = assets
        self.ads = ads
    }
}

/// One asset of a native ad: a title, an image, a data string or a video, and whether the ad requires it.
public struct NativeAsset: Hashable, Sendable {
    /// What an asset holds (OpenRTB allows exactly one of `title`, `img`, `data`, `video` per asset).
    public enum Content: Hashable, Sendable {
        case title(String)
        case image(kind: NativeImageKind, url: String, size: PointSize?)
        case data(kind: NativeDataKind, value: String)
        /// A VAST document (`video.vasttag`), played by the render inside the card.
        case video(vastTag: String)
    }

    /// The asset's `id` in the response; `nil` when it has none.
    public var id: Int?
    /// `required: 1`: the ad must not be shown without this asset laid out (a binding failure otherwise).
    public var isRequired: Bool
    public var content: Content
    /// Why the asset cannot be shown (the origin policy refused its URL); such an asset is never laid out, so a
    /// required one fails binding with this reason.
    public var refusal: String?

    public init(id: Int? = nil, isRequired: Bool = false, content: Content, refusal: String? = nil) {
        self.id = id
        self.isRequired = isRequired
        self.content = content
        self.refusal = refusal
    }

    /// Where the asset goes in a card template; `nil` for an asset no template element shows (a price, a
    /// phone number), which is therefore never laid out.
    public var slot: NativeAssetSlot? {
        switch content {
        case .title: .title
        case .image(.icon, _, _): .icon
        case .image(.main, _, _), .video: .media
        case .image(.other, _, _): nil
        case .data(.displayURL, _): .domain
        case .data(.sponsored, _): .sponsored
        case .data(.other(NativeDataKind.ageCode), _): .age
        case .data(.desc, _): .body
        case .data(.ctaText, _): .callToAction
        case .data(.other(NativeDataKind.warningCode), _): .warning
        case .data: nil
        }
    }

    /// The text the asset shows, for titles and data.
    public var text: String? {
        switch content {
        case .title(let text), .data(_, let text): text
        case .image, .video: nil
        }
    }
}

/// The OpenRTB Native 1.2 image asset types (table 7.5) pipctl lays out: icon 1, main 3; others kept by number.
public enum NativeImageKind: Hashable, Sendable {
    case icon
    case main
    /// Any other type (2 was "logo" before 1.2; 500+ are exchange-specific).
    case other(Int)

    public init(code: Int) {
        switch code {
        case 1: self = .icon
        case 3: self = .main
        default: self = .other(code)
        }
    }
}

/// The OpenRTB Native 1.2 data asset types (table 7.4), with other numbers kept as written.
public enum NativeDataKind: Hashable, Sendable, CustomStringConvertible {
    case sponsored, desc, rating, likes, downloads, price, salePrice, phone, address, desc2, displayURL, ctaText
    /// 500+ are exchange-specific; other numbers are kept too, so a response is never refused for a new type.
    case other(Int)

    /// Exchange-specific (500+) type pipctl reads as the age label ("18+") of the guide's card.
    public static let ageCode = 501
    /// Exchange-specific (500+) type pipctl reads as the card's legal warning line.
    public static let warningCode = 502

    private static let codes: [(Int, NativeDataKind)] = [
        (1, .sponsored), (2, .desc), (3, .rating), (4, .likes), (5, .downloads), (6, .price), (7, .salePrice),
        (8, .phone), (9, .address), (10, .desc2), (11, .displayURL), (12, .ctaText),
    ]

    public init(code: Int) {
        self = Self.codes.first { $0.0 == code }?.1 ?? .other(code)
    }

    public var code: Int {
        if case .other(let code) = self { return code }
        return Self.codes.first { $0.1 == self }!.0
    }

    /// The spec's name (`sponsored`, `ctatext`, `displayurl`), or the number of an unnamed type.
    public var description: String {
        switch self {
        case .sponsored: "sponsored"
        case .desc: "desc"
        case .rating: "rating"
        case .likes: "likes"
        case .downloads: "downloads"
        case .price: "price"
        case .salePrice: "saleprice"
        case .phone: "phone"
        case .address: "address"
        case .desc2: "desc2"
        case .displayURL: "displayurl"
        case .ctaText: "ctatext"
        case .other(let code): "\(code)"
        }
    }
}

/// `link`: where a click goes (recorded, never opened) and the click trackers fired with it.
public struct NativeLink: Hashable, Sendable {
    public var url: String
    public var clickTrackers: [String]

    public init(url: String, clickTrackers: [String] = []) {
        self.url = url
        self.clickTrackers = clickTrackers
    }
}

/// One `eventtrackers` entry: which event (table 7.6), how (table 7.7), and the URL.
public struct NativeEventTracker: Hashable, Sendable {
    public enum Event: Hashable, Sendable {
        case impression
        /// 2 viewable-mrc50, 3 viewable-mrc100, 4 viewable-video50, 500+ exchange-specific.
        case other(Int)
        public init(code: Int) { self = code == 1 ? .impression : .other(code) }
    }

    public enum Method: Hashable, Sendable {
        /// 1: an image pixel, fired as a GET (a beacon).
        case image
        /// 2: a JavaScript tag (not run headless), or any other number.
        case other(Int)
        public init(code: Int) { self = code == 1 ? .image : .other(code) }
    }

    public var event: Event
    public var method: Method
    public var url: String

    public init(event: Event, method: Method, url: String) {
        self.event = event
        self.method = method
        self.url = url
    }
}
