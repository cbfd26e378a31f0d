import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// A guided session's playlists and asset lists (docs/SERVE.md, "Guided mode"), as text.
///
/// The primary media playlists are the content's own segments with each break an HLS interstitial (the HLS draft's
/// Appendix D). They are the same bytes for every viewer of a content whose breaks fall at the same places: the
/// session is named only by the playlist's own URL (`?session=ID`), which the playlist imports with
/// `EXT-X-DEFINE:QUERYPARAM="session"` and the player substitutes into each `X-ASSET-LIST`. So a CDN caches one
/// copy keyed by the path and the `breaks` parameter, ignoring `session`.
enum GuidedPlaylists {
    /// Where a break plays, as an interstitial's `CUE` says (none for a mid-roll: it plays at its `START-DATE`).
    enum Cue: String {
        case pre = "PRE"
        case post = "POST"
    }

    /// The name of the query parameter, and of the playlist's variable, that carries the session.
    static let sessionParameter = "session"

    /// The places of a session's breaks, as a short digest: the primary playlists depend on nothing else of the
    /// session, so viewers whose breaks fall at the same places share one cached copy.
    static func breaksDigest(_ ads: SessionAds) -> String {
        let places = ads.breaks.map { adBreak -> String in
            switch adBreak.position {
            case .preroll: "pre"
            case .midroll(let time): "mid:\(time.seconds)"
            case .postroll: "post"
            }
        }
        return String(SHA256.hex("guided-v1|" + places.joined(separator: ",")).prefix(16))
    }

    /// Rendition `index`'s primary media playlist URL for `session`: `/v1/guided/PATH/N.m3u8?breaks=D&session=ID`.
    static func primaryURL(_ session: ServeSession, rendition index: Int, digest: String) -> String {
        "/v1/guided/" + session.content.path.map(AdRequestTemplate.encoded).joined(separator: "/")
            + "/\(index).m3u8?breaks=\(digest)&\(sessionParameter)=\(session.id)"
    }

    /// A guided session's multivariant playlist: its own (it names the session), listing the shared primaries.
    static func multivariant(_ session: ServeSession, digest: String) -> String {
        SessionPlaylists.multivariant(session.content, subtitles: { SessionPlaylists.subtitlesURL(session, $0) }, audioTracks: true) {
            primaryURL(session, rendition: $0, digest: digest)
        }
    }

    /// Rendition `index`'s primary media playlist: the content's segments from `EXT-X-PROGRAM-DATE-TIME` (stitched
    /// mode's fixed epoch), and per break an interstitial whose `START-DATE` is the content frame at the break's
    /// time (the nearest frame start on the rendition's clock, counted from its first picture at `frameRate`).
    static func media(_ session: ServeSession, rendition index: Int, ads: SessionAds, frameRates: [FrameRate]) -> String? {
        guard session.content.renditions.indices.contains(index) else { return nil }
        var playlist = SessionPlaylists.content(session.content.renditions[index])
        playlist.programDateTime = SessionPlaylists.stitchEpoch
        playlist.headerTags = ["#EXT-X-DEFINE:QUERYPARAM=\(HLSAttributes.quoted(sessionParameter))"]
        // EXT-X-DEFINE's QUERYPARAM needs version 11.
        playlist.minimumVersion = 11
        guard frameRates.indices.contains(index), !playlist.segments.isEmpty else { return playlist.text }
        // The content's frames, as stitched mode counts them.
        let layout = StitchedLayout(session, rendition: index, stitch: SessionStitch(breaks: [], frameRates: frameRates, notes: []))
        let rate = layout.frameRate.perSecond, spans = layout.spans
        let total = spans.last.map { $0.startFrame + $0.frameCount } ?? 0
        for (b, adBreak) in ads.breaks.enumerated() {
            var frame: Int64, cue: Cue?
            switch adBreak.position {
            case .preroll: (frame, cue) = (0, .pre)
            case .postroll: (frame, cue) = (total, .post)
            case .midroll(let time):
                frame = (time.seconds * rate).rounded
                cue = frame <= 0 ? .pre : frame >= total ? .post : nil
                frame = min(max(frame, 0), total)
            }
            let date = SessionPlaylists.stitchEpoch.addingTimeInterval((Rational(frame) / rate).doubleValue)
            var attributes = [
                "ID=" + HLSAttributes.quoted("break-\(b)"),
                "CLASS=" + HLSAttributes.quoted("com.apple.hls.interstitial"),
                "START-DATE=" + HLSAttributes.quoted(HLSAttributes.date(date)),
                "X-ASSET-LIST=" + HLSAttributes.quoted("/v1/sessions/{$\(sessionParameter)}/assets/\(b).json"),
                "X-RESUME-OFFSET=0",
                "X-RESTRICT=" + HLSAttributes.quoted("SKIP,JUMP"),
            ]
            if let cue { attributes.append("CUE=" + HLSAttributes.quoted(cue.rawValue)) }
            // Before the segment that holds the frame (the last one for a post-roll).
            let segment = spans.lastIndex { $0.startFrame <= frame } ?? 0
            playlist.segments[min(segment, playlist.segments.count - 1)].tags.append("#EXT-X-DATERANGE:" + attributes.joined(separator: ","))
        }
        return playlist.text
    }

    /// A break's asset list: `{"ASSETS": [{"URI", "DURATION", "X-AD-CREATIVE-SIGNALING"}]}`, one asset per ad ready,
    /// each a multivariant playlist of the ad conditioned per rendition. The signalling (SVTA2053-2, in the shape
    /// public players read it: a `slot` envelope with one `linear` slot) carries the ad's beacons and their offsets
    /// for players that send their own; the server sends them anyway as the ad's segments are fetched.
    static func assetList(_ session: ServeSession, _ guided: GuidedBreak, _ ads: SessionAds) -> String {
        let assets: [[String: Any]] = guided.ads.map { ad in
            let duration = ad.duration
            var asset: [String: Any] = ["URI": assetURL(session, break: guided.index, ad: ad.index), "DURATION": duration.doubleValue]
            if ads.breaks.indices.contains(guided.index), ads.breaks[guided.index].ads.indices.contains(ad.index) {
                let decided = ads.breaks[guided.index].ads[ad.index]
                let quarters = Dictionary(SessionBeacons.moments.map { ($0.event, $0.quarter) }, uniquingKeysWith: { a, _ in a })
                let tracking: [[String: Any]] = decided.beacons.map { beacon in
                    var entry: [String: Any] = ["type": beacon.event, "urls": beacon.urls]
                    if let quarter = quarters[beacon.event] { entry["offset"] = (duration * Rational(Int64(quarter), 4)).doubleValue }
                    return entry
                }
                let slot: [String: Any] = ["type": "linear", "start": 0, "duration": duration.doubleValue, "tracking": tracking,
                                           "identifiers": decided.id.map { [["scheme": "urn:pipctl:vast-ad-id", "value": $0]] } ?? []]
                asset["X-AD-CREATIVE-SIGNALING"] = ["version": 2, "type": "slot", "payload": [slot]] as [String: Any]
            }
            return asset
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["ASSETS": assets], options: [.sortedKeys])) ?? Data("{\"ASSETS\":[]}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Ad `ad` of break `adBreak` as an asset: `/v1/sessions/ID/assets/B/A/master.m3u8`.
    static func assetURL(_ session: ServeSession, break adBreak: Int, ad: Int) -> String {
        "/v1/sessions/\(session.id)/assets/\(adBreak)/\(ad)/master.m3u8"
    }

    /// An asset's multivariant playlist: the ad conditioned for each rendition of the content.
    static func assetMultivariant(_ session: ServeSession, break adBreak: Int, ad: Int) -> String {
        SessionPlaylists.multivariant(session.content, codecs: false) { "/v1/sessions/\(session.id)/assets/\(adBreak)/\(ad)/\($0).m3u8" }
    }

    /// An asset's media playlist for one rendition: the ad's segments through the beacon route
    /// (`/v1/sessions/ID/ads/R/B/A/NAME`), as stitched mode lists them.
    static func assetMedia(_ session: ServeSession, rendition: Int, break adBreak: Int, ad: GuidedAd) -> String? {
        guard ad.renditions.indices.contains(rendition) else { return nil }
        let segments = ad.renditions[rendition].map { piece in
            HLSMediaPlaylist.Segment(uri: SessionPlaylists.adSegmentURL(session, rendition: rendition, break: adBreak, ad: ad.index, piece: piece),
                                     duration: piece.duration)
        }
        return HLSMediaPlaylist(map: nil, segments: segments).text
    }
}
