import Foundation
import MediaCore

/// A time within an ad, as VAST writes offsets: a clock time or a percentage of the ad's duration.
public enum AdOffset: Hashable, Sendable {
    case time(MediaDuration)
    /// A fraction of the duration, `Rational(25, 100)` for `25%`.
    case fraction(Rational)

    /// The offset on the ad's own clock, given the ad's real duration.
    public func resolved(duration: MediaDuration) -> MediaDuration {
        switch self {
        case .time(let t): t
        case .fraction(let f): duration * f
        }
    }
}

/// One `<Tracking>` URL of a linear creative (or of a VMAP break), with the event it belongs to.
public struct TrackingEvent: Hashable, Sendable {
    /// The VAST event: `start`, `firstQuartile`, `midpoint`, `thirdQuartile`, `complete`, `progress`, `skip`,
    /// `pause`, `resume`, `mute`, `creativeView`, … For VMAP: `breakStart`, `breakEnd`, `error`.
    public var event: TrackingEventName
    /// For `progress`: when it fires on the ad's clock.
    public var offset: AdOffset?
    /// The URL template, macros unexpanded, whitespace removed.
    public var url: String

    public init(event: TrackingEventName, offset: AdOffset? = nil, url: String) {
        self.event = event
        self.offset = offset
        self.url = url
    }
}

/// One `<MediaFile>` rendition.
public struct MediaFile: Hashable, Sendable {
    public var url: String
    /// `progressive` or `streaming`.
    public var delivery: String?
    /// MIME type, `video/mp4`.
    public var type: String?
    public var width: Int?
    public var height: Int?
    /// kbit/s; for adaptive files `minBitrate`/`maxBitrate` may be given instead.
    public var bitrate: Int?
    public var minBitrate: Int?
    public var maxBitrate: Int?
    public var codec: String?
    public var id: String?
    /// `VPAID` marks an interactive creative that is recognised and never played.
    public var apiFramework: String?
    public var scalable: Bool?
    public var maintainAspectRatio: Bool?
    /// `fileSize` in bytes (VAST 4.1).
    public var fileSize: Int?
    /// `mediaType` (VAST 4.1): `2D`, `3D` or `360`.
    public var mediaType: String?
    /// Why the origin policy refuses this rendition (a remote document naming a local file or another scheme),
    /// set when the ad is assembled; a refused rendition is never chosen (`MediaSelector`).
    public var originRefusal: String? = nil

    public init(url: String, delivery: String? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil,
                bitrate: Int? = nil, minBitrate: Int? = nil, maxBitrate: Int? = nil, codec: String? = nil,
                id: String? = nil, apiFramework: String? = nil, scalable: Bool? = nil, maintainAspectRatio: Bool? = nil,
                fileSize: Int? = nil, mediaType: String? = nil) {
        self.url = url
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.minBitrate = minBitrate
        self.maxBitrate = maxBitrate
        self.codec = codec
        self.id = id
        self.apiFramework = apiFramework
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.fileSize = fileSize
        self.mediaType = mediaType
    }
}

/// Why each rendition was taken or refused, and the one that was chosen.
public struct MediaSelection: Hashable, Sendable {
    public struct Candidate: Hashable, Sendable {
        public var file: MediaFile
        public var accepted: Bool
        /// "type video/webm is not allowed", "bitrate 4000 kbit/s above the maximum 2000", "best fit for 640x360"
        public var reason: String

        public init(file: MediaFile, accepted: Bool, reason: String) {
            self.file = file
            self.accepted = accepted
            self.reason = reason
        }
    }

    /// One rendition and where its bytes come from.
    public struct Rendition: Hashable, Sendable {
        public var file: MediaFile
        /// The rendition as a local file (a path, a `file://` URL or a URL-mapped one).
        public var localPath: String?
        /// Its http(s) URL when it is not local: downloaded into the media cache before its ad plays.
        public var remoteURL: URL?

        public init(file: MediaFile, localPath: String? = nil, remoteURL: URL? = nil) {
            self.file = file
            self.localPath = localPath
            self.remoteURL = remoteURL
        }
    }

    public var chosen: MediaFile?
    /// The chosen rendition as a local file (a path, a `file://` URL or a URL-mapped one).
    public var localPath: String?
    /// The chosen rendition's http(s) URL when it is not local: a render downloads it into the media cache before
    /// its ad plays.
    public var remoteURL: URL?
    public var candidates: [Candidate]
    /// The acceptable candidates (indices into `candidates`), best first, as `MediaSelector` ranks them.
    public var preference: [Int]
    /// The other acceptable renditions whose location could be resolved, in order of preference: what the player
    /// tries, one after the other, when the chosen one cannot be fetched or decoded.
    public var fallbacks: [Rendition]

    public init(chosen: MediaFile?, localPath: String? = nil, remoteURL: URL? = nil, candidates: [Candidate],
                preference: [Int] = [], fallbacks: [Rendition] = []) {
        self.chosen = chosen
        self.localPath = localPath
        self.remoteURL = remoteURL
        self.candidates = candidates
        self.preference = preference
        self.fallbacks = fallbacks
    }

    /// The chosen rendition, then the fallbacks: everything a player may try, in order.
    public var renditions: [Rendition] {
        (chosen.map { [Rendition(file: $0, localPath: localPath, remoteURL: remoteURL)] } ?? []) + fallbacks
    }

    /// Makes `rendition` the chosen one, with the renditions after it as the fallbacks left (a player fell back
    /// to it, or the better ones could not be resolved).
    public mutating func choose(_ rendition: Rendition) {
        let all = renditions
        chosen = rendition.file
        localPath = rendition.localPath
        remoteURL = rendition.remoteURL
        fallbacks = all.firstIndex(of: rendition).map { Array(all[($0 + 1)...]) } ?? []
    }
}

/// One wrapper that led to the ad, outermost first.
public struct WrapperHop: Hashable, Sendable {
    public var adSystem: String?
    /// The `VASTAdTagURI` it pointed at, as written (after whitespace removal).
    public var tagURI: String
    /// The document it came from.
    public var source: String?

    public init(adSystem: String?, tagURI: String, source: String?) {
        self.adSystem = adSystem
        self.tagURI = tagURI
        self.source = source
    }
}

/// A `<UniversalAdId>` (VAST 4).
public struct UniversalAdId: Hashable, Sendable {
    public var registry: String
    public var value: String

    public init(registry: String, value: String) {
        self.registry = registry
        self.value = value
    }
}

/// A playable linear ad after wrapper resolution: the inline creative with every wrapper's impressions,
/// tracking and error URLs merged in. This is what the plan holds and the ads manager plays.
public struct LinearAd: Hashable, Sendable {
    /// `<Ad id>`.
    public var id: String?
    /// `<Ad sequence>`: position in a pod; `nil` for a stand-alone (buffet) ad.
    public var sequence: Int?
    public var adSystem: String?
    public var adTitle: String?
    public var universalAdIds: [UniversalAdId]
    /// `<Creative id>` / `adId` of the linear creative.
    public var creativeId: String?
    /// `<Duration>` as declared; the media's own length decides when the ad really ends.
    public var declaredDuration: MediaDuration?
    /// `skipoffset`; `nil` when the ad cannot be skipped.
    public var skipOffset: AdOffset?
    public var mediaFiles: [MediaFile]
    /// Filled by media file selection.
    public var selection: MediaSelection?
    /// Its beacons, inline and wrappers' merged.
    public var beacons: Beacons
    /// The wrapper chain that led here, outermost first; empty for an inline response.
    public var wrappers: [WrapperHop]
    /// The inline ad's companion ads (shown beside the player; listed, not drawn).
    public var companions: [VASTCompanion]
    /// The inline ad's non-linear creatives (overlays; listed, not drawn), one entry per `<NonLinearAds>`.
    public var nonLinearAds: [VASTNonLinearAds]
    /// The local files of the documents the ad was read from (its inline response and every wrapper on the way,
    /// after the URL map), sorted; empty when they were all fetched over the network. A render reads them, so no
    /// output of it may be one of them.
    public var documents: [String] = []

    public init(id: String? = nil, sequence: Int? = nil, adSystem: String? = nil, adTitle: String? = nil,
                universalAdIds: [UniversalAdId] = [], creativeId: String? = nil,
                declaredDuration: MediaDuration? = nil, skipOffset: AdOffset? = nil, mediaFiles: [MediaFile] = [],
                selection: MediaSelection? = nil, impressions: [String] = [], errorURLs: [String] = [],
                tracking: [TrackingEvent] = [], clickThrough: String? = nil, clickTracking: [String] = [],
                wrappers: [WrapperHop] = [], companions: [VASTCompanion] = [], nonLinearAds: [VASTNonLinearAds] = []) {
        self.id = id
        self.sequence = sequence
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.universalAdIds = universalAdIds
        self.creativeId = creativeId
        self.declaredDuration = declaredDuration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.selection = selection
        beacons = Beacons(impressions: impressions, errorURLs: errorURLs, tracking: tracking, clickThrough: clickThrough,
                          clickTracking: clickTracking)
        self.wrappers = wrappers
        self.companions = companions
        self.nonLinearAds = nonLinearAds
    }

    /// The URLs an ad's playback fires, inline and wrappers' merged, and where a click goes.
    public struct Beacons: Hashable, Sendable {
        /// Impression URL templates, all fired together when the ad starts.
        public var impressions: [String]
        /// Error URL templates, fired with `[ERRORCODE]` when the ad fails.
        public var errorURLs: [String]
        /// Tracking events of the creative and of every wrapper.
        public var tracking: [TrackingEvent]
        public var clickThrough: String?
        public var clickTracking: [String]

        public init(impressions: [String] = [], errorURLs: [String] = [], tracking: [TrackingEvent] = [],
                    clickThrough: String? = nil, clickTracking: [String] = []) {
            self.impressions = impressions
            self.errorURLs = errorURLs
            self.tracking = tracking
            self.clickThrough = clickThrough
            self.clickTracking = clickTracking
        }
    }

    /// The local file to play: the resolved path of the chosen rendition.
    public var localMediaPath: String? { selection?.localPath }
}
