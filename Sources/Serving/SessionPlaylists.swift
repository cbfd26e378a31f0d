import AdPlayback
import Foundation
import MediaCore

/// A session's playlists and tracking document, as text. URLs are absolute paths on this server: a session's media
/// playlists under `/v1/sessions/ID/`, the content's segments under `/v1/origin/` (the same for every viewer, so a
/// CDN caches them once).
enum SessionPlaylists {
    static func multivariant(_ session: ServeSession) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for (index, rendition) in session.content.renditions.enumerated() {
            var attributes = ["BANDWIDTH=\(rendition.bandwidth)"]
            if let average = rendition.averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(average)") }
            if let codecs = rendition.codecs { attributes.append("CODECS=\"\(codecs)\"") }
            if let resolution = rendition.resolution { attributes.append("RESOLUTION=\(resolution.width)x\(resolution.height)") }
            if let rate = rendition.frameRate { attributes.append("FRAME-RATE=\(rate)") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append("/v1/sessions/\(session.id)/\(index).m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func media(_ session: ServeSession, rendition index: Int, origin: OriginDirectory) -> String? {
        guard session.content.renditions.indices.contains(index) else { return nil }
        let rendition = session.content.renditions[index]
        let segments = zip(rendition.playlist.playlist.segments, rendition.segmentFiles).map { segment, file in
            HLSMediaPlaylist.Segment(uri: originURL(file, origin), duration: segment.duration, discontinuity: segment.discontinuity)
        }
        return HLSMediaPlaylist(map: rendition.mapFile.map { originURL($0, origin) }, segments: segments).text
    }

    /// `/v1/origin/` and the file's path under the origin, each name percent-encoded.
    static func originURL(_ file: String, _ origin: OriginDirectory) -> String {
        "/v1/origin/" + (origin.relative(file) ?? []).map(AdRequestTemplate.encoded).joined(separator: "/")
    }

    static func tracking(_ session: ServeSession, _ ads: SessionAds) -> String {
        var decision: [String: Any]
        switch ads.outcome {
        case .decided(let kind): decision = ["outcome": "decided", "kind": kind]
        case .noAds(let reason): decision = ["outcome": "none", "reason": reason]
        }
        decision["errors"] = ads.errors
        let breaks: [[String: Any]] = ads.breaks.map { adBreak in
            var entry: [String: Any] = ["ads": adBreak.ads.map { ad -> [String: Any] in
                var entry: [String: Any] = ["beacons": Dictionary(ad.beacons.map { ($0.event, $0.urls) }, uniquingKeysWith: +)]
                if let id = ad.id { entry["id"] = id }
                if let title = ad.title { entry["title"] = title }
                if let duration = ad.duration { entry["duration"] = duration.seconds.doubleValue }
                if let media = ad.media { entry["media"] = media }
                return entry
            }]
            switch adBreak.position {
            case .preroll: entry["position"] = "preroll"; entry["contentTime"] = 0
            case .midroll(let time): entry["position"] = "midroll"; entry["contentTime"] = time.seconds.doubleValue
            case .postroll: entry["position"] = "postroll"; entry["contentTime"] = session.content.duration.doubleValue
            }
            return entry
        }
        let document: [String: Any] = [
            "sessionId": session.id,
            "content": session.content.path.joined(separator: "/"),
            "decision": decision,
            "breaks": breaks,
            // The ads are decided but not yet cut into the stream (docs/SERVE.md, "Status").
            "stitched": false,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
