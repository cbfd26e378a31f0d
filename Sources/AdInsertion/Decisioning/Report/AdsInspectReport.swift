import Foundation
import MediaCore

/// What `pipctl ads inspect` shows: the planned breaks, each ad with its chosen media file and why, and every
/// error. `Codable`; `json()` and `text` render it.
///
/// JSON shape (keys sorted; absent values are `null`, never missing):
/// - `source`, `kind` (`vast`, `vmap`), `contentDuration` (seconds or null), `window` (`640x360`);
/// - `breaks[]`: `position` (`preroll`, `midroll`, `postroll`), `offset` (seconds into the content: 0 for a
///   pre-roll, the time of a mid-roll, null for a post-roll), `breakId`, `breakType`, `tracking` (count of
///   `breakStart`/`breakEnd`/`error` URLs), `ads[]`;
/// - `ads[]`: `id`, `sequence`, `adSystem`, `title`, `duration` (declared, seconds or null), `skipOffset` (as
///   VAST means it: `"5s"`, `"5.5s"` or `"25%"`; null when not skippable), `state` (`available` or `failed`),
///   `error` (`{code, message}` or null), `mediaFile` (`url`, `type`, `width`, `height`, `bitrate`, `localPath`;
///   null when none was chosen), `candidates[]` (`url`, `type`, `width`, `height`, `bitrate`, `accepted`,
///   `reason`), `wrappers[]` (`adSystem`, `tagURI`, `source`, outermost first), `impressions`, `tracking`,
///   `clickTracking` and `errorURLs` (counts), `trackingEvents` (count per event name), `clickThrough`;
/// - `errors[]` (`code`, `message`): what could not be used (no fill, wrappers, breaks left out) and, after
///   those, the error of each failed ad; `warnings[]`: what was dropped while reading.
///
/// Semantics the command line relies on: a report is returned whenever the ad tag itself could be read, so a
/// no-fill response is a success with no breaks and its 303 in `errors` (exit 0); a tag that is not XML (100, the
/// line in the message), VAST 1 (102) or unreachable makes `AdsInspector.inspect` throw (exit 1).
public struct AdsInspectReport: Codable, Hashable, Sendable {
    public var source: String
    public var kind: String
    public var contentDuration: Double?
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

    public struct Break: Codable, Hashable, Sendable {
        public var position: String
        public var offset: Double?
        public var breakId: String?
        public var breakType: String
        public var tracking: Int
        public var ads: [Ad]

        enum CodingKeys: String, CodingKey { case position, offset, breakId, breakType, tracking, ads }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(position, forKey: .position)
            try c.encode(offset, forKey: .offset)
            try c.encode(breakId, forKey: .breakId)
            try c.encode(breakType, forKey: .breakType)
            try c.encode(tracking, forKey: .tracking)
            try c.encode(ads, forKey: .ads)
        }
    }

    public struct Ad: Codable, Hashable, Sendable {
        public var id: String?
        public var sequence: Int?
        public var adSystem: String?
        public var title: String?
        public var duration: Double?
        public var skipOffset: String?
        public var state: String
        public var error: Issue?
        public var mediaFile: Media?
        public var candidates: [Candidate]
        public var wrappers: [Wrapper]
        public var impressions: Int
        public var tracking: Int
        public var trackingEvents: [String: Int]
        public var clickThrough: String?
        public var clickTracking: Int
        public var errorURLs: Int

        enum CodingKeys: String, CodingKey {
            case id, sequence, adSystem, title, duration, skipOffset, state, error, mediaFile, candidates, wrappers,
                 impressions, tracking, trackingEvents, clickThrough, clickTracking, errorURLs
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(sequence, forKey: .sequence)
            try c.encode(adSystem, forKey: .adSystem)
            try c.encode(title, forKey: .title)
            try c.encode(duration, forKey: .duration)
            try c.encode(skipOffset, forKey: .skipOffset)
            try c.encode(state, forKey: .state)
            try c.encode(error, forKey: .error)
            try c.encode(mediaFile, forKey: .mediaFile)
            try c.encode(candidates, forKey: .candidates)
            try c.encode(wrappers, forKey: .wrappers)
            try c.encode(impressions, forKey: .impressions)
            try c.encode(tracking, forKey: .tracking)
            try c.encode(trackingEvents, forKey: .trackingEvents)
            try c.encode(clickThrough, forKey: .clickThrough)
            try c.encode(clickTracking, forKey: .clickTracking)
            try c.encode(errorURLs, forKey: .errorURLs)
        }
    }

    /// The chosen rendition.
    public struct Media: Codable, Hashable, Sendable {
        public var url: String
        public var type: String?
        public var width: Int?
        public var height: Int?
        public var bitrate: Int?
        public var localPath: String?

        enum CodingKeys: String, CodingKey { case url, type, width, height, bitrate, localPath }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(url, forKey: .url)
            try c.encode(type, forKey: .type)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(bitrate, forKey: .bitrate)
            try c.encode(localPath, forKey: .localPath)
        }
    }

    public struct Candidate: Codable, Hashable, Sendable {
        public var url: String
        public var type: String?
        public var width: Int?
        public var height: Int?
        public var bitrate: Int?
        public var accepted: Bool
        public var reason: String

        enum CodingKeys: String, CodingKey { case url, type, width, height, bitrate, accepted, reason }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(url, forKey: .url)
            try c.encode(type, forKey: .type)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(bitrate, forKey: .bitrate)
            try c.encode(accepted, forKey: .accepted)
            try c.encode(reason, forKey: .reason)
        }
    }

    public struct Wrapper: Codable, Hashable, Sendable {
        public var adSystem: String?
        public var tagURI: String
        public var source: String?

        enum CodingKeys: String, CodingKey { case adSystem, tagURI, source }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(adSystem, forKey: .adSystem)
            try c.encode(tagURI, forKey: .tagURI)
            try c.encode(source, forKey: .source)
        }
    }

    enum CodingKeys: String, CodingKey { case source, kind, contentDuration, window, breaks, errors, warnings }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(kind, forKey: .kind)
        try c.encode(contentDuration, forKey: .contentDuration)
        try c.encode(window, forKey: .window)
        try c.encode(breaks, forKey: .breaks)
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
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
            case .postroll: ("postroll", nil)
            }
            return Break(position: position, offset: offset, breakId: b.id, breakType: b.breakType,
                         tracking: b.tracking.count, ads: b.ads.map(AdsInspectReport.ad))
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
                  impressions: ad.impressions.count, tracking: ad.tracking.count,
                  trackingEvents: Dictionary(ad.tracking.map { ($0.event, 1) }, uniquingKeysWith: +),
                  clickThrough: ad.clickThrough, clickTracking: ad.clickTracking.count, errorURLs: ad.errorURLs.count)
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
