import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// What the ad server decided for one session: its breaks on the content clock and their ads, or why it has none.
/// A slow or failing ad server gives the viewer the content without ads, never an error.
public struct SessionAds: Sendable, Codable {
    public enum Outcome: Sendable, Equatable, Codable {
        /// The ad server answered (a VAST or VMAP document, `kind`), possibly with no break that can play.
        case decided(kind: String)
        /// No ads for this viewer, and why (the ad server failed, was late, or answered nothing usable).
        case noAds(reason: String)
    }

    public struct Break: Sendable {
        public var position: BreakPosition
        public var ads: [Ad]
    }

    public struct Ad: Sendable {
        public var id: String?
        public var title: String?
        public var duration: MediaDuration?
        /// The chosen media file's URL (its conditioning per rendition is the server's job).
        public var media: String?
        /// The local file `--url-map` maps that URL to, when it does (then nothing is downloaded).
        public var localMedia: String?
        /// Beacon URL templates by event (`impression`, `start`, quartiles, `complete`, …).
        public var beacons: [(event: String, urls: [String])]
    }

    public var outcome: Outcome
    public var breaks: [Break]
    /// What the decisioning dropped on the way (VAST error codes and their reasons), for the tracking document.
    public var errors: [String]

    /// The decision; a VAST answer (a pre-roll of its own) fills each of the origin's `cues` instead, when it has
    /// any, as MediaTailor fills a manifest's ad avails.
    static func decided(_ result: AdsLoadResult, cues: [Rational] = []) -> SessionAds {
        let breaks = result.plan.breaks.map { adBreak in
            Break(position: adBreak.position, ads: adBreak.ads.filter { $0.state == .available }.map { planned in
                let ad = planned.ad
                var beacons: [(event: String, urls: [String])] = []
                if !ad.beacons.impressions.isEmpty { beacons.append(("impression", ad.beacons.impressions)) }
                for name in ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
                    let urls = ad.beacons.tracking.filter { $0.event.rawValue == name }.map(\.url)
                    if !urls.isEmpty { beacons.append((name, urls)) }
                }
                return Ad(id: ad.id, title: ad.adTitle, duration: ad.declaredDuration,
                          media: ad.selection?.remoteURL?.absoluteString ?? ad.selection?.chosen?.url,
                          localMedia: ad.selection?.localPath, beacons: beacons)
            })
        }.filter { !$0.ads.isEmpty }
        var placed = breaks
        if result.kind == .vast, !cues.isEmpty, let ads = breaks.first?.ads {
            placed = cues.map { Break(position: $0 == .zero ? .preroll : .midroll(MediaTime(seconds: $0)), ads: ads) }
        }
        return SessionAds(outcome: .decided(kind: result.kind.rawValue), breaks: placed,
                          errors: result.plan.errors.map { "\($0)" })
    }

    package static func none(_ reason: String) -> SessionAds {
        SessionAds(outcome: .noAds(reason: reason), breaks: [], errors: [])
    }
}

/// Asks the ad server for one session's ads: `--ads` filled in for it, fetched and resolved by the decisioning
/// (VAST, VMAP, wrappers) within `--decision-timeout`, with the viewer's address and agent passed on as VAST 4's
/// server-to-server headers.
public struct SessionDecider: Sendable {
    public var template: AdRequestTemplate
    public var settings: AdsLoaderSettings

    /// - Parameter urlMap: `--url-map`: ad documents and media under its prefixes are read from local files.
    public init(template: AdRequestTemplate, decisionTimeout: Duration, urlMap: URLMap? = nil) {
        self.template = template
        var settings = AdsLoaderSettings()
        settings.urlMap = urlMap
        settings.decisionTimeout = decisionTimeout
        settings.firstRequestTimeout = decisionTimeout
        settings.wrapperTimeout = min(settings.wrapperTimeout, decisionTimeout)
        self.settings = settings
    }

    /// A viewer's value as a header value: no control character (a CR or LF would start another header), at most 512.
    static func headerValue(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(512))
    }

    public func decide(_ values: AdRequestTemplate.Values, content: OriginContent) async -> SessionAds {
        let url = template.url(for: values)
        let cues = content.cues
        let request = AdsRequest(adTag: url, contentDuration: MediaDuration(seconds: content.duration), cuePoints: cues.map { MediaTime(seconds: $0) })
        var settings = self.settings
        settings.requestHeaders = ["X-Device-IP": Self.headerValue(values.clientIP), "X-Device-User-Agent": Self.headerValue(values.userAgent)]
        do {
            let result = try await AdsLoader(settings: settings).load(request)
            return .decided(result, cues: cues)
        } catch {
            return .none("the ad request failed: \(error)")
        }
    }
}
