import Foundation
import MediaCore

/// What `pipctl ads inspect` shows: the planned breaks, each ad with its chosen media file and why, and every
/// error. `Codable`; `json()` and `text` render it.
///
/// JSON shape (keys sorted; absent values are `null`, never missing):
/// - `source`, `kind` (`vast`, `vmap`), `contentDuration` (seconds or null), `window` (`640x360`);
/// - `breaks[]`: `position` (`preroll`, `midroll`, `postroll`), `offset` (seconds into the content: 0 for a
///   pre-roll, the time of a mid-roll, the content's duration for a post-roll, or null when that is not known),
///   `breakId`, `breakType`, `tracking` (count of
///   `breakStart`/`breakEnd`/`error` URLs), `ads[]`;
/// - `ads[]`: `id`, `sequence`, `adSystem`, `title`, `duration` (declared, seconds or null), `skipOffset` (as
///   VAST means it: `"5s"`, `"5.5s"` or `"25%"`; null when not skippable), `state` (`available` or `failed`),
///   `error` (`{code, message}` or null), `mediaFile` (`url`, `type`, `width`, `height`, `bitrate`, `localPath`;
///   null when none was chosen), `candidates[]` (`url`, `type`, `width`, `height`, `bitrate`, `accepted`,
///   `reason`), `wrappers[]` (`adSystem`, `tagURI`, `source`, outermost first), `impressions`, `tracking`,
///   `clickTracking` and `errorURLs` (counts), `trackingEvents` (count per event name), `clickThrough`, and the
///   URLs themselves: `impressionURLs`, `trackingURLs` (event name → URL templates, in document order; a
///   `progress` event is named with its offset, `progress@10.5s` or `progress@25%`), `clickTrackingURLs`,
///   `errorURLTemplates`; `companions[]` (`id`, `width`, `height`, `adSlotId`, `resources`, `clickThrough`,
///   `clickTrackingURLs`, `trackingURLs`) and `nonLinears[]` (`id`, `width`, `height`, `minSuggestedDuration`
///   in seconds, `resources`, `clickThrough`, `clickTrackingURLs`, and the `trackingURLs` of their
///   `NonLinearAds`); a resource is `static TYPE URL`, `iframe URL` or `html (N characters)`;
/// - a break's `trackingURLs` (its VMAP `breakStart`/`breakEnd`/`error` URL templates by event) and
///   `fallbacks[]`: the stand-alone ads of its pod response kept to replace an ad that fails, as ads;
/// - `errors[]` (`code`, `message`): what could not be used (no fill, wrappers, breaks left out) and, after
///   those, the error of each failed ad; `warnings[]`: what was dropped while reading.
///
/// Semantics the command line relies on: a report is returned whenever the ad tag itself could be read, so a
/// no-fill response is a success with no breaks and its 303 in `errors` (exit 0); a tag that is not XML (100, the
/// line in the message), VAST 1 (102) or unreachable makes `AdsInspector.inspect` throw (exit 1).
public struct AdsInspectReport: Codable, Hashable, Sendable {
    public var source: String
    public var kind: String
    @NullEncoded public var contentDuration: Double?
    public var window: String
    public var breaks: [Break]
    public var errors: [Issue]
    public var warnings: [Issue]

    /// A VAST code and a message.
    public struct Issue: Codable, Hashable, Sendable {
        public var code: Int
        public var message: String

        public init(_ error: AdError) {
            code = error.code.rawValue
            message = error.message
        }
    }

    /// One break of the plan.
    public struct Break: Codable, Hashable, Sendable {
        public var position: String
        @NullEncoded public var offset: Double?
        @NullEncoded public var breakId: String?
        public var breakType: String
        public var tracking: Int
        /// The break's VMAP tracking URL templates by event (`breakStart`, `breakEnd`, `error`).
        public var trackingURLs: [String: [String]]
        public var ads: [Ad]
        public var fallbacks: [Ad]
    }

    /// A companion ad of an ad, as listed (pipctl does not draw companions).
    public struct Companion: Codable, Hashable, Sendable {
        @NullEncoded public var id: String?
        @NullEncoded public var width: Int?
        @NullEncoded public var height: Int?
        @NullEncoded public var adSlotId: String?
        public var resources: [String]
        @NullEncoded public var clickThrough: String?
        public var clickTrackingURLs: [String]
        public var trackingURLs: [String: [String]]
    }

    /// A non-linear (overlay) creative of an ad, as listed (pipctl does not draw overlays).
    public struct NonLinear: Codable, Hashable, Sendable {
        @NullEncoded public var id: String?
        @NullEncoded public var width: Int?
        @NullEncoded public var height: Int?
        @NullEncoded public var minSuggestedDuration: Double?
        public var resources: [String]
        @NullEncoded public var clickThrough: String?
        public var clickTrackingURLs: [String]
        public var trackingURLs: [String: [String]]
    }

    /// One ad of a break, with its chosen media and why.
    public struct Ad: Codable, Hashable, Sendable {
        @NullEncoded public var id: String?
        @NullEncoded public var sequence: Int?
        @NullEncoded public var adSystem: String?
        @NullEncoded public var title: String?
        @NullEncoded public var duration: Double?
        @NullEncoded public var skipOffset: String?
        public var state: String
        @NullEncoded public var error: Issue?
        @NullEncoded public var mediaFile: Media?
        public var candidates: [Candidate]
        public var wrappers: [Wrapper]
        /// Its beacons, written flat beside the rest.
        public var beacons: Beacons
        public var companions: [Companion]
        public var nonLinears: [NonLinear]

        /// An ad's beacons: how many of each kind, and their URLs.
        public struct Beacons: Codable, Hashable, Sendable {
            public var impressions: Int
            public var tracking: Int
            public var trackingEvents: [String: Int]
            @NullEncoded public var clickThrough: String?
            public var clickTracking: Int
            public var errorURLs: Int
            public var impressionURLs: [String]
            public var trackingURLs: [String: [String]]
            public var clickTrackingURLs: [String]
            public var errorURLTemplates: [String]
        }

        private enum CodingKeys: String, CodingKey {
            case id, sequence, adSystem, title, duration, skipOffset, state, error, mediaFile, candidates, wrappers, companions, nonLinears
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_id, forKey: .id)
            try container.encode(_sequence, forKey: .sequence)
            try container.encode(_adSystem, forKey: .adSystem)
            try container.encode(_title, forKey: .title)
            try container.encode(_duration, forKey: .duration)
            try container.encode(_skipOffset, forKey: .skipOffset)
            try container.encode(state, forKey: .state)
            try container.encode(_error, forKey: .error)
            try container.encode(_mediaFile, forKey: .mediaFile)
            try container.encode(candidates, forKey: .candidates)
            try container.encode(wrappers, forKey: .wrappers)
            try container.encode(companions, forKey: .companions)
            try container.encode(nonLinears, forKey: .nonLinears)
            // The beacons' keys go into the same object.
            try beacons.encode(to: encoder)
        }
    }

    /// The chosen rendition.
    public struct Media: Codable, Hashable, Sendable {
        public var url: String
        @NullEncoded public var type: String?
        @NullEncoded public var width: Int?
        @NullEncoded public var height: Int?
        @NullEncoded public var bitrate: Int?
        @NullEncoded public var localPath: String?
    }

    /// One rendition considered for an ad: taken or refused, and why.
    public struct Candidate: Codable, Hashable, Sendable {
        public var url: String
        @NullEncoded public var type: String?
        @NullEncoded public var width: Int?
        @NullEncoded public var height: Int?
        @NullEncoded public var bitrate: Int?
        public var accepted: Bool
        public var reason: String
    }

    /// One wrapper that led to an ad.
    public struct Wrapper: Codable, Hashable, Sendable {
        @NullEncoded public var adSystem: String?
        public var tagURI: String
        @NullEncoded public var source: String?
    }

    /// Builds the report of a load.
    public init(_ result: AdsLoadResult, contentDuration: MediaDuration?, window: PixelSize) {
        source = result.source
        kind = result.kind.rawValue
        self.contentDuration = contentDuration?.seconds.doubleValue
        self.window = window.description
        breaks = result.plan.breaks.map { b in
            let (position, offset): (String, Double?) = switch b.position {
            case .preroll: ("preroll", 0)
            case .midroll(let t): ("midroll", t.seconds.doubleValue)
            // A post-roll plays when the content ends: at its duration, when that is known.
            case .postroll: ("postroll", contentDuration?.seconds.doubleValue)
            }
            return Break(position: position, offset: offset, breakId: b.id, breakType: b.breakType,
                         tracking: b.tracking.count, trackingURLs: AdsInspectReport.urlsByEvent(b.tracking), ads: b.ads.map(AdsInspectReport.ad),
                         fallbacks: b.fallbacks.map { AdsInspectReport.ad(PlannedAd(ad: $0)) })
        }
        errors = result.plan.errors.map(Issue.init)
            + result.plan.breaks.flatMap { $0.ads.compactMap(\.error).map(Issue.init) }
        warnings = result.warnings.map(Issue.init)
    }

    static func ad(_ planned: PlannedAd) -> Ad {
        let ad = planned.ad
        let chosen = ad.selection?.chosen
        return Ad(id: ad.id, sequence: ad.sequence, adSystem: ad.adSystem, title: ad.adTitle,
                  duration: ad.declaredDuration?.seconds.doubleValue, skipOffset: ad.skipOffset.map(skipText),
                  state: planned.state.rawValue, error: planned.error.map(Issue.init),
                  mediaFile: chosen.map {
                      Media(url: $0.url, type: $0.type, width: $0.width, height: $0.height, bitrate: $0.bitrate,
                            localPath: ad.selection?.localPath)
                  },
                  candidates: (ad.selection?.candidates ?? []).map {
                      Candidate(url: $0.file.url, type: $0.file.type, width: $0.file.width, height: $0.file.height,
                                bitrate: $0.file.bitrate, accepted: $0.accepted, reason: $0.reason)
                  },
                  wrappers: ad.wrappers.map { Wrapper(adSystem: $0.adSystem, tagURI: $0.tagURI, source: $0.source) },
                  beacons: Ad.Beacons(
                      impressions: ad.beacons.impressions.count, tracking: ad.beacons.tracking.count,
                      trackingEvents: Dictionary(ad.beacons.tracking.map { ($0.event.rawValue, 1) }, uniquingKeysWith: +),
                      clickThrough: ad.beacons.clickThrough, clickTracking: ad.beacons.clickTracking.count, errorURLs: ad.beacons.errorURLs.count,
                      impressionURLs: ad.beacons.impressions, trackingURLs: urlsByEvent(ad.beacons.tracking), clickTrackingURLs: ad.beacons.clickTracking,
                      errorURLTemplates: ad.beacons.errorURLs),
                  companions: ad.companions.map {
                      Companion(id: $0.id, width: $0.size?.width, height: $0.size?.height, adSlotId: $0.adSlotId,
                                resources: $0.resources.map(resourceText), clickThrough: $0.clickThrough,
                                clickTrackingURLs: $0.clickTracking, trackingURLs: urlsByEvent($0.tracking))
                  },
                  nonLinears: ad.nonLinearAds.flatMap { group in
                      group.nonLinears.map {
                          NonLinear(id: $0.id, width: $0.size?.width, height: $0.size?.height,
                                    minSuggestedDuration: $0.minSuggestedDuration?.seconds.doubleValue,
                                    resources: $0.resources.map(resourceText), clickThrough: $0.clickThrough,
                                    clickTrackingURLs: $0.clickTracking, trackingURLs: urlsByEvent(group.tracking))
                      }
                  })
    }

    /// Tracking URL templates by event name, each event's in document order; `progress` events are named with
    /// their offset (`progress@10.5s`, `progress@25%`), since each fires at its own time.
    static func urlsByEvent(_ tracking: [TrackingEvent]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for event in tracking {
            let name = event.offset.map { "\(event.event.rawValue)@\(skipText($0))" } ?? event.event.rawValue
            out[name, default: []].append(event.url)
        }
        return out
    }

    /// `static image/png URL`, `iframe URL` or `html (N characters)`.
    static func resourceText(_ resource: VASTResource) -> String {
        switch resource {
        case .staticResource(let url, let type): "static \(type ?? "?") \(url)"
        case .iframe(let url): "iframe \(url)"
        case .html(let markup): "html (\(markup.count) characters)"
        }
    }

    /// `5s`, `5.5s` or `25%`.
    static func skipText(_ offset: AdOffset) -> String {
        switch offset {
        case .time(let d): "\(number(d.seconds))s"
        case .fraction(let f): "\(number(f * Rational(100)))%"
        }
    }

    /// A rational as a short decimal: `5`, `5.5`, `0.333`.
    static func number(_ r: Rational) -> String {
        if r.isInteger { return String(r.numerator) }
        let milli = (r * Rational(1000)).rounded
        var s = String(format: "%.3f", Double(milli) / 1000)
        while s.hasSuffix("0") { s.removeLast() }
        return s.hasSuffix(".") ? String(s.dropLast()) : s
    }

    /// The report as JSON: pretty-printed, keys sorted, slashes unescaped, ending with a newline.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value here is a string, number, boolean or null: encoding cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

extension AdsInspectReport.Ad {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _id = try container.decode(NullEncoded<String>.self, forKey: .id)
        _sequence = try container.decode(NullEncoded<Int>.self, forKey: .sequence)
        _adSystem = try container.decode(NullEncoded<String>.self, forKey: .adSystem)
        _title = try container.decode(NullEncoded<String>.self, forKey: .title)
        _duration = try container.decode(NullEncoded<Double>.self, forKey: .duration)
        _skipOffset = try container.decode(NullEncoded<String>.self, forKey: .skipOffset)
        state = try container.decode(String.self, forKey: .state)
        _error = try container.decode(NullEncoded<AdsInspectReport.Issue>.self, forKey: .error)
        _mediaFile = try container.decode(NullEncoded<AdsInspectReport.Media>.self, forKey: .mediaFile)
        candidates = try container.decode([AdsInspectReport.Candidate].self, forKey: .candidates)
        wrappers = try container.decode([AdsInspectReport.Wrapper].self, forKey: .wrappers)
        companions = try container.decode([AdsInspectReport.Companion].self, forKey: .companions)
        nonLinears = try container.decode([AdsInspectReport.NonLinear].self, forKey: .nonLinears)
        beacons = try Beacons(from: decoder)
    }
}
