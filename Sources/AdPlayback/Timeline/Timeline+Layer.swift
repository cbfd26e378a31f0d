import MediaCore

extension Timeline {
    /// One rectangle drawn during a segment (`--device`), bottom first: its kind, with the fields that kind has.
    ///
    /// The JSON is one object per layer, `kind` naming the case (`content`, `ad`, `pip`, `banner`, `fullscreen`,
    /// `overlay`, `slider`, `card`, `native`, `divider`, `edge`, `shadow`), with `scene` and `rect` (output pixels)
    /// and the kind's own fields. Reading a layer with a field of another kind, or with half of a group of fields
    /// that go together (`paused` without `srcStartTick`, a `caster` without its `reach`), fails naming its JSON
    /// path: a timeline is input, and verify checks what the fields say.
    public enum Layer: Hashable, Sendable {
        /// A scene's player window showing the content (`content`) or a linear ad (`ad`), or the floating
        /// picture-in-picture window (`pip`).
        case player(Player)
        /// An anchored adaptive banner, with where its creative was read from (an absolute path or a URL; in older
        /// timelines the request as written); `nil` when none loaded.
        case banner(Area, source: String?)
        /// A full-screen ad covering its scene's window.
        case fullScreen(Area, FullScreenCreative)
        /// A banner's landing screen covering its scene's window (a placeholder colour).
        case overlay(Area)
        /// A native slider's frame: its background, or the grey block shown while it loads.
        case slider(Area, Slider)
        /// A card of a slider.
        case card(Area, Card)
        /// A single native ad (`style: single`), with a card's fields.
        case native(Area, Card)
        /// The Split View divider: the system's, between the two scenes and part of neither, so a screen-level layer:
        /// its area's scene is `SceneID.screen` and the JSON has no `scene` (timelines written before issue 36 named
        /// the trailing scene, which it lies outside; they still read, as written).
        case divider(Area)
        /// A Slide Over window's rounded rim.
        case edge(Area)
        /// A Slide Over window's soft shadow: its rectangle is the part of the display it may darken; what casts it
        /// (absent in timelines written before Slide Over had a shadow).
        case shadow(Area, ScreenLayer.Shadow?)

        /// Where a layer is: its scene, and its rectangle in output pixels (a `content`/`ad` layer: the player's
        /// window; the picture itself is the segment's `picture`).
        public struct Area: Hashable, Sendable {
            public var scene: SceneID
            public var rect: Rect

            public init(scene: SceneID, rect: Rect) {
                self.scene = scene
                self.rect = rect
            }

            public init(scene: SceneID, rect: PixelRect) {
                self.init(scene: scene, rect: Rect(rect))
            }
        }

        /// A player's window.
        public struct Player: Hashable, Sendable {
            public enum Kind: String, Hashable, Sendable { case content, ad, pip }
            public var kind: Kind
            public var area: Area
            /// The file it shows: the content or the ad; for the `content` layer under a picture-in-picture
            /// window, the background (`nil`: the slate); `nil` for a scene without a player (black).
            public var source: String?
            /// For a player other than the primary one (whose picture the segment itself describes), what it
            /// shows, so that verify can check it from the pixels; `nil` for every other, and in timelines written
            /// before several scenes had players.
            public var playing: Playing?

            public init(_ kind: Kind, _ area: Area, source: String?, playing: Playing? = nil) {
                self.kind = kind
                self.area = area
                self.source = source
                self.playing = playing
            }
        }

        /// What another scene's player shows over a segment: the source's tick at the segment's first frame (one more
        /// per output frame unless `paused`: frozen, or its session ended and its last frame holds), and the ad
        /// playing, if one is.
        public struct Playing: Hashable, Sendable {
            public var srcStartTick: Int64
            public var paused: Bool
            public var ad: AdReference?

            public init(srcStartTick: Int64, paused: Bool, ad: AdReference?) {
                self.srcStartTick = srcStartTick
                self.paused = paused
                self.ad = ad
            }
        }

        /// What a full-screen ad's layer shows.
        public enum FullScreenCreative: Hashable, Sendable {
            /// A plain colour: presented without loaded creatives (`--device` alone).
            case placeholder
            /// An image, read from `source`; also a video in timelines written before its tick was recorded.
            case image(source: String)
            /// A video, read from `source`, at its own tick `srcStartTick` at the segment's first frame (0 at the
            /// frame it presented on; one more per frame; past its end its last frame holds).
            case video(source: String, srcStartTick: Int64)
        }

        /// A slider's frame: its placement (absent in timelines written before verify checked native placements),
        /// and whether it is the grey block shown while the placement loads.
        public struct Slider: Hashable, Sendable {
            public var placement: String?
            public var placeholder: Bool

            public init(placement: String?, placeholder: Bool) {
                self.placement = placement
                self.placeholder = placeholder
            }
        }

        /// A card of a slider, or a single native ad, so that verify can check it from the pixels without the layout
        /// code: the card's index in its response's `ads` and its ad id (`adId`), its placement, the slider's
        /// viewport (`clip`: what of the rectangle is drawn), its corner `radius` in pixels, and its main image
        /// (else its icon). Each is absent in timelines written before verify checked native placements.
        public struct Card: Hashable, Sendable {
            public var index: Int?
            public var adID: String?
            public var placement: String?
            public var clip: Rect?
            public var radius: Int?
            public var image: CardImage?

            public init(index: Int?, adID: String?, placement: String?, clip: Rect?, radius: Int?, image: CardImage? = nil) {
                self.index = index
                self.adID = adID
                self.placement = placement
                self.clip = clip
                self.radius = radius
                self.image = image
            }
        }

        /// A card's main image (else its icon): its rectangle in output pixels, uncut; its corner radius in pixels
        /// (absent in timelines written before images had rounded corners); where its bytes were read from, `nil`
        /// for the grey placeholder (not loaded, or not fetched).
        public struct CardImage: Hashable, Sendable {
            public var rect: Rect
            public var radius: Int?
            public var source: String?

            public init(rect: Rect, radius: Int?, source: String?) {
                self.rect = rect
                self.radius = radius
                self.source = source
            }
        }

        /// A `shadow` layer of the screen model: where it darkens, what casts it and how far it reaches.
        public init(shadow layer: ScreenLayer) {
            self = .shadow(Area(scene: layer.scene, rect: layer.rect), layer.shadow)
        }

        /// The screen model's kind of this layer (the JSON's `kind`).
        public var kind: ScreenLayer.Kind {
            switch self {
            case .player(let player):
                switch player.kind {
                case .content: .content
                case .ad: .ad
                case .pip: .pip
                }
            case .banner: .banner
            case .fullScreen: .fullscreen
            case .overlay: .overlay
            case .slider: .slider
            case .card: .card
            case .native: .native
            case .divider: .divider
            case .edge: .edge
            case .shadow: .shadow
            }
        }

        public var area: Area {
            get {
                switch self {
                case .player(let player): player.area
                case .banner(let area, _), .fullScreen(let area, _), .overlay(let area), .slider(let area, _),
                     .card(let area, _), .native(let area, _), .divider(let area), .edge(let area), .shadow(let area, _): area
                }
            }
            set {
                switch self {
                case .player(var player):
                    player.area = newValue
                    self = .player(player)
                case .banner(_, let source): self = .banner(newValue, source: source)
                case .fullScreen(_, let creative): self = .fullScreen(newValue, creative)
                case .overlay: self = .overlay(newValue)
                case .slider(_, let slider): self = .slider(newValue, slider)
                case .card(_, let card): self = .card(newValue, card)
                case .native(_, let card): self = .native(newValue, card)
                case .divider: self = .divider(newValue)
                case .edge: self = .edge(newValue)
                case .shadow(_, let shadow): self = .shadow(newValue, shadow)
                }
            }
        }

        public var scene: SceneID {
            get { area.scene }
            set { area.scene = newValue }
        }

        public var rect: Rect {
            get { area.rect }
            set { area.rect = newValue }
        }

        /// The layer as it is `frames` output frames later, if its player plays on without a break.
        public func advanced(by frames: Int64) -> Layer {
            switch self {
            case .player(var player):
                guard let playing = player.playing, !playing.paused else { return self }
                player.playing?.srcStartTick = playing.srcStartTick + frames
                return .player(player)
            case .fullScreen(let area, .video(let source, let tick)):
                return .fullScreen(area, .video(source: source, srcStartTick: tick + frames))
            default:
                return self
            }
        }
    }
}

extension Timeline.Layer: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, scene, rect, source, srcStartTick, paused, breakIndex = "break", adIndex = "ad", index, adID = "adId"
        case placement, clip, radius, image, imageRadius, placeholder, caster, reach
    }

    /// The fields each kind may have besides `kind`, `scene` and `rect`.
    static func fields(of kind: ScreenLayer.Kind) -> Set<CodingKeys> {
        switch kind {
        case .content, .ad, .pip: [.source, .srcStartTick, .paused, .breakIndex, .adIndex]
        case .banner: [.source]
        case .fullscreen: [.source, .srcStartTick]
        case .slider: [.placement, .placeholder]
        case .card, .native: [.index, .adID, .placement, .clip, .radius, .image, .imageRadius, .source]
        case .shadow: [.caster, .radius, .reach]
        case .overlay, .divider, .edge: []
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(ScreenLayer.Kind.self, forKey: .kind)
        let allowed = Self.fields(of: kind).union([.kind, .scene, .rect])
        // Keys in the order the JSON gives them is not kept by Foundation: the first in declaration order is named.
        if let foreign = CodingKeys.allCases.first(where: { c.contains($0) && !allowed.contains($0) }) {
            throw DecodingError.dataCorruptedError(forKey: foreign, in: c, debugDescription: "not a field of \(kind.rawValue) layers")
        }
        func together(_ key: CodingKeys, needs other: CodingKeys) throws {
            if c.contains(key) && !c.contains(other) {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "given without \(other.stringValue)")
            }
        }
        // A screen-level layer (the Split View divider) has no scene.
        let scene = kind == .divider ? try c.decodeIfPresent(SceneID.self, forKey: .scene) ?? .screen
            : try c.decode(SceneID.self, forKey: .scene)
        let area = Area(scene: scene, rect: try c.decode(Timeline.Rect.self, forKey: .rect))
        let source = try c.decodeIfPresent(String.self, forKey: .source)
        switch kind {
        case .content, .ad, .pip:
            for key in [CodingKeys.paused, .breakIndex, .adIndex] { try together(key, needs: .srcStartTick) }
            try together(.breakIndex, needs: .adIndex)
            try together(.adIndex, needs: .breakIndex)
            var playing: Playing?
            if let tick = try c.wholeNumberIfPresent(Int64.self, forKey: .srcStartTick) {
                var ad: AdReference?
                if let b = try c.wholeNumberIfPresent(Int.self, forKey: .breakIndex),
                   let a = try c.wholeNumberIfPresent(Int.self, forKey: .adIndex) {
                    ad = AdReference(b, a)
                }
                playing = Playing(srcStartTick: tick, paused: try c.decodeIfPresent(Bool.self, forKey: .paused) ?? false, ad: ad)
            }
            let playerKind: Player.Kind = kind == .content ? .content : kind == .ad ? .ad : .pip
            self = .player(Player(playerKind, area, source: source, playing: playing))
        case .banner:
            self = .banner(area, source: source)
        case .fullscreen:
            try together(.srcStartTick, needs: .source)
            if let source {
                if let tick = try c.wholeNumberIfPresent(Int64.self, forKey: .srcStartTick) {
                    self = .fullScreen(area, .video(source: source, srcStartTick: tick))
                } else {
                    self = .fullScreen(area, .image(source: source))
                }
            } else {
                self = .fullScreen(area, .placeholder)
            }
        case .overlay: self = .overlay(area)
        case .divider: self = .divider(area)
        case .edge: self = .edge(area)
        case .slider:
            self = .slider(area, Slider(placement: try c.decodeIfPresent(String.self, forKey: .placement),
                                        placeholder: try c.decodeIfPresent(Bool.self, forKey: .placeholder) ?? false))
        case .card, .native:
            try together(.imageRadius, needs: .image)
            try together(.source, needs: .image)
            var image: CardImage?
            if let rect = try c.decodeIfPresent(Timeline.Rect.self, forKey: .image) {
                image = CardImage(rect: rect, radius: try c.wholeNumberIfPresent(Int.self, forKey: .imageRadius), source: source)
            }
            let card = Card(index: try c.wholeNumberIfPresent(Int.self, forKey: .index),
                            adID: try c.decodeIfPresent(String.self, forKey: .adID),
                            placement: try c.decodeIfPresent(String.self, forKey: .placement),
                            clip: try c.decodeIfPresent(Timeline.Rect.self, forKey: .clip),
                            radius: try c.wholeNumberIfPresent(Int.self, forKey: .radius), image: image)
            self = kind == .card ? .card(area, card) : .native(area, card)
        case .shadow:
            let given = [CodingKeys.caster, .radius, .reach].filter { c.contains($0) }
            if given.isEmpty {
                self = .shadow(area, nil)
            } else if given.count < 3, let first = given.first {
                throw DecodingError.dataCorruptedError(forKey: first, in: c, debugDescription: "a shadow's caster, radius and reach go together")
            } else {
                let caster = try c.decode(Timeline.Rect.self, forKey: .caster)
                self = .shadow(area, ScreenLayer.Shadow(caster: caster.pixelRect, radius: try c.wholeNumber(Int.self, forKey: .radius),
                                                        reach: try c.wholeNumber(Int.self, forKey: .reach)))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        if scene != .screen { try c.encode(scene, forKey: .scene) }
        try c.encode(rect, forKey: .rect)
        switch self {
        case .player(let player):
            try c.encodeIfPresent(player.source, forKey: .source)
            if let playing = player.playing {
                try c.encode(playing.srcStartTick, forKey: .srcStartTick)
                try c.encode(playing.paused, forKey: .paused)
                try c.encodeIfPresent(playing.ad?.breakIndex, forKey: .breakIndex)
                try c.encodeIfPresent(playing.ad?.adIndex, forKey: .adIndex)
            }
        case .banner(_, let source):
            try c.encodeIfPresent(source, forKey: .source)
        case .fullScreen(_, .image(let source)):
            try c.encode(source, forKey: .source)
        case .fullScreen(_, .video(let source, let tick)):
            try c.encode(source, forKey: .source)
            try c.encode(tick, forKey: .srcStartTick)
        case .slider(_, let slider):
            try c.encodeIfPresent(slider.placement, forKey: .placement)
            if slider.placeholder { try c.encode(true, forKey: .placeholder) }
        case .card(_, let card), .native(_, let card):
            try c.encodeIfPresent(card.image?.source, forKey: .source)
            try c.encodeIfPresent(card.index, forKey: .index)
            try c.encodeIfPresent(card.adID, forKey: .adID)
            try c.encodeIfPresent(card.placement, forKey: .placement)
            try c.encodeIfPresent(card.clip, forKey: .clip)
            try c.encodeIfPresent(card.radius, forKey: .radius)
            try c.encodeIfPresent(card.image?.rect, forKey: .image)
            try c.encodeIfPresent(card.image?.radius, forKey: .imageRadius)
        case .shadow(_, let shadow?):
            try c.encode(Timeline.Rect(shadow.caster), forKey: .caster)
            try c.encode(shadow.radius, forKey: .radius)
            try c.encode(shadow.reach, forKey: .reach)
        case .fullScreen(_, .placeholder), .overlay, .divider, .edge, .shadow(_, nil):
            break
        }
    }
}
