import AdPlayback
import Foundation
import MediaCore

/// A session's playlists and tracking document, as text. URLs are absolute paths on this server: a session's media
/// playlists under `/v1/sessions/ID/`, the content's segments under `/v1/origin/` (the same for every viewer, so a
/// CDN caches them once).
enum SessionPlaylists {
    static func multivariant(_ session: ServeSession) -> String {
        multivariant(session.content, subtitles: { subtitlesURL(session, $0) }, audioTracks: true) { "/v1/sessions/\(session.id)/\($0).m3u8" }
    }

    /// A session's subtitle rendition `index`'s media playlist.
    static func subtitlesURL(_ session: ServeSession, _ index: Int) -> String {
        "/v1/sessions/\(session.id)/subtitles/\(index).m3u8"
    }

    /// A multivariant playlist of `content`'s variants, rendition `n`'s media playlist at `uri(n)`, and its
    /// subtitle renditions with subtitle rendition `n`'s at `subtitles(n)` (none without `subtitles`). With
    /// `audioTracks`, its languages (`OriginContent.audioTracks`): the default one in the variants, each other at its
    /// rendition's `uri` (served as sound only); without, the variants' sound alone. Without `codecs`, `CODECS` is
    /// left out (an ad conditioned for a rendition has x264's profile, not the content's).
    static func multivariant(_ content: OriginContent, codecs: Bool = true, subtitles: ((Int) -> String)? = nil,
                             audioTracks: Bool = false, uri: (Int) -> String) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let audioGroup = audioTracks ? content.audioTracks.first?.group : nil
        if audioGroup != nil {
            for track in content.audioTracks {
                var attributes = ["TYPE=AUDIO", "GROUP-ID=" + HLSAttributes.quoted(track.group), "NAME=" + HLSAttributes.quoted(track.name)]
                for name in ["LANGUAGE", "ASSOC-LANGUAGE"] { if let value = track.attributes[name] { attributes.append(name + "=" + HLSAttributes.quoted(value)) } }
                attributes.append("DEFAULT=" + (track.rendition == nil ? "YES" : "NO"))
                attributes.append("AUTOSELECT=" + (track.attributes["AUTOSELECT"] ?? "YES"))
                for name in ["CHARACTERISTICS", "CHANNELS"] { if let value = track.attributes[name] { attributes.append(name + "=" + HLSAttributes.quoted(value)) } }
                if let rendition = track.rendition { attributes.append("URI=" + HLSAttributes.quoted(uri(rendition))) }
                lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
            }
        }
        var groups: Set<String> = []
        if let subtitles {
            for (index, track) in content.subtitles.enumerated() {
                var attributes = ["TYPE=SUBTITLES", "GROUP-ID=" + HLSAttributes.quoted(track.group), "NAME=" + HLSAttributes.quoted(track.name)]
                for name in ["LANGUAGE", "ASSOC-LANGUAGE"] { if let value = track.attributes[name] { attributes.append(name + "=" + HLSAttributes.quoted(value)) } }
                for name in ["DEFAULT", "AUTOSELECT", "FORCED"] { if let value = track.attributes[name] { attributes.append(name + "=" + value) } }
                if let value = track.attributes["CHARACTERISTICS"] { attributes.append("CHARACTERISTICS=" + HLSAttributes.quoted(value)) }
                attributes.append("URI=" + HLSAttributes.quoted(subtitles(index)))
                lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
                groups.insert(track.group)
            }
        }
        for (index, rendition) in content.variants {
            var attributes = ["BANDWIDTH=\(rendition.bandwidth)"]
            if let average = rendition.averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(average)") }
            if codecs, let codecs = rendition.codecs { attributes.append("CODECS=\"\(codecs)\"") }
            if let resolution = rendition.resolution { attributes.append("RESOLUTION=\(resolution.width)x\(resolution.height)") }
            if let rate = rendition.frameRate { attributes.append("FRAME-RATE=\(rate)") }
            if let group = rendition.subtitleGroup, groups.contains(group) { attributes.append("SUBTITLES=" + HLSAttributes.quoted(group)) }
            if let group = audioGroup { attributes.append("AUDIO=" + HLSAttributes.quoted(group)) }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(uri(index))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Rendition `rendition`'s own segments, without breaks: the origin's, or those the server packaged.
    static func content(_ rendition: OriginContent.Rendition) -> HLSMediaPlaylist {
        let soundOnly = rendition.role != .variant
        let segments = zip(rendition.playlist.playlist.segments, rendition.segmentURLs).map { segment, url in
            HLSMediaPlaylist.Segment(uri: soundOnly ? soundOnlyURL(url) : url, duration: segment.duration, discontinuity: segment.discontinuity)
        }
        return HLSMediaPlaylist(map: rendition.mapURL, segments: segments)
    }

    /// Rendition `index`'s media playlist: the origin's segments, with each stitched break in place. A break's
    /// pieces and ads are marked as `render --hls` marks a break (`EXT-X-CUE-OUT`/`CUE-IN` and `EXT-X-DATERANGE` with
    /// SCTE-35), with `EXT-X-DISCONTINUITY` before each ad and before the content that follows.
    static func media(_ session: ServeSession, rendition index: Int, stitch: SessionStitch) -> String? {
        guard session.content.renditions.indices.contains(index) else { return nil }
        let rendition = session.content.renditions[index]
        guard !stitch.breaks.isEmpty, stitch.frameRates.indices.contains(index) else { return content(rendition).text }
        let layout = StitchedLayout(session, rendition: index, stitch: stitch)
        let (spans, discontinuities, breaks, frameRate) = (layout.spans, layout.discontinuities, layout.breaks, layout.frameRate)
        var playlist = HLSMediaPlaylist.withAdMarkers(spans, breaks: breaks, frameRate: frameRate, map: nil, origin: stitchEpoch,
                                                      ptsOffset: stitch.ptsOffsets.indices.contains(index) ? stitch.ptsOffsets[index] : 0)
        for i in discontinuities { playlist.segments[i].discontinuity = true }
        if case .soundOf = rendition.role {
            for i in playlist.segments.indices { playlist.segments[i].uri = soundOnlyURL(playlist.segments[i].uri) }
        }
        return playlist.text
    }

    /// Where a sound carrier's segment (`Role.soundOf`) is served as sound only: `/v1/cache/KIND/KEY/NAME` as
    /// `/v1/audio/KIND/KEY/NAME`; an ad segment's session URL stays (it sends the beacons, then redirects there).
    static func soundOnlyURL(_ url: String) -> String {
        url.hasPrefix("/v1/cache/") ? "/v1/audio/" + url.dropFirst("/v1/cache/".count) : url
    }

    /// Subtitle rendition `index`'s media playlist: its WebVTT segments, on the stream's timeline. Each stitched
    /// break is in place as in the first rendition's playlist: the segment that holds the cut is served in two
    /// windows, up to the cut and from it (`/v1/subtitles/FROM/TO/PATH`, FROM and TO in the stream's presentation
    /// time, 90 kHz, `-` for open), each ad's segments are empty WebVTT of the same lengths, and the
    /// discontinuities fall where the pictures' do. Without breaks (or `stitch`, a guided session) the origin's.
    static func subtitles(_ session: ServeSession, index: Int, stitch: SessionStitch?) -> String? {
        guard session.content.subtitles.indices.contains(index) else { return nil }
        let track = session.content.subtitles[index]
        let segments = track.playlist.playlist.segments
        guard let stitch, !stitch.breaks.isEmpty, !stitch.frameRates.isEmpty, !session.content.renditions.isEmpty else {
            return HLSMediaPlaylist(map: nil, segments: zip(segments, track.segmentURLs).map { segment, url in
                HLSMediaPlaylist.Segment(uri: url, duration: segment.duration, discontinuity: segment.discontinuity)
            }).text
        }
        let layout = StitchedLayout(session, rendition: 0, stitch: stitch)
        let rate = layout.frameRate.perSecond, ptsOffset = stitch.ptsOffsets.first ?? 0
        var out: [HLSMediaPlaylist.Segment] = []
        var discontinuityNext = false
        func add(_ uri: String, _ duration: Rational, discontinuity: Bool) {
            // Not before the first segment, as in the pictures' playlist.
            out.append(HLSMediaPlaylist.Segment(uri: uri, duration: duration, discontinuity: (discontinuity || discontinuityNext) && !out.isEmpty))
            discontinuityNext = false
        }
        // Segment `next` starts at content time `start`; `rest` is where a cut left the rest of it to start.
        var next = 0, start = Rational.zero
        var rest: (time: Rational, pts: Int64)?
        func url(_ index: Int, to: Int64?) -> String {
            guard rest != nil || to != nil else { return track.segmentURLs[index] }
            return "/v1/subtitles/\(rest.map { String($0.pts) } ?? "-")/\(to.map(String.init) ?? "-")/"
                + track.segmentURLs[index].dropFirst("/v1/origin/".count)
        }
        let slack = Rational(1, 1000)
        // The break's cut in presentation time (the first rendition's, on the clock of the segments it cuts).
        func content(upTo time: Rational, cut: Rational? = nil) {
            while next < segments.count {
                let end = start + segments[next].duration, lower = rest?.time ?? start
                let discontinuity = rest == nil && segments[next].discontinuity
                if end <= time + slack {
                    add(url(next, to: nil), end - lower, discontinuity: discontinuity)
                    (rest, start, next) = (nil, end, next + 1)
                    continue
                }
                if time - lower > slack {
                    let pts = cut.map { ($0 * Rational(90_000)).rounded } ?? ptsOffset + (time * Rational(90_000)).rounded
                    add(url(next, to: pts), time - lower, discontinuity: discontinuity)
                    rest = (time, pts)
                }
                return
            }
        }
        var adFrames: Int64 = 0
        for (stitched, placed) in zip(stitch.breaks, layout.breaks) {
            // The break's place in content time: the pictures before it, less the earlier breaks' ads.
            content(upTo: Rational(placed.startFrame - adFrames) / rate, cut: stitched.renditions[0].cut?.leaves)
            for ad in stitched.renditions[0].ads {
                for (n, piece) in ad.enumerated() { add(emptySubtitlesURL, Rational(piece.frames) / rate, discontinuity: n == 0) }
            }
            adFrames += placed.endFrame - placed.startFrame
            discontinuityNext = true
        }
        content(upTo: track.playlist.playlist.duration + Rational(1))
        return HLSMediaPlaylist(map: nil, segments: out).text
    }

    /// A WebVTT segment without cues, for the length of an ad.
    static let emptySubtitlesURL = "/v1/subtitles/empty.vtt"

    /// An ad segment as this session's player asks for it: `/v1/sessions/ID/ads/R/B/A/NAME`, which sends the beacons
    /// due in it and redirects to the shared segment (`/v1/cache/ads/KEY/NAME`).
    static func adSegmentURL(_ session: ServeSession, rendition: Int, break adBreak: Int, ad: Int, piece: RenditionSplice.Piece) -> String {
        "/v1/sessions/\(session.id)/ads/\(rendition)/\(adBreak)/\(ad)/" + (piece.url.split(separator: "/").last.map(String.init) ?? "")
    }

    /// `EXT-X-PROGRAM-DATE-TIME` of a stitched playlist's first segment (the date ranges count from it): a fixed
    /// date, so that the playlists of one content differ only where their ads do.
    static let stitchEpoch = Date(timeIntervalSince1970: 946_684_800)


    static func tracking(_ session: ServeSession, _ ads: SessionAds, _ stitch: SessionStitch) -> String {
        // Where each stitched ad plays in the stream (the first rendition's; every rendition's ads start at the
        // same frames but for the packaging of the content around them), for players that send their own beacons.
        let layout = stitch.breaks.isEmpty || stitch.frameRates.isEmpty ? nil : StitchedLayout(session, rendition: 0, stitch: stitch)
        var placed: [String: (start: Rational, duration: Rational)] = [:]
        for ad in layout?.ads ?? [] {
            placed["\(ad.breakIndex)/\(ad.adIndex)"] = (Rational(ad.startFrame) / layout!.frameRate.perSecond,
                                                         Rational(ad.frames) / layout!.frameRate.perSecond)
        }
        var decision: [String: Any]
        switch ads.outcome {
        case .decided(let kind): decision = ["outcome": "decided", "kind": kind]
        case .noAds(let reason): decision = ["outcome": "none", "reason": reason]
        }
        decision["errors"] = ads.errors
        let stitchedBreaks = Set(stitch.breaks.map(\.index))
        let breaks: [[String: Any]] = ads.breaks.enumerated().map { index, adBreak in
            var entry: [String: Any] = ["ads": adBreak.ads.enumerated().map { adIndex, ad -> [String: Any] in
                var entry: [String: Any] = ["beacons": Dictionary(ad.beacons.map { ($0.event, $0.urls) }, uniquingKeysWith: +)]
                if let (start, duration) = placed["\(index)/\(adIndex)"] {
                    // Stream time (seconds from the stitched stream's start) of the ad and of each beacon's moment.
                    entry["streamTime"] = start.doubleValue
                    entry["streamDuration"] = duration.doubleValue
                    let moments = Dictionary(SessionBeacons.moments.map { moment in
                        (moment.event, (start + duration * Rational(Int64(moment.quarter), 4)).doubleValue)
                    }, uniquingKeysWith: { a, _ in a })
                    entry["beaconTimes"] = Dictionary(ad.beacons.compactMap { beacon in moments[beacon.event].map { (beacon.event, $0) } },
                                                      uniquingKeysWith: { a, _ in a })
                }
                if let id = ad.id { entry["id"] = id }
                if let title = ad.title { entry["title"] = title }
                if let duration = ad.duration { entry["duration"] = duration.seconds.doubleValue }
                if let media = ad.media { entry["media"] = media }
                return entry
            }]
            entry["stitched"] = stitchedBreaks.contains(index)
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
            // Every decided break is cut into the stream; `notes` says why one is not.
            "stitched": stitch.breaks.count == ads.breaks.count && !ads.breaks.isEmpty,
            "notes": stitch.notes,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// A stitched rendition laid out in its frames: each segment's span, where a discontinuity goes, each break's place
/// for the markers, and each ad's first frame and length; what the media playlist and the tracking document share.
struct StitchedLayout {
    var spans: [HLSSegmentSpan] = []
    var discontinuities: Set<Int> = []
    var breaks: [HLSAdBreak] = []
    var ads: [(breakIndex: Int, adIndex: Int, startFrame: Int64, frames: Int64)] = []
    let frameRate: FrameRate

    init(_ session: ServeSession, rendition index: Int, stitch: SessionStitch) {
        let rendition = session.content.renditions[index]
        let segments = rendition.playlist.playlist.segments
        let frameRate = stitch.frameRates[index]
        self.frameRate = frameRate
        func frames(_ seconds: Rational) -> Int64 { max(1, (seconds * frameRate.perSecond).rounded) }
        var frame: Int64 = 0, next = 0, discontinuityNext = false
        func add(_ uri: String, _ count: Int64, discontinuity: Bool = false) {
            // Not before the first segment: there is nothing to be discontinuous with.
            if (discontinuity || discontinuityNext) && !spans.isEmpty { discontinuities.insert(spans.count) }
            discontinuityNext = false
            spans.append(HLSSegmentSpan(uri: uri, startFrame: frame, frameCount: count))
            frame += count
        }
        func content(upTo end: Int) {
            while next < end {
                add(rendition.segmentURLs[next], frames(segments[next].duration), discontinuity: segments[next].discontinuity)
                next += 1
            }
        }
        for stitched in stitch.breaks {
            let splice = stitched.renditions[index]
            content(upTo: splice.replaced.lowerBound)
            next = max(next, splice.replaced.upperBound)
            // The piece before the cut stands in for the window's first segment, and keeps its discontinuity.
            let replacedDiscontinuity = splice.replaced.lowerBound > 0 && segments.indices.contains(splice.replaced.lowerBound)
                && segments[splice.replaced.lowerBound].discontinuity
            if let before = splice.before { add(before.url, before.frames, discontinuity: replacedDiscontinuity) }
            let start = frame
            for (a, ad) in splice.ads.enumerated() {
                ads.append((stitched.index, stitched.ads[a], frame, ad.reduce(0) { $0 + $1.frames }))
                for (n, piece) in ad.enumerated() {
                    add(SessionPlaylists.adSegmentURL(session, rendition: index, break: stitched.index, ad: stitched.ads[a], piece: piece),
                        piece.frames, discontinuity: n == 0)
                }
            }
            let planned = splice.ads.joined().reduce(Rational.zero) { $0 + $1.duration }
            breaks.append(HLSAdBreak(index: stitched.index, startFrame: start, endFrame: frame, plannedDuration: planned,
                                     splice: splice.cut.map { .content(leaves: ($0.leaves * Rational(90_000)).rounded,
                                                                       returns: ($0.returns * Rational(90_000)).rounded) } ?? .outputClock))
            discontinuityNext = true
            if let after = splice.after { add(after.url, after.frames) }
        }
        content(upTo: segments.count)
    }
}
