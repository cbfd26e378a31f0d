import Foundation
import MediaCore

/// The banners and full-screen ads of a screen over time: which requests the screen's changes cause, and the
/// ordered events (with times and scenes) that their outcomes and the script's taps, presents and dismisses give.
///
/// A value: the requests depend only on the screen timeline and the placements (a banner is requested when its
/// width changes, a full-screen ad when it no longer fits its window), never on what a server answered, so the
/// requests are known before any fetch and the events are a pure function of the requests' outcomes. A render
/// fetches `requests` (`load(with:)`), then asks for `events(outcomes:)`; every request's outcome is placed at the
/// request's own time, so the log never depends on the network's speed.
public struct ScreenAdDriver: Sendable {
    public let timeline: ScreenTimeline
    public let banners: [BannerPlacement]
    public let fullScreenAds: [FullScreenPlacement]
    public let testMode: Bool
    /// Every request the run makes, in order.
    public private(set) var requests: [ScreenAdRequest] = []
    /// The `[TIMESTAMP]` origin and `[CACHEBUSTING]` seed of the beacons, as a session's.
    public var clockOrigin = SessionConfiguration.defaultClockOrigin
    public var seed: UInt64 = 0

    /// A driver for `placements` on `timeline`.
    ///
    /// - Throws: `ScreenAdError.placement` naming a placement whose scene the screen does not have, a banner whose
    ///   scene was not declared with a banner, or a second placement of the same kind in one scene.
    public init(timeline: ScreenTimeline, banners: [BannerPlacement] = [], fullScreenAds: [FullScreenPlacement] = [],
                testMode: Bool = false) throws(ScreenAdError) {
        let scenes = Dictionary(uniqueKeysWithValues: timeline.initial.scenes.map { ($0.id, $0) })
        for banner in banners {
            guard let scene = scenes[banner.scene] else { throw .placement(banner.label, "the screen has no such scene") }
            guard scene.hasBanner else { throw .placement(banner.label, "the scene was not declared with a banner") }
        }
        for ad in fullScreenAds where scenes[ad.scene] == nil { throw .placement(ad.label, "the screen has no such scene") }
        if let twice = Self.duplicate(banners.map(\.scene)) { throw .placement("banner in scene \"\(twice)\"", "a scene has one banner") }
        if let twice = Self.duplicate(fullScreenAds.map(\.scene)) {
            throw .placement("full-screen ad for scene \"\(twice)\"", "a scene has one full-screen ad")
        }
        self.timeline = timeline
        self.banners = banners
        self.fullScreenAds = fullScreenAds
        self.testMode = testMode
        var collected: [ScreenAdRequest] = []
        _ = walk(videos: [:]) { request in
            collected.append(request)
            return nil
        }
        requests = collected
    }

    private static func duplicate(_ ids: [SceneID]) -> SceneID? {
        var seen = Set<SceneID>()
        return ids.first { !seen.insert($0).inserted }
    }

    /// Fetches every request in order with `loader`, each once; the outcomes for `events(outcomes:)`.
    public func load(with loader: ScreenAdLoader) async -> [Int: Result<DisplayCreative, ScreenAdError>] {
        var outcomes: [Int: Result<DisplayCreative, ScreenAdError>] = [:]
        for request in requests {
            let wantsVideo = if case .fullScreen = request.placement { true } else { false }
            do throws(ScreenAdError) {
                outcomes[request.index] = .success(try await loader.load(request.source, url: request.url, wantsVideo: wantsVideo))
            } catch {
                outcomes[request.index] = .failure(error)
            }
        }
        return outcomes
    }

    /// The events of the run when request `i` had `outcomes[i]` (a missing outcome is a failed fetch) and, for a
    /// video full-screen creative, its media `videos[i]` (absent: not opened, so no quartiles are known).
    public func events(outcomes: [Int: Result<DisplayCreative, ScreenAdError>],
                       videos: [Int: FullScreenVideoOutcome] = [:]) -> [ScreenAdEvent] {
        walk(outcomes: outcomes, videos: videos).events
    }

    /// The full-screen ads that really present (not those that fail to), with their times, for the same outcomes.
    public func presentations(outcomes: [Int: Result<DisplayCreative, ScreenAdError>],
                              videos: [Int: FullScreenVideoOutcome] = [:]) -> [FullScreenPresentation] {
        walk(outcomes: outcomes, videos: videos).presentations
    }

    private func walk(outcomes: [Int: Result<DisplayCreative, ScreenAdError>],
                      videos: [Int: FullScreenVideoOutcome]) -> (events: [ScreenAdEvent], presentations: [FullScreenPresentation]) {
        walk(videos: videos) { request in
            outcomes[request.index] ?? .failure(.fetch(.unreachable(source: request.url, reason: "not fetched")))
        }
    }

    /// Fetches the requests and returns the events: `load(with:)` then `events(outcomes:)`.
    public func run(with loader: ScreenAdLoader) async -> [ScreenAdEvent] {
        events(outcomes: await load(with: loader))
    }

    // MARK: - The walk

    /// A full-screen ad as loaded: the size it was requested for and, when the fetch succeeded, its creative.
    private struct Loaded {
        let size: PointSize
        let creative: DisplayCreative?
        let request: Int
    }

    /// A presented ad: its creative, when and by which request; its video's later events wait in `pending`.
    private struct Presented {
        let creative: DisplayCreative
        let from: MediaTime
        let request: Int
    }

    /// A video full-screen ad's event due later on its own clock (a quartile, the end), with its tracking.
    private struct Pending {
        let time: MediaTime
        let scene: SceneID
        let type: SessionEventType
        let tracking: TrackingEventName?
        let creative: DisplayCreative
        var message: String? = nil
    }

    /// The request `banner` makes for `size` on `state` at `time`, numbered `index`: for its own scene, or, when it
    /// does not set its scene, for the whole screen (`[SCENE]` `-1`).
    ///
    /// - Returns: the request, or `.sceneNotSet` in test mode on a device that runs several scenes, where a
    ///   request without its scene is never sent.
    public func bannerRequest(_ banner: BannerPlacement, size: PointSize, on state: ScreenState, at time: MediaTime,
                              index: Int) -> Result<ScreenAdRequest, ScreenAdError> {
        var scene: SceneID? = banner.scene, size = size
        if !banner.setsScene {
            if testMode && timeline.initial.device.supportsMultipleScenes { return .failure(.sceneNotSet(placement: banner.label)) }
            let display = state.display.safeArea(in: state.orientation), screen = state.screenSize
            size = AnchoredAdaptiveBanner.size(safeAreaWidth: screen.width - display.left - display.right,
                                               screenHeight: screen.height)
            scene = nil
        }
        return .success(ScreenAdRequest(index: index, time: time, placement: .banner(banner.scene), scene: scene, size: size,
                                        source: banner.source, url: banner.source.template.expanded(size: size, scale: state.pointScale, scene: scene),
                                        reason: nil))
    }

    /// The events of `scene`'s banner request (`nil`: refused before it was sent) at `time` with `result`: the
    /// creative received, its impression and impression beacons; or the failure.
    static func bannerEvents(_ scene: SceneID, at time: MediaTime, request: ScreenAdRequest?,
                             result: Result<DisplayCreative, ScreenAdError>, stamps: inout BeaconStamps) -> [ScreenAdEvent] {
        switch result {
        case .success(let creative):
            var events = [
                ScreenAdEvent(time: time, scene: scene, type: .bannerViewDidReceiveAd,
                              message: "\(request.map { "\($0.size) pt: " } ?? "")\(creative.summary)", url: request?.url),
                ScreenAdEvent(time: time, scene: scene, type: .bannerViewDidRecordImpression),
            ]
            for template in creative.impressions {
                let context = MacroContext(timestamp: stamps.timestamp(at: time), cacheBuster: stamps.nextCacheBuster())
                events.append(ScreenAdEvent(time: time, scene: scene, type: .beacon,
                                            url: MacroExpander.expand(template, with: context), event: .impression))
            }
            return events
        case .failure(let error):
            return [ScreenAdEvent(time: time, scene: scene, type: .bannerViewDidFailToReceiveAd, reason: error.reason,
                                  message: error.description, url: request?.url)]
        }
    }

    /// Replays the timeline, asking `outcome` for each request as it is made; requests never depend on outcomes.
    private func walk(videos: [Int: FullScreenVideoOutcome],
                      _ outcome: (ScreenAdRequest) -> Result<DisplayCreative, ScreenAdError>?)
        -> (events: [ScreenAdEvent], presentations: [FullScreenPresentation]) {
        var events: [ScreenAdEvent] = []
        var stamps = BeaconStamps(clockOrigin: clockOrigin, seed: seed)
        var requestCount = 0
        var bannerCreatives: [SceneID: DisplayCreative] = [:]
        var loaded: [SceneID: Loaded] = [:]
        var presented: [SceneID: Presented] = [:]
        var presentations: [FullScreenPresentation] = []
        var pending: [Pending] = []
        // The scenes whose loaded banner's landing screen is open (a tap on a banner that failed opens nothing of
        // the ad's, so it has no present/dismiss events).
        var landing = Set<SceneID>()

        func emit(_ time: MediaTime, _ scene: SceneID, _ type: SessionEventType, reason: SessionEventReason? = nil,
                  message: String? = nil, url: String? = nil) {
            events.append(ScreenAdEvent(time: time, scene: scene, type: type, reason: reason, message: message, url: url))
        }
        func beacons(_ urls: [String], _ name: TrackingEventName, _ time: MediaTime, _ scene: SceneID) {
            for template in urls {
                let context = MacroContext(timestamp: stamps.timestamp(at: time), cacheBuster: stamps.nextCacheBuster())
                events.append(ScreenAdEvent(time: time, scene: scene, type: .beacon,
                                            url: MacroExpander.expand(template, with: context), event: name))
            }
        }
        /// Logs the presented videos' events due by `time` (all of them when `nil`), in time order.
        func flushPending(through time: MediaTime?) {
            pending.sort { $0.time < $1.time }
            while let next = pending.first, time.map({ next.time <= $0 }) ?? true {
                pending.removeFirst()
                emit(next.time, next.scene, next.type, message: next.message)
                if let name = next.tracking { beacons(next.creative.trackingURLs(name), name, next.time, next.scene) }
            }
        }
        func makeRequest(_ time: MediaTime, _ placement: ScreenAdRequest.Placement, scene: SceneID?, size: PointSize,
                         source: CreativeSource, scale: PointScale, reason: SessionEventReason?) -> (ScreenAdRequest, Result<DisplayCreative, ScreenAdError>?) {
            let request = ScreenAdRequest(index: requestCount, time: time, placement: placement, scene: scene, size: size,
                                          source: source, url: source.template.expanded(size: size, scale: scale, scene: scene),
                                          reason: reason)
            requestCount += 1
            return (request, outcome(request))
        }

        /// A banner's request for `size` on `state`: its own scene's, or (not set, production) the whole screen's.
        func requestBanner(_ banner: BannerPlacement, size: PointSize, on state: ScreenState, at time: MediaTime) {
            let request: ScreenAdRequest
            switch bannerRequest(banner, size: size, on: state, at: time, index: requestCount) {
            case .success(let made):
                request = made
                requestCount += 1
            case .failure(let failure):
                bannerCreatives[banner.scene] = nil
                events += Self.bannerEvents(banner.scene, at: time, request: nil, result: .failure(failure), stamps: &stamps)
                return
            }
            guard let result = outcome(request) else { return }
            bannerCreatives[banner.scene] = try? result.get()
            events += Self.bannerEvents(banner.scene, at: time, request: request, result: result, stamps: &stamps)
        }

        /// A full-screen ad's request on `state`: filled for its scene's window, or the screen's (`FullScreenAd.fill`).
        func requestFullScreen(_ ad: FullScreenPlacement, on state: ScreenState, at time: MediaTime, reason: SessionEventReason?) {
            let fill: FullScreenAd.Fill
            do throws(FullScreenAd.Failure) {
                fill = try FullScreenAd.fill(.init(kind: ad.kind, scene: ad.setsScene ? ad.scene : nil), on: state, testMode: testMode)
            } catch {
                loaded[ad.scene] = nil
                let failure: ScreenAdError = error.reason == .sceneNotSet
                    ? .sceneNotSet(placement: ad.label) : .sceneNotOnScreen(placement: ad.label, scene: ad.scene)
                emit(time, ad.scene, .adDidFailToLoad, reason: failure.reason, message: failure.description)
                return
            }
            let (request, result) = makeRequest(time, .fullScreen(ad.scene), scene: fill.scene, size: fill.contentSize,
                                                source: ad.source, scale: state.pointScale, reason: reason)
            switch result {
            case .success(let creative)?:
                loaded[ad.scene] = Loaded(size: fill.contentSize, creative: creative, request: request.index)
                emit(time, ad.scene, .adDidLoad, reason: reason,
                     message: "\(ad.kind.rawValue) \(fill.contentSize) pt: \(creative.summary)", url: request.url)
            case .failure(let error)?:
                loaded[ad.scene] = Loaded(size: fill.contentSize, creative: nil, request: request.index)
                emit(time, ad.scene, .adDidFailToLoad, reason: error.reason, message: error.description, url: request.url)
            case nil:
                loaded[ad.scene] = Loaded(size: fill.contentSize, creative: nil, request: request.index)
            }
        }

        func present(_ scene: SceneID, on state: ScreenState, at time: MediaTime) {
            guard let ad = fullScreenAds.first(where: { $0.scene == scene }), let ready = loaded[scene],
                  let creative = ready.creative else {
                emit(time, scene, .adDidFailToPresentFullScreenContent, reason: .adNotLoaded,
                     message: "scene \"\(scene)\": no full-screen ad is loaded")
                return
            }
            guard let window = state.layout(of: scene) else {
                emit(time, scene, .adDidFailToPresentFullScreenContent, reason: .sceneNotOnScreen,
                     message: FullScreenAd.Failure.sceneNotOnScreen(scene).description)
                return
            }
            do throws(FullScreenAd.Failure) {
                try FullScreenAd.canPresent(adSize: ready.size, in: window)
            } catch {
                emit(time, scene, .adDidFailToPresentFullScreenContent, reason: .adTooLargeForWindow,
                     message: "\(ad.label): \(error.description)")
                return
            }
            var length: MediaDuration?
            if case .video = creative.content, let video = videos[ready.request] {
                switch video {
                case .success(let duration): length = duration
                case .failure(let error):
                    emit(time, scene, .adDidFailToPresentFullScreenContent, reason: error.reason,
                         message: "\(ad.label): \(error.description)")
                    return
                }
            }
            // A full-screen ad is shown once: presenting uses it up.
            loaded[scene] = nil
            presented[scene] = Presented(creative: creative, from: time, request: ready.request)
            emit(time, scene, .adWillPresentFullScreenContent, message: "\(ad.kind.rawValue) \(ready.size) pt in \(window.frame.size) pt")
            emit(time, scene, .contentPauseRequested)
            emit(time, scene, .adDidRecordImpression)
            beacons(creative.impressions, .impression, time, scene)
            guard let length else { return }
            // The video plays from its first frame now, on its own clock; its quartiles and end follow as the
            // linear ads' do, unless a dismiss comes first.
            emit(time, scene, .started)
            beacons(creative.trackingURLs(.start), .start, time, scene)
            let marks: [(Rational, SessionEventType, TrackingEventName)] = [
                (Rational(1, 4), .firstQuartile, .firstQuartile), (Rational(1, 2), .midpoint, .midpoint),
                (Rational(3, 4), .thirdQuartile, .thirdQuartile), (Rational(1), .complete, .complete),
            ]
            for (share, type, name) in marks {
                pending.append(Pending(time: time + length * share, scene: scene, type: type, tracking: name, creative: creative,
                                       message: type == .complete ? "the video ended; it holds its last frame until dismissed" : nil))
            }
            if ad.kind == .rewarded {
                pending.append(Pending(time: time + length, scene: scene, type: .userDidEarnReward, tracking: nil, creative: creative))
            }
        }

        // The first loads, when the app starts.
        let start = timeline.initial
        for banner in banners {
            guard let frame = start.bannerFrame(of: banner.scene) else { continue }
            requestBanner(banner, size: frame.size, on: start, at: .zero)
        }
        for ad in fullScreenAds { requestFullScreen(ad, on: start, at: .zero, reason: nil) }

        for change in timeline.changes {
            let time = change.time, state = change.state
            flushPending(through: time)
            var layoutChanged = false
            for event in change.events {
                switch event {
                case .willTransition, .didUpdateCoordinateSpace:
                    layoutChanged = true
                case .activationChanged, .bannerReanchored:
                    break
                case .bannerNeedsReload(let scene, let size):
                    if let banner = banners.first(where: { $0.scene == scene }) {
                        requestBanner(banner, size: size, on: state, at: time)
                    }
                case .tapped(_, _, let layer?):
                    if layer.kind == .banner, let creative = bannerCreatives[layer.scene] {
                        emit(time, layer.scene, .bannerViewDidRecordClick, url: creative.clickThrough)
                        beacons(creative.clickTracking, .clickTracking, time, layer.scene)
                    } else if layer.kind == .fullscreen, let creative = presented[layer.scene]?.creative {
                        emit(time, layer.scene, .adDidRecordClick, url: creative.clickThrough)
                        beacons(creative.clickTracking, .clickTracking, time, layer.scene)
                    }
                case .tapped(_, _, nil):
                    break
                case .presented(let scene, .bannerLanding):
                    guard bannerCreatives[scene] != nil else { break }
                    landing.insert(scene)
                    emit(time, scene, .bannerViewWillPresentScreen)
                case .dismissed(let scene, .bannerLanding):
                    guard landing.remove(scene) != nil else { break }
                    emit(time, scene, .bannerViewWillDismissScreen)
                    emit(time, scene, .bannerViewDidDismissScreen)
                case .presented(let scene, .interstitial):
                    present(scene, on: state, at: time)
                case .dismissed(let scene, .interstitial):
                    guard let shown = presented.removeValue(forKey: scene) else { break }
                    // Closed before its video ended: what it had not reached never fires.
                    pending.removeAll { $0.scene == scene }
                    presentations.append(FullScreenPresentation(scene: scene, from: shown.from, until: time, request: shown.request))
                    emit(time, scene, .adWillDismissFullScreenContent)
                    emit(time, scene, .adDidDismissFullScreenContent)
                    emit(time, scene, .contentResumeRequested)
                }
            }
            guard layoutChanged else { continue }
            // After a resize, rotation or fold the app checks every loaded full-screen ad again, and reloads one
            // that no longer fits its window for the new size.
            for ad in fullScreenAds {
                guard let ready = loaded[ad.scene], let window = state.layout(of: ad.scene) else { continue }
                do throws(FullScreenAd.Failure) {
                    try FullScreenAd.canPresent(adSize: ready.size, in: window)
                } catch {
                    emit(time, ad.scene, .log, reason: .adTooLargeForWindow, message: "\(ad.label): \(error.description); reloading")
                    requestFullScreen(ad, on: state, at: time, reason: .adTooLargeForWindow)
                }
            }
        }
        flushPending(through: nil)
        for (scene, shown) in presented.sorted(by: { $0.value.from < $1.value.from }) {
            presentations.append(FullScreenPresentation(scene: scene, from: shown.from, until: nil, request: shown.request))
        }
        return (events, presentations.sorted { $0.from < $1.from })
    }
}
