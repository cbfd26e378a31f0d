import AdDecisioning
import AdPlayback
import Foundation
import HTTPServing
import MediaCore

/// What `pipctl serve` is started with.
public struct ServeSettings: Sendable {
    public var origin: OriginDirectory
    public var ads: AdRequestTemplate
    /// The ad server's whole answer (tag, VMAP sources, wrappers) must arrive within this: 3 s, as MediaTailor.
    public var decisionTimeout: Duration
    public var maximumSessions: Int
    /// A session without a request for this long is forgotten.
    public var sessionIdleTimeout: Duration
    /// Cuts the decided breaks into the content (`--cache`, `--stitch-wait`); `nil` serves the content without them.
    public var stitcher: BreakStitcher?
    /// `--url-map`: ad documents and media under its prefixes are read from local files (a demo, a test bed).
    public var urlMap: URLMap?
    /// What sessions' idle time is told by.
    public var clock: any WallClock = SystemClock()
    /// `--trusted-proxy`: the addresses whose `X-Forwarded-For` names the viewer (`ViewerAddress`).
    public var trustedProxies: [AddressRange] = []
    /// The most bytes of a rendition's segments and source read to count its frames for its timeline.
    public var timelineScanBytes: Int64 = SessionTimeline.maximumScannedBytes
    /// `--secret-file` with `--cache`: sessions kept in their signed URLs and the shared directory, so that every
    /// instance started with both answers every viewer; nil keeps them in this server's memory.
    public var sharing: SessionSharing?

    public init(origin: OriginDirectory, ads: AdRequestTemplate, decisionTimeout: Duration = .seconds(3),
                maximumSessions: Int = 100_000, sessionIdleTimeout: Duration = .seconds(4 * 3600), stitcher: BreakStitcher? = nil) {
        self.origin = origin
        self.ads = ads
        self.decisionTimeout = decisionTimeout
        self.maximumSessions = maximumSessions
        self.sessionIdleTimeout = sessionIdleTimeout
        self.stitcher = stitcher
    }
}

/// `pipctl serve`'s routes (docs/SERVE.md, "API"):
/// - `POST /v1/sessions` → 201 `{"sessionId", "manifestUrl", "trackingUrl"}`
/// - `GET /v1/master/PATH?NAME=VALUE…` → a new session's multivariant playlist
/// - `GET /v1/sessions/ID/master.m3u8`, `GET /v1/sessions/ID/N.m3u8` → the session's playlists (`no-store`)
/// - `GET /v1/sessions/ID/tracking` → its breaks, ads and beacons as JSON
/// - `GET /v1/guided/PATH/N.m3u8?breaks=D&session=ID` → a guided session's primary media playlist, the same for every
///   viewer (cacheable); `GET /v1/sessions/ID/assets/B.json` → break `B`'s asset list, decided for the viewer;
///   `GET /v1/sessions/ID/assets/B/A/master.m3u8`, `…/R.m3u8` → ad `A` as an asset
/// - `GET /v1/sessions/ID/N.timeline.json` → rendition `N`'s stream as a timeline for `pipctl verify --sources`
/// - `GET /v1/sessions/ID/subtitles/N.m3u8` → subtitle rendition `N`'s media playlist, the breaks in place
/// - `GET /v1/origin/PATH` → a segment of the content, as it is (cacheable for a day)
/// - `GET /v1/subtitles/FROM/TO/PATH` → WebVTT segment `PATH` of the content, only what shows from presentation time
///   `FROM` to `TO` (90 kHz, `-` for open); `GET /v1/subtitles/empty.vtt` → none (both cacheable for a day)
/// - `GET /v1/cache/cuts/KEY/NAME`, `GET /v1/cache/ads/KEY/NAME` → a cut piece or a conditioned ad's segment, the
///   same for every viewer (content-addressed, cacheable for a day)
/// Every answer carries CORS headers; every refusal is a JSON error with its status.
public final class ServeResponder: HTTPResponder {
    public let settings: ServeSettings
    public let sessions: SessionStore
    private let catalog: ContentCatalog
    private let decider: SessionDecider
    public let metrics = ServeMetrics()

    /// Files `/v1/origin/` serves: segments and initialization sections, never playlists or anything else.
    static let segmentExtensions: Set<String> = ["ts", "m4s", "mp4", "m4a", "m4v", "aac", "vtt", "webvtt"]
    static let cors: [(name: String, value: String)] = [("Access-Control-Allow-Origin", "*")]

    public init(settings: ServeSettings) {
        self.settings = settings
        sessions = SessionStore(maximumSessions: settings.maximumSessions, idleTimeout: settings.sessionIdleTimeout, clock: settings.clock,
                                shared: settings.sharing.map { SharedSessions($0, idleTimeout: settings.sessionIdleTimeout) })
        catalog = ContentCatalog(reader: OriginReader(origin: settings.origin),
                                 packager: settings.stitcher.map { MP4Packager(cache: $0.cache, origin: settings.origin) })
        decider = SessionDecider(template: settings.ads, decisionTimeout: settings.decisionTimeout, urlMap: settings.urlMap)
    }

    public func respond(to request: HTTPServerRequest) async -> HTTPServerResponse {
        var response = await route(request)
        response.headers += Self.cors
        return response
    }

    /// Segments (`/v1/origin/…`, `/v1/cache/…`) are files found by their names: answered at once on the server's
    /// thread, without a hop to Swift's pool (most of a viewer's requests, so most of the server's work per viewer).
    public func immediateResponse(to request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.method == "GET" || request.method == "HEAD", let path = request.pathComponents, path.first == "v1" else { return nil }
        var response: HTTPServerResponse
        switch path.dropFirst().first {
        case "origin" where path.count > 2: response = originFile(Array(path.dropFirst(2))).named("origin_segment")
        case "cache" where path.count == 5: response = cachedFile(kind: path[2], key: path[3], name: path[4]).named("cache_segment")
        default: return nil
        }
        response.headers += Self.cors
        return response
    }

    public func completed(_ request: HTTPCompletedRequest) {
        metrics.record(request)
    }

    private func route(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        guard let path = request.pathComponents else { return .error(400, "the path is not valid percent-encoded UTF-8") }
        let method = request.method == "HEAD" ? "GET" : request.method
        if method == "OPTIONS" {
            return HTTPServerResponse(status: 204, headers: [("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS"),
                                                             ("Access-Control-Allow-Headers", "Content-Type"),
                                                             ("Access-Control-Max-Age", "86400")]).named("options")
        }
        func only(_ allowed: String, _ answer: () async -> HTTPServerResponse) async -> HTTPServerResponse {
            guard method == allowed else { return .error(405, "\(request.method.prefix(16)) is not allowed here", headers: [("Allow", allowed == "GET" ? "GET, HEAD" : allowed)]) }
            return await answer()
        }
        switch (path.first, path.dropFirst().first) {
        case ("v1", "sessions") where path.count == 2:
            return await only("POST") { await createSession(request) }.named("session")
        case ("v1", "sessions") where path.count == 4:
            let name = path[3] == "master.m3u8" ? "multivariant" : path[3] == "tracking" ? "tracking"
                : path[3].hasSuffix(".timeline.json") ? "timeline" : "media_playlist"
            return await only("GET") { await sessionResource(id: path[2], name: path[3]) }.named(name)
        case ("v1", "sessions") where path.count == 5 && path[3] == "subtitles":
            return await only("GET") { await subtitlePlaylist(id: path[2], name: path[4]) }.named("subtitle_playlist")
        case ("v1", "subtitles") where path.count > 2:
            return await only("GET") { subtitleWindow(Array(path.dropFirst(2))) }.named("subtitle_segment")
        case ("v1", "sessions") where path.count == 5 && path[3] == "assets":
            return await only("GET") { await assetList(id: path[2], name: path[4]) }.named("asset_list")
        case ("v1", "sessions") where path.count == 7 && path[3] == "assets":
            return await only("GET") { await assetPlaylist(id: path[2], place: Array(path[4...])) }.named("asset_playlist")
        case ("v1", "guided") where path.count > 3:
            return await only("GET") { await guidedPlaylist(request, path: Array(path.dropFirst(2))) }.named("guided_playlist")
        case ("v1", "sessions") where path.count == 8 && path[3] == "ads":
            return await only("GET") { await adSegment(request, id: path[2], place: Array(path[4...])) }.named("ad_segment")
        case ("v1", "master") where path.count > 2:
            return await only("GET") { await implicitSession(request, content: Array(path.dropFirst(2))) }.named("implicit_session")
        // A GET or HEAD of a segment is answered by `immediateResponse` before it comes here; here, the others' 405.
        case ("v1", "origin") where path.count > 2:
            return await only("GET") { originFile(Array(path.dropFirst(2))) }.named("origin_segment")
        case ("v1", "cache") where path.count == 5:
            return await only("GET") { cachedFile(kind: path[2], key: path[3], name: path[4]) }.named("cache_segment")
        case ("v1", "audio") where path.count == 5:
            return await only("GET") { await soundOnlyFile(kind: path[2], key: path[3], name: path[4]) }.named("audio_segment")
        case ("metrics", nil):
            return await only("GET") {
                HTTPServerResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                                   body: .bytes(Array(metrics.text(sessions: sessions, cache: settings.stitcher?.cache).utf8)))
            }.named("metrics")
        case ("healthz", nil):
            return await only("GET") {
                .json(200, "{\"status\":\"ok\",\"sessions\":\(sessions.count)}\n", headers: [("Cache-Control", "no-store")])
            }.named("healthz")
        default:
            return .error(404, "no such resource: \(request.rawPath.excerpt)").named("unknown")
        }
    }

    private func createSession(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        let body: SessionRequestBody
        do { body = try SessionRequestBody(request.body) } catch { return .error(400, error.description) }
        switch await startSession(request, content: body.content, parameters: body.parameters, mode: body.mode) {
        case .refused(let refusal): return refusal
        case .started(let session):
            let answer = "{\"sessionId\":\"\(session.id)\",\"manifestUrl\":\"/v1/sessions/\(session.id)/master.m3u8\",\"trackingUrl\":\"/v1/sessions/\(session.id)/tracking\"}\n"
            return .json(201, answer, headers: [("Location", "/v1/sessions/\(session.id)/master.m3u8"), ("Cache-Control", "no-store")])
                .logged(session)
        }
    }

    private func implicitSession(_ request: HTTPServerRequest, content: [String]) async -> HTTPServerResponse {
        guard let query = request.query else { return .error(400, "the query is not valid percent-encoded UTF-8") }
        // `mode` chooses the session's mode; it is not a player parameter.
        var mode = ServeMode.stitched
        if let named = query.last(where: { $0.name == "mode" }) {
            switch ServeMode.parsed(named.value, at: "query.mode") {
            case .success(let parsed): mode = parsed
            case .failure(let error): return .error(400, error.description)
            }
        }
        let parameters: [String: String]
        switch SessionParameters.validated(query.filter { $0.name != "mode" }, where: "query") {
        case .success(let valid): parameters = valid
        case .failure(let error): return .error(400, error.description)
        }
        switch await startSession(request, content: content, parameters: parameters, mode: mode) {
        case .refused(let refusal): return refusal
        case .started(let session): return playlist(await multivariant(session)).logged(session)
        }
    }

    private enum SessionStart {
        case started(ServeSession)
        case refused(HTTPServerResponse)
    }

    private func startSession(_ request: HTTPServerRequest, content path: [String], parameters: [String: String],
                              mode: ServeMode) async -> SessionStart {
        let content: OriginContent
        switch await catalog.content(path) {
        case .success(let found): content = found
        case .failure(.notFound(let message)): return .refused(.error(404, message))
        case .failure(.unusable(let message)): return .refused(.error(422, message))
        }
        switch sessions.create(content: content, mode: mode, userAgent: request.headers["user-agent"] ?? "", clientIP: ViewerAddress.of(request, trusting: settings.trustedProxies),
                               parameters: parameters, decider: decider) {
        case .made(let session): return .started(session)
        case .full:
            return .refused(.error(503, "the server holds its most sessions (\(sessions.maximumSessions)); try again later", headers: [("Retry-After", "10")]))
        case .tooLong(let bytes):
            return .refused(.error(400, "the session's parameters and user agent make a token of \(bytes) bytes (at most \(SessionToken.maximumBytes))"))
        }
    }

    /// Session `id`: held here, or (shared sessions) rebuilt from its token when the secret signed it, the content
    /// it names is under the origin, and it is live in the shared directory; nil otherwise, every case one 404.
    private func session(_ id: String) async -> ServeSession? {
        if let held = sessions.session(id) { return held }
        guard let shared = sessions.shared, let token = SessionToken(verifying: id, with: shared.secret),
              shared.isLive(token.nonce, created: token.created),
              case .success(let content) = await catalog.content(token.content) else { return nil }
        return sessions.rebuilt(id: id, token: token, content: content, decider: decider)
    }

    private func sessionResource(id: String, name: String) async -> HTTPServerResponse {
        guard let session = await session(id) else { return .error(404, "no session \(id.excerpt)") }
        switch name {
        case "master.m3u8":
            return playlist(await multivariant(session)).logged(session)
        case "tracking":
            let ads = await session.ads
            let stitch = session.mode == .guided
                ? SessionStitch(breaks: [], notes: ["a guided session: each break is an interstitial, its ads in its asset list"])
                : await session.stitch(settings.stitcher)
            return .json(200, SessionPlaylists.tracking(session, ads, stitch), headers: [("Cache-Control", "no-store")]).logged(session)
        case _ where name.hasSuffix(".timeline.json"):
            return await timeline(session, name: name)
        default:
            guard session.mode == .stitched, name.hasSuffix(".m3u8"), let index = Int(name.dropLast(5)), String(index) == name.dropLast(5),
                  session.content.renditions.indices.contains(index) else {
                return .error(404, "session \(id) has no \(name.excerpt)")
            }
            let stitch = await session.stitch(settings.stitcher)
            guard let text = session.mediaPlaylist(.rendition(index), { SessionPlaylists.media(session, rendition: index, stitch: stitch) }) else {
                return .error(404, "session \(id) has no \(name.excerpt)")
            }
            return playlist(text).logged(session)
        }
    }

    /// `/v1/sessions/ID/subtitles/N.m3u8`: subtitle rendition `N`'s media playlist (`SessionPlaylists.subtitles`),
    /// once the session's breaks are stitched; a guided session's is the origin's (interstitials leave the
    /// content's timeline as it is).
    private func subtitlePlaylist(id: String, name: String) async -> HTTPServerResponse {
        guard let session = await session(id) else { return .error(404, "no session \(id.excerpt)") }
        guard name.hasSuffix(".m3u8"), let index = Int(name.dropLast(5)), String(index) == name.dropLast(5),
              session.content.subtitles.indices.contains(index) else {
            return HTTPServerResponse.error(404, "session \(id) has no subtitles \(name.excerpt)").logged(session)
        }
        let stitch = session.mode == .stitched ? await session.stitch(settings.stitcher) : nil
        guard let text = session.mediaPlaylist(.subtitles(index), { SessionPlaylists.subtitles(session, index: index, stitch: stitch) }) else {
            return HTTPServerResponse.error(404, "session \(id) has no subtitles \(name.excerpt)").logged(session)
        }
        return playlist(text).logged(session)
    }

    /// `/v1/subtitles/FROM/TO/PATH`: the WebVTT segment at `PATH` under the origin, only what shows from presentation
    /// time `FROM` to `TO` (`WebVTTSegment.window`), read at most `WebVTTSegment.maximumBytes`; `/v1/subtitles/empty.vtt`.
    /// The same bytes for every viewer of a break at that frame: cacheable like the origin's segments.
    private func subtitleWindow(_ path: [String]) -> HTTPServerResponse {
        let headers = [("Content-Type", "text/vtt; charset=utf-8"), ("Cache-Control", "public, max-age=86400")]
        if path == ["empty.vtt"] { return HTTPServerResponse(status: 200, headers: headers, body: .bytes(Array(WebVTTSegment.empty.utf8))) }
        func bound(_ text: String) -> Int64?? {
            if text == "-" { return .some(nil) }
            guard (1...10).contains(text.count), text.allSatisfy(\.isASCIIDigit), let value = Int64(text), value < 1 << 33 else { return nil }
            return .some(value)
        }
        let shown = path.joined(separator: "/").excerpt
        guard path.count > 2, let from = bound(path[0]), let to = bound(path[1]),
              let name = path.last?.lowercased(), name.hasSuffix(".vtt") || name.hasSuffix(".webvtt"),
              let file = settings.origin.file(Array(path.dropFirst(2))) else {
            return .error(404, "no subtitle window \(shown)")
        }
        let shownFile = path.dropFirst(2).joined(separator: "/")
        let segment: WebVTTSegment
        do {
            let data = try BoundedRead.contents(ofFile: file, limit: WebVTTSegment.maximumBytes)
            guard let text = String(data: data, encoding: .utf8) else { return .error(422, "\(shownFile.excerpt): not UTF-8 text") }
            segment = try WebVTTSegment(text: text, file: shownFile)
        } catch let error as BoundedRead.Failure {
            return .error(422, "\(shownFile.excerpt): \(error)")
        } catch {
            return .error(422, "\(error)")
        }
        return HTTPServerResponse(status: 200, headers: headers, body: .bytes(Array(segment.window(from: from, to: to).utf8)))
    }

    /// `/v1/sessions/ID/N.timeline.json`: what rendition `N`'s stitched stream shows, frame by frame, in the format
    /// `pipctl render` writes and `pipctl verify --sources` reads (`SessionTimeline`).
    private func timeline(_ session: ServeSession, name: String) async -> HTTPServerResponse {
        let number = name.dropLast(".timeline.json".count)
        guard let index = Int(number), String(index) == number, session.content.renditions.indices.contains(index) else {
            return .error(404, "session \(session.id) has no \(name.excerpt)").logged(session)
        }
        guard let stitcher = settings.stitcher else {
            return .error(404, "session \(session.id) has no timeline: this server stitches no ads (no --cache)").logged(session)
        }
        let stitch = await session.stitch(stitcher)
        switch await SessionTimeline.make(session, rendition: index, stitch: stitch, cache: stitcher.cache,
                                          maximumScannedBytes: settings.timelineScanBytes) {
        case .failure(let error):
            return .error(422, "session \(session.id)'s timeline of rendition \(index) cannot be made: \(error)").logged(session)
        case .success(let timeline):
            guard let data = try? timeline.jsonData() else { return .error(500, "the timeline cannot be written as JSON").logged(session) }
            return .json(200, String(decoding: data, as: UTF8.self) + "\n", headers: [("Cache-Control", "no-store")]).logged(session)
        }
    }

    /// `/v1/sessions/ID/ads/R/B/A/NAME`: sends the beacons of ad `A` of break `B` whose moment falls in this segment
    /// (once per session), then redirects to the segment's shared URL, which a CDN caches for everyone.
    private func adSegment(_ request: HTTPServerRequest, id: String, place: [String]) async -> HTTPServerResponse {
        guard let session = await session(id) else { return .error(404, "no session \(id.excerpt)") }
        let numbers = place.prefix(3).compactMap { Int($0) }
        let missing = HTTPServerResponse.error(404, "session \(id) has no ad segment \(place.joined(separator: "/").excerpt)").logged(session)
        guard numbers.count == 3, let pieces = await adPieces(session, rendition: numbers[0], break: numbers[1], ad: numbers[2]),
              let n = pieces.firstIndex(where: { $0.url.hasSuffix("/" + place[3]) }) else { return missing }
        let ads = await session.ads
        let events = session.beacons.claim(SessionBeacons.events(inSegment: n, segmentFrames: pieces.map(\.frames)),
                                           break: numbers[1], ad: numbers[2])
        if !events.isEmpty, ads.breaks.indices.contains(numbers[1]), ads.breaks[numbers[1]].ads.indices.contains(numbers[2]) {
            let adBreak = ads.breaks[numbers[1]], ad = adBreak.ads[numbers[2]]
            let urls = events.flatMap { event in ad.beacons.filter { $0.event == event }.flatMap(\.urls) }
            let headers = ["X-Device-IP": ViewerAddress.of(request, trusting: settings.trustedProxies), "X-Device-User-Agent": SessionDecider.headerValue(request.headers["user-agent"] ?? "")]
            let adTime = pieces[..<n].reduce(Rational.zero) { $0 + $1.duration }
            var context = MacroContext(adPlayhead: MediaTime(seconds: adTime),
                                       timestamp: HLSAttributes.date(Date()), cacheBuster: String(UInt32.random(in: 10_000_000...99_999_999)))
            if case .midroll(let time) = adBreak.position { context.contentPlayhead = time }
            SessionBeacons.send(urls, headers: headers, context: context) { [metrics] sent in metrics.beacon(sent: sent) }
        }
        // A language's playlist (its rendition carries that sound) is led to the segment as sound only.
        let isSound = session.content.renditions.indices.contains(numbers[0]) && session.content.renditions[numbers[0]].role != .variant
        let location = isSound ? SessionPlaylists.soundOnlyURL(pieces[n].url) : pieces[n].url
        var answer = HTTPServerResponse(status: 302, headers: [("Location", location), ("Cache-Control", "no-store")])
        if !events.isEmpty { answer.logFields.append(("beacons", events.joined(separator: ","))) }
        return answer.logged(session)
    }

    /// The segments of ad `ad` of break `adBreak` in `rendition` as this session plays them: cut into its stream
    /// (stitched), or in the asset list its player was given (guided); nil when the session has no such ad.
    private func adPieces(_ session: ServeSession, rendition: Int, break adBreak: Int, ad: Int) async -> [RenditionSplice.Piece]? {
        switch session.mode {
        case .stitched:
            let stitch = await session.stitch(settings.stitcher)
            guard let stitched = stitch.breaks.first(where: { $0.index == adBreak }), stitched.renditions.indices.contains(rendition),
                  let a = stitched.ads.firstIndex(of: ad) else { return nil }
            return stitched.renditions[rendition].ads[a]
        case .guided:
            guard let guided = await session.guidedBreak(adBreak, settings.stitcher), let found = guided.ads.first(where: { $0.index == ad }),
                  found.renditions.indices.contains(rendition) else { return nil }
            return found.renditions[rendition]
        }
    }

    /// A session's multivariant playlist: its own media playlists (stitched), or the shared primaries (guided, once
    /// its breaks are decided: their places are in the primaries' URLs).
    private func multivariant(_ session: ServeSession) async -> String {
        switch session.mode {
        case .stitched: return SessionPlaylists.multivariant(session)
        case .guided: return GuidedPlaylists.multivariant(session, digest: GuidedPlaylists.breaksDigest(await session.ads))
        }
    }

    /// `/v1/guided/PATH/N.m3u8?breaks=D&session=ID`: rendition `N`'s primary playlist of a guided session of content
    /// `PATH`, the same bytes for every viewer whose breaks are `D`, so cacheable by a key that ignores `session`.
    private func guidedPlaylist(_ request: HTTPServerRequest, path: [String]) async -> HTTPServerResponse {
        guard let query = request.query else { return .error(400, "the query is not valid percent-encoded UTF-8") }
        let name = path.last ?? ""
        guard let id = query.last(where: { $0.name == GuidedPlaylists.sessionParameter })?.value else {
            return .error(400, "query.\(GuidedPlaylists.sessionParameter): is missing (the playlist imports it)")
        }
        guard let session = await session(id), session.mode == .guided else { return .error(404, "no guided session \(id.excerpt)") }
        let ads = await session.ads
        guard Array(path.dropLast()) == session.content.path, name.hasSuffix(".m3u8"), let index = Int(name.dropLast(5)),
              String(index) == name.dropLast(5), session.content.renditions.indices.contains(index),
              query.last(where: { $0.name == "breaks" })?.value == GuidedPlaylists.breaksDigest(ads) else {
            return HTTPServerResponse.error(404, "session \(id) has no playlist \(request.rawPath.excerpt)").logged(session)
        }
        let rates = (try? settings.stitcher?.renditionMedia(session.content).get())?.map(\.rate) ?? []
        guard let text = session.mediaPlaylist(.rendition(index), { GuidedPlaylists.media(session, rendition: index, ads: ads, frameRates: rates) }) else {
            return HTTPServerResponse.error(404, "session \(id) has no playlist \(request.rawPath.excerpt)").logged(session)
        }
        return HTTPServerResponse(status: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl"), ("Cache-Control", "public, max-age=3600")],
                                  body: .bytes(Array(text.utf8))).logged(session)
    }

    /// `/v1/sessions/ID/assets/B.json` (the player's `_HLS_primary_id` and other query parameters are ignored): break
    /// `B`'s asset list, decided for this viewer when first asked; the ads not ready within `--stitch-wait` are left
    /// out.
    private func assetList(id: String, name: String) async -> HTTPServerResponse {
        guard let session = await session(id), session.mode == .guided else { return .error(404, "no guided session \(id.excerpt)") }
        guard name.hasSuffix(".json"), let index = Int(name.dropLast(5)), String(index) == name.dropLast(5),
              let guided = await session.guidedBreak(index, settings.stitcher) else {
            return HTTPServerResponse.error(404, "session \(id) has no asset list \(name.excerpt)").logged(session)
        }
        return .json(200, GuidedPlaylists.assetList(session, guided, await session.ads), headers: [("Cache-Control", "no-store")]).logged(session)
    }

    /// `/v1/sessions/ID/assets/B/A/master.m3u8` and `…/R.m3u8`: ad `A` of break `B`, as the asset list gave it.
    private func assetPlaylist(id: String, place: [String]) async -> HTTPServerResponse {
        guard let session = await session(id), session.mode == .guided else { return .error(404, "no guided session \(id.excerpt)") }
        let missing = HTTPServerResponse.error(404, "session \(id) has no asset \(place.joined(separator: "/").excerpt)").logged(session)
        guard let b = Int(place[0]), let a = Int(place[1]), let guided = await session.guidedBreak(b, settings.stitcher),
              let ad = guided.ads.first(where: { $0.index == a }) else { return missing }
        if place[2] == "master.m3u8" { return playlist(GuidedPlaylists.assetMultivariant(session, break: b, ad: a)).logged(session) }
        guard place[2].hasSuffix(".m3u8"), let r = Int(place[2].dropLast(5)), String(r) == place[2].dropLast(5),
              let text = GuidedPlaylists.assetMedia(session, rendition: r, break: b, ad: ad) else { return missing }
        return playlist(text).logged(session)
    }

    private func originFile(_ path: [String]) -> HTTPServerResponse {
        guard let name = path.last, let dot = name.lastIndex(of: "."),
              Self.segmentExtensions.contains(name[name.index(after: dot)...].lowercased()),
              let file = settings.origin.file(path) else {
            return .error(404, "no segment \(path.joined(separator: "/").excerpt) under the origin")
        }
        let type = switch name[name.index(after: dot)...].lowercased() {
        case "ts": "video/mp2t"
        case "aac": "audio/aac"
        case "m4a": "audio/mp4"
        case "vtt", "webvtt": "text/vtt"
        default: "video/mp4"
        }
        return HTTPServerResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=86400")], body: .file(path: file))
    }

    private func cachedFile(kind: String, key: String, name: String) -> HTTPServerResponse {
        guard let file = settings.stitcher?.cache.segmentFile(kind: kind, key: key, name: name) else {
            return .error(404, "no cached segment \(kind.excerpt)/\(key.excerpt)/\(name.excerpt)")
        }
        return HTTPServerResponse(status: 200, headers: [("Content-Type", "video/mp2t"), ("Cache-Control", "public, max-age=86400")], body: .file(path: file))
    }

    /// `/v1/audio/KIND/KEY/NAME`: `/v1/cache/KIND/KEY/NAME` as sound only, for a language's playlist
    /// (`MP4Packager.soundOnly`; content-addressed and cacheable like the segment it is made of).
    private func soundOnlyFile(kind: String, key: String, name: String) async -> HTTPServerResponse {
        let missing = HTTPServerResponse.error(404, "no cached segment \(kind.excerpt)/\(key.excerpt)/\(name.excerpt)")
        guard let packager = catalog.packager, let made = await packager.soundOnly(kind: kind, key: key, name: name) else { return missing }
        switch made {
        case .success(let file):
            return HTTPServerResponse(status: 200, headers: [("Content-Type", "video/mp2t"), ("Cache-Control", "public, max-age=86400")], body: .file(path: file))
        case .failure(let error):
            return .error(500, "\(kind.excerpt)/\(name.excerpt) cannot be served as sound only: \(error)")
        }
    }

    private func playlist(_ text: String) -> HTTPServerResponse {
        HTTPServerResponse(status: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl"), ("Cache-Control", "no-store")],
                           body: .bytes(Array(text.utf8)))
    }
}

extension HTTPServerResponse {
    /// The same answer, counted under `route` by `/metrics`.
    func named(_ route: String) -> HTTPServerResponse {
        var copy = self
        copy.route = route
        return copy
    }

    /// The same answer, its access-log line naming the session.
    func logged(_ session: ServeSession) -> HTTPServerResponse {
        var copy = self
        copy.logFields.append(("session", session.id))
        return copy
    }
}

/// Content read once per change of its playlist file: a session of a popular title costs no read of the origin.
/// An MP4 is packaged as HLS by `packager` (once, into the cache); without one it is refused.
final class ContentCatalog: Sendable {
    static let maximumEntries = 256
    private let reader: OriginReader
    let packager: MP4Packager?
    private struct Entry {
        var stamp: FileStamp
        var content: OriginContent
    }
    private let entries = LockedState([[String]: Entry]())

    init(reader: OriginReader, packager: MP4Packager?) {
        self.reader = reader
        self.packager = packager
    }

    func content(_ path: [String]) async -> Result<OriginContent, OriginContentError> {
        guard let file = reader.origin.file(path), let stamp = FileStamp(file) else {
            return .failure(.notFound("no content \"\(path.joined(separator: "/").excerpt)\" under the origin"))
        }
        if let cached = entries.withLock({ $0[path] }), cached.stamp == stamp { return .success(cached.content) }
        do throws(OriginContentError) {
            let content: OriginContent
            if MP4Packager.takes(file), let packager {
                content = try await packager.content(path, file: file).get()
            } else if let packager {
                // fMP4 renditions are served as MPEG-TS, cut at their own segments, so that breaks can be cut in.
                content = try await packager.transmuxed(try reader.read(path)).get()
            } else {
                content = try reader.read(path)
                if content.renditions.contains(where: { $0.separateAudio != nil }) {
                    throw OriginContentError.unusable("\(path.joined(separator: "/").excerpt): its sound is an audio rendition of its own "
                                                      + "(EXT-X-MEDIA), which is muxed into each variant in the cache: serve it with one")
                }
            }
            entries.withLock { all in
                if all.count >= Self.maximumEntries { all.removeAll() }
                all[path] = Entry(stamp: stamp, content: content)
            }
            return .success(content)
        } catch {
            return .failure(error)
        }
    }
}

/// A file's size and modification time: a playlist edited in place reads again.
struct FileStamp: Equatable {
    var size: Int64
    var modified: timespec

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = info.st_mtim
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }

    /// `SIZE:SECONDS.NANOSECONDS`, for the keys of what is built from the file.
    var text: String { "\(size):\(modified.tv_sec).\(modified.tv_nsec)" }

    /// The stamp of `path` as `text`, or `-1:0.0` when it cannot be read.
    static func text(of path: String) -> String { FileStamp(path)?.text ?? "-1:0.0" }
}
