@testable import AdDecisioning
import Foundation
import MediaCore

/// The subset of a parsed VAST document that conformance with zentrick/iab-vast-parser's expected results checks:
/// ad count and kind, ids, impressions, wrapper tags, and per linear creative its duration, skip offset, media
/// files, tracking URLs and clicks. Built both from zentrick's JSON and from our `VASTDocument`, then compared.
struct ConformanceSummary: Equatable, CustomStringConvertible {
    struct Ad: Equatable {
        var kind: String
        var id: String?
        var impressions: [String]
        var tagURI: String?
        /// Linear creatives as canonical text, sorted: creative order is not compared (zentrick sorts by
        /// `sequence`, we keep document order).
        var linears: [String]
    }

    var ads: [Ad]

    var description: String {
        ads.map { "\($0.kind) \($0.id ?? "-") imp=\($0.impressions) tag=\($0.tagURI ?? "-")\n    " + $0.linears.joined(separator: "\n    ") }
            .joined(separator: "\n")
    }

    /// One linear creative as text. Offsets are compared for `progress` events only: zentrick also keeps the
    /// (meaningless) `offset` of other events, which we drop.
    static func linear(duration: Double?, skip: String?, media: [String], tracking: [String: [String]],
                       clickThrough: String?, clickTracking: [String]) -> String {
        let events = tracking.keys.sorted().map { "\($0)=\(tracking[$0]!)" }.joined(separator: ",")
        return "duration=\(duration.map { String($0) } ?? "nil") skip=\(skip ?? "nil") media=\(media) tracking[\(events)] "
            + "click=\(clickThrough ?? "nil") clickTracking=\(clickTracking)"
    }

    static func number(_ d: Double) -> String { d.rounded() == d ? String(Int(d)) : String(d) }

    /// From one of zentrick's `integration/expected/…json` files: pod ads (`adPod`, in sequence order), then the
    /// stand-alone ads.
    init(expected json: [String: Any]) {
        func list(_ value: Any?) -> [[String: Any]] {
            if let sorted = value as? [String: Any] { return sorted["_value"] as? [[String: Any]] ?? [] }
            return value as? [[String: Any]] ?? []
        }
        func uri(_ value: Any?) -> String? { (value as? [String: Any])?["uri"] as? String }
        func offset(_ value: Any?) -> String? {
            guard let o = value as? [String: Any], let v = o["value"] as? Double else { return nil }
            return (o["_type"] as? String) == "RelativeTimeOffset" ? "\(ConformanceSummary.number(v))%" : "\(ConformanceSummary.number(v))s"
        }
        let all = list((json["adPod"] as? [String: Any])?["ads"]) + list(json["ads"])
        ads = all.map { ad in
            let linears = list(ad["creatives"]).compactMap { $0["linear"] as? [String: Any] }.map { l -> String in
                let media = (l["mediaFiles"] as? [[String: Any]] ?? []).map {
                    "\($0["uri"] as? String ?? "")|\($0["type"] as? String ?? "-")|\($0["width"] as? Int ?? -1)x\($0["height"] as? Int ?? -1)|\($0["bitrate"] as? Int ?? -1)"
                }
                var tracking: [String: [String]] = [:]
                let events = (l["trackingEvents"] as? [String: Any])?["_value"] as? [String: [[String: Any]]] ?? [:]
                for (event, entries) in events {
                    tracking[event] = entries.compactMap { e in
                        guard let u = e["uri"] as? String, !u.isEmpty else { return nil }
                        return event == "progress" ? "\(offset(e["offset"]) ?? "?")@\(u)" : u
                    }
                }
                tracking = tracking.filter { !$0.value.isEmpty }
                let clicks = l["videoClicks"] as? [String: Any]
                return ConformanceSummary.linear(
                    duration: l["duration"] as? Double, skip: offset(l["skipoffset"]), media: media, tracking: tracking,
                    clickThrough: uri(clicks?["clickThrough"]),
                    clickTracking: (clicks?["clickTrackings"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String })
            }.sorted()
            return Ad(kind: ad["_type"] as? String ?? "?", id: ad["id"] as? String,
                      impressions: (ad["impressions"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }.filter { !$0.isEmpty },
                      tagURI: ad["vastAdTagURI"] as? String, linears: linears)
        }
    }

    /// From our parse: the pod in sequence order, then the stand-alone ads.
    init(_ document: VASTDocument) {
        func offset(_ o: AdOffset?) -> String? {
            switch o {
            case .time(let d): "\(ConformanceSummary.number(d.seconds.doubleValue))s"
            case .fraction(let f): "\(ConformanceSummary.number((f * Rational(100)).doubleValue))%"
            case nil: nil
            }
        }
        ads = (document.pod + document.standaloneAds).map { ad in
            var tag: String?
            if case .wrapper(let w) = ad.kind { tag = w.tagURI }
            let linears = ad.linearCreatives.map { l -> String in
                let media = l.mediaFiles.map { "\($0.url)|\($0.type ?? "-")|\($0.width ?? -1)x\($0.height ?? -1)|\($0.bitrate ?? -1)" }
                var tracking: [String: [String]] = [:]
                for t in l.tracking {
                    tracking[t.event.rawValue, default: []].append(t.event == .progress ? "\(offset(t.offset) ?? "?")@\(t.url)" : t.url)
                }
                return ConformanceSummary.linear(duration: l.duration?.seconds.doubleValue, skip: offset(l.skipOffset), media: media,
                                                 tracking: tracking, clickThrough: l.clickThrough, clickTracking: l.clickTracking)
            }.sorted()
            return Ad(kind: ad.kind == .inline ? "InLine" : "Wrapper", id: ad.id, impressions: ad.impressions, tagURI: tag,
                      linears: linears)
        }
    }
}
