import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// The rules of `ScreenAdDriver`, one screen change at a time: the requests a change causes and the events its
/// taps, presents and dismisses give, with the loaded and presented ads in between.
///
/// A batch run walks the whole timeline at once (`run()`); a live session (`ScreenAdPlayback`) walks the same way,
/// change by change as the user types them, so that a live `present`, `dismiss` or `tap` gives the events the same
/// command gives in a script. A request's outcome is looked up in `outcomes`; a missing one is a failed fetch
/// (`missingIsFailure`) or not known yet (the requests are being collected, or a live fetch is still running).
struct ScreenAdWalk {
    /// A full-screen ad as loaded: the size it was requested for and, when the fetch succeeded, its creative.
    struct Loaded {
        let size: PointSize
        let creative: DisplayCreative?
        let request: Int
    }

    /// A presented ad: its creative, when and by which request; its video's later events wait in `pending`.
    struct Presented {
        let creative: DisplayCreative
        let from: MediaTime
        let request: Int
    }

    /// A video full-screen ad's event due later on its own clock (a quartile, the end), with its tracking.
    struct Pending {
        let time: MediaTime
        let scene: SceneID
        let type: SessionEvent.ScreenAdMoment
        let tracking: TrackingEventName?
        let creative: DisplayCreative
        var message: String? = nil
    }

    /// What the fetches answered: each request's creative or failure, by number, and the video ads' lengths.
    struct Answers {
        var outcomes: [Int: Result<DisplayCreative, ScreenAdError>]
        var videos: [Int: FullScreenVideoOutcome]
        /// Whether a request without an outcome failed to fetch; otherwise its outcome is not known yet.
        let missingIsFailure: Bool

        /// The outcome of `request`: its answer, a failed fetch (`missingIsFailure`), or `nil` (not known yet).
        func outcome(_ request: ScreenAdRequest) -> Result<DisplayCreative, ScreenAdError>? {
            if let known = outcomes[request.index] { return known }
            return missingIsFailure ? .failure(.fetch(.unreachable(source: request.url, reason: "not fetched"))) : nil
        }
    }

    /// How requests are numbered: requests already numbered elsewhere (the batch run's, in a live session) keep
    /// their number when an equal request is made again, so that its outcome and its opened creative are found;
    /// any other is numbered from `nextIndex`.
    struct Numbering {
        var known: [ScreenAdRequest] = []
        var nextIndex = 0
        /// The known requests already matched: each is matched once, in order.
        fileprivate var usedKnown = Set<Int>()

        /// The number of `request`: a known request's, else the next free one.
        fileprivate mutating func index(of request: ScreenAdRequest) -> Int {
            let index = known.first { !usedKnown.contains($0.index) && $0.isSame(as: request) }?.index ?? {
                defer { nextIndex += 1 }
                return nextIndex
            }()
            usedKnown.insert(index)
            return index
        }
    }

    /// The banners: the creative each scene's banner shows, and the scenes whose banner's landing screen is open.
    struct Banners {
        var creatives: [SceneID: DisplayCreative] = [:]
        /// The scenes whose loaded banner's landing screen is open (a tap on a banner that failed opens nothing of
        /// the ad's, so it has no present/dismiss events).
        fileprivate var landing = Set<SceneID>()
    }

    /// The full-screen ads by scene: loaded and waiting to present, presented, and those dismissed, with the
    /// presented videos' events still to come.
    struct FullScreen {
        var loaded: [SceneID: Loaded] = [:]
        var presented: [SceneID: Presented] = [:]
        fileprivate var closed: [FullScreenPresentation] = []
        fileprivate var pending: [Pending] = []
    }

    let driver: ScreenAdDriver
    var answers: Answers
    var numbering = Numbering()
    /// Whether a banner's new width is requested here; a live session's `LiveBannerRequests` does it instead.
    var requestsBanners = true

    private(set) var events: [ScreenAdEvent] = []
    private(set) var requests: [ScreenAdRequest] = []
    var stamps: BeaconStamps
    private(set) var banners = Banners()
    private(set) var fullScreen = FullScreen()

    init(driver: ScreenAdDriver, outcomes: [Int: Result<DisplayCreative, ScreenAdError>] = [:],
         videos: [Int: FullScreenVideoOutcome] = [:], missingIsFailure: Bool, cacheBusting: CacheBusting = .seeded) {
        self.driver = driver
        answers = Answers(outcomes: outcomes, videos: videos, missingIsFailure: missingIsFailure)
        stamps = BeaconStamps(clockOrigin: driver.clockOrigin, seed: driver.seed, cacheBusting: cacheBusting)
    }

    /// The full-screen ads that presented, in time order: those dismissed, then those still on screen.
    var presentations: [FullScreenPresentation] {
        let open = fullScreen.presented.sorted { $0.value.from < $1.value.from }
            .map { FullScreenPresentation(scene: $0.key, from: $0.value.from, until: nil, request: $0.value.request) }
        return (fullScreen.closed + open).sorted { $0.from < $1.from }
    }

    /// The screen's timeline as the full-screen ads settle it (`run()`): a present whose ad fails leaves its
    /// scene uncovered, so a later present is accepted and a dismiss refused; `nil` before `run()`.
    private(set) var settled: ScreenTimeline?

    /// The whole timeline: the first loads, every change, then the videos' events still due. The script's commands
    /// apply again one by one, each present settled by what the walk decided (`settled`).
    mutating func run() {
        begin()
        var timeline = ScreenTimeline(settling: driver.timeline.initial, canvas: driver.timeline.canvas)
        for (time, command) in driver.timeline.orderedCommands {
            guard let change = timeline.apply(command, at: time) else { continue }
            apply(change)
            if case .presentInterstitial(let scene) = command, fullScreen.presented[scene] == nil {
                timeline.presentFailed(in: scene)
            }
        }
        settled = timeline
        flushPending(through: nil)
    }

    /// The first loads, when the app starts.
    mutating func begin() {
        let start = driver.timeline.initial
        for banner in driver.banners {
            guard let frame = start.bannerFrame(of: banner.scene) else { continue }
            requestBanner(banner, size: frame.size, on: start, at: .zero)
        }
        for ad in driver.fullScreenAds { requestFullScreen(ad, on: start, at: .zero, reason: nil) }
    }

    /// What `change` causes: banner reloads, clicks, landing screens, presents, dismisses, and after a layout change
    /// the reload of every loaded full-screen ad that no longer fits its window.
    mutating func apply(_ change: ScreenTimeline.Change) {
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
                if requestsBanners, let banner = driver.banners.first(where: { $0.scene == scene }) {
                    requestBanner(banner, size: size, on: state, at: time)
                }
            case .tapped(_, _, let layer?):
                if layer.kind == .banner, let creative = banners.creatives[layer.scene] {
                    emit(time, layer.scene, .bannerViewDidRecordClick, url: creative.clickThrough)
                    beacons(creative.clickTracking, .clickTracking, time, layer.scene)
                } else if layer.kind == .fullscreen, let creative = fullScreen.presented[layer.scene]?.creative {
                    emit(time, layer.scene, .adDidRecordClick, url: creative.clickThrough)
                    beacons(creative.clickTracking, .clickTracking, time, layer.scene)
                }
            case .tapped(_, _, nil):
                break
            case .presented(let scene, .bannerLanding):
                guard banners.creatives[scene] != nil else { break }
                banners.landing.insert(scene)
                emit(time, scene, .bannerViewWillPresentScreen)
            case .dismissed(let scene, .bannerLanding):
                guard banners.landing.remove(scene) != nil else { break }
                emit(time, scene, .bannerViewWillDismissScreen)
                emit(time, scene, .bannerViewDidDismissScreen)
            case .presented(let scene, .interstitial):
                present(scene, on: state, at: time)
            case .dismissed(let scene, .interstitial):
                dismiss(scene, at: time)
            }
        }
        guard layoutChanged else { return }
        // After a resize, rotation or fold the app checks every loaded full-screen ad again, and reloads one
        // that no longer fits its window for the new size.
        for ad in driver.fullScreenAds {
            guard let ready = fullScreen.loaded[ad.scene], let window = state.layout(of: ad.scene) else { continue }
            do throws(FullScreenAd.Failure) {
                try FullScreenAd.canPresent(adSize: ready.size, in: window)
            } catch {
                events.append(ScreenAdEvent(time: time, scene: ad.scene, .log(.session, reason: .adTooLargeForWindow,
                                                                 message: "\(ad.label): \(error.description); reloading")))
                requestFullScreen(ad, on: state, at: time, reason: .adTooLargeForWindow)
            }
        }
    }

    /// Logs the presented videos' events due by `time` (all of them when `nil`), in time order.
    mutating func flushPending(through time: MediaTime?) {
        fullScreen.pending.sort { $0.time < $1.time }
        while let next = fullScreen.pending.first, time.map({ next.time <= $0 }) ?? true {
            fullScreen.pending.removeFirst()
            emit(next.time, next.scene, next.type, message: next.message)
            if let name = next.tracking { beacons(next.creative.trackingURLs(name), name, next.time, next.scene) }
        }
    }

    /// Closes `scene`'s presented ad at `time` (its dismiss, or its video failing part-way, with `error`): what its
    /// video had not reached never fires.
    mutating func dismiss(_ scene: SceneID, at time: MediaTime, error: ScreenAdError? = nil) {
        guard let shown = fullScreen.presented.removeValue(forKey: scene) else { return }
        fullScreen.pending.removeAll { $0.scene == scene }
        fullScreen.closed.append(FullScreenPresentation(scene: scene, from: shown.from, until: time, request: shown.request))
        emit(time, scene, .adWillDismissFullScreenContent, reason: error?.reason, message: error?.description)
        emit(time, scene, .adDidDismissFullScreenContent, reason: error?.reason)
        if driver.hasPlayer(scene) { emit(time, scene, .contentResumeRequested) }
    }

    /// The answer of full-screen request `request` for `ad`, at `time`: the ad is loaded (or failed to load) for
    /// the size it was requested for.
    mutating func fullScreenLoaded(_ ad: FullScreenPlacement, request: ScreenAdRequest,
                                   result: Result<DisplayCreative, ScreenAdError>?, at time: MediaTime) {
        switch result {
        case .success(let creative)?:
            fullScreen.loaded[ad.scene] = Loaded(size: request.size, creative: creative, request: request.index)
            emit(time, ad.scene, .adDidLoad, reason: request.reason,
                 message: "\(ad.kind.rawValue) \(request.size) pt: \(creative.summary)", url: request.url)
        case .failure(let error)?:
            fullScreen.loaded[ad.scene] = Loaded(size: request.size, creative: nil, request: request.index)
            emit(time, ad.scene, .adDidFailToLoad, reason: error.reason, message: error.description, url: request.url)
        case nil:
            fullScreen.loaded[ad.scene] = Loaded(size: request.size, creative: nil, request: request.index)
        }
    }

    /// Records that `scene`'s banner shows `creative` (`nil`: none), loaded outside the walk.
    mutating func bannerShown(_ creative: DisplayCreative?, in scene: SceneID) {
        banners.creatives[scene] = creative
    }

    // MARK: - Steps

    private mutating func emit(_ time: MediaTime, _ scene: SceneID, _ moment: SessionEvent.ScreenAdMoment,
                               reason: SessionEventReason? = nil, message: String? = nil, url: String? = nil) {
        events.append(ScreenAdEvent(time: time, scene: scene, moment, reason: reason, message: message, url: url))
    }

    private mutating func beacons(_ urls: [String], _ name: TrackingEventName, _ time: MediaTime, _ scene: SceneID) {
        for template in urls {
            let context = MacroContext(timestamp: stamps.timestamp(at: time), cacheBuster: stamps.nextCacheBuster())
            events.append(ScreenAdEvent(time: time, scene: scene, .beacon(
                name, url: MacroExpander.expand(template, with: context), .session, code: nil)))
        }
    }

    /// `request` with its number: a known request's, else the next free one.
    private mutating func numbered(_ request: ScreenAdRequest) -> ScreenAdRequest {
        let numbered = request.numbered(numbering.index(of: request))
        requests.append(numbered)
        return numbered
    }

    /// A banner's request for `size` on `state`: its own scene's, or (not set, production) the whole screen's.
    private mutating func requestBanner(_ banner: BannerPlacement, size: PointSize, on state: ScreenState, at time: MediaTime) {
        let request: ScreenAdRequest
        switch driver.bannerRequest(banner, size: size, on: state, at: time, index: -1) {
        case .success(let made):
            request = numbered(made)
        case .failure(let failure):
            banners.creatives[banner.scene] = nil
            events += ScreenAdDriver.bannerEvents(banner.scene, at: time, request: nil, result: .failure(failure), stamps: &stamps)
            return
        }
        guard let result = answers.outcome(request) else { return }
        banners.creatives[banner.scene] = try? result.get()
        events += ScreenAdDriver.bannerEvents(banner.scene, at: time, request: request, result: result, stamps: &stamps)
    }

    /// A full-screen ad's request on `state`: filled for its scene's window, or the screen's (`FullScreenAd.fill`).
    private mutating func requestFullScreen(_ ad: FullScreenPlacement, on state: ScreenState, at time: MediaTime,
                                            reason: SessionEventReason?) {
        let fill: FullScreenAd.Fill
        do throws(FullScreenAd.Failure) {
            fill = try FullScreenAd.fill(.init(kind: ad.kind, scene: ad.setsScene ? ad.scene : nil), on: state, testMode: driver.testMode)
        } catch {
            fullScreen.loaded[ad.scene] = nil
            let failure: ScreenAdError = error.reason == .sceneNotSet
                ? .sceneNotSet(placement: ad.label) : .sceneNotOnScreen(placement: ad.label, scene: ad.scene)
            emit(time, ad.scene, .adDidFailToLoad, reason: failure.reason, message: failure.description)
            return
        }
        let request = numbered(ScreenAdRequest(index: -1, time: time, placement: .fullScreen(ad.scene), scene: fill.scene,
                                               size: fill.contentSize, source: ad.source,
                                               url: ad.source.template.expanded(size: fill.contentSize, scale: state.pointScale, scene: fill.scene),
                                               reason: reason))
        fullScreenLoaded(ad, request: request, result: answers.outcome(request), at: time)
    }

    private mutating func present(_ scene: SceneID, on state: ScreenState, at time: MediaTime) {
        guard let ad = driver.fullScreenAds.first(where: { $0.scene == scene }), let ready = fullScreen.loaded[scene],
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
        if case .video = creative.content, let video = answers.videos[ready.request] {
            switch video {
            case .success(let duration): length = duration
            case .failure(let error):
                emit(time, scene, .adDidFailToPresentFullScreenContent, reason: error.reason,
                     message: "\(ad.label): \(error.description)")
                return
            }
        }
        // A full-screen ad is shown once: presenting uses it up.
        fullScreen.loaded[scene] = nil
        fullScreen.presented[scene] = Presented(creative: creative, from: time, request: ready.request)
        emit(time, scene, .adWillPresentFullScreenContent, message: "\(ad.kind.rawValue) \(ready.size) pt in \(window.frame.size) pt")
        // Only a scene with a player has content to pause.
        if driver.hasPlayer(scene) { emit(time, scene, .contentPauseRequested) }
        emit(time, scene, .adDidRecordImpression)
        beacons(creative.impressions, .impression, time, scene)
        guard let length else { return }
        // The video plays from its first frame now, on its own clock; its quartiles and end follow as the
        // linear ads' do, unless a dismiss comes first.
        emit(time, scene, .started)
        beacons(creative.trackingURLs(.start), .start, time, scene)
        let marks: [(Rational, SessionEvent.ScreenAdMoment, TrackingEventName)] = [
            (Rational(1, 4), .firstQuartile, .firstQuartile), (Rational(1, 2), .midpoint, .midpoint),
            (Rational(3, 4), .thirdQuartile, .thirdQuartile), (Rational(1), .complete, .complete),
        ]
        for (share, type, name) in marks {
            fullScreen.pending.append(Pending(time: time + length * share, scene: scene, type: type, tracking: name, creative: creative,
                                   message: type == .complete ? "the video ended; it holds its last frame until dismissed" : nil))
        }
        if ad.kind == .rewarded {
            fullScreen.pending.append(Pending(time: time + length, scene: scene, type: .userDidEarnReward, tracking: nil, creative: creative))
        }
    }
}

extension ScreenAdRequest {
    /// Whether `other` asks the same thing (its number and time aside: a script's request is known at the
    /// command's time and made at the frame it applies at).
    func isSame(as other: ScreenAdRequest) -> Bool {
        placement == other.placement && scene == other.scene && size == other.size
            && url == other.url && reason == other.reason
    }

    /// The same request numbered `index`.
    func numbered(_ index: Int) -> ScreenAdRequest {
        ScreenAdRequest(index: index, time: time, placement: placement, scene: scene, size: size, source: source, url: url,
                        reason: reason)
    }
}
