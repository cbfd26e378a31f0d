import AdPlayback
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
    public var clockOrigin = BeaconClock.defaultOrigin
    public var seed: UInt64 = 0
    /// The scenes with a content player: only there does a full-screen ad's present and dismiss ask the content to
    /// pause and resume (`CONTENT_PAUSE_REQUESTED`, `CONTENT_RESUME_REQUESTED`); `nil`: every scene has one.
    public var playerScenes: Set<SceneID>?

    /// Whether `scene` has a content player for a full-screen ad to pause.
    func hasPlayer(_ scene: SceneID) -> Bool { playerScenes?.contains(scene) ?? true }

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
        var walk = ScreenAdWalk(driver: self, missingIsFailure: false)
        walk.run()
        requests = walk.requests
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

    /// The screen's timeline for the same outcomes: a present whose ad fails leaves its scene uncovered (the next
    /// present is accepted, a dismiss refused), where `timeline` keeps every accepted present.
    public func settledTimeline(outcomes: [Int: Result<DisplayCreative, ScreenAdError>],
                                videos: [Int: FullScreenVideoOutcome] = [:]) -> ScreenTimeline {
        walk(outcomes: outcomes, videos: videos).timeline
    }

    private func walk(outcomes: [Int: Result<DisplayCreative, ScreenAdError>], videos: [Int: FullScreenVideoOutcome])
        -> (events: [ScreenAdEvent], presentations: [FullScreenPresentation], timeline: ScreenTimeline) {
        var walk = ScreenAdWalk(driver: self, outcomes: outcomes, videos: videos, missingIsFailure: true)
        walk.run()
        return (walk.events, walk.presentations, walk.settled ?? timeline)
    }

    /// Fetches the requests and returns the events: `load(with:)` then `events(outcomes:)`.
    public func run(with loader: ScreenAdLoader) async -> [ScreenAdEvent] {
        events(outcomes: await load(with: loader))
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
                ScreenAdEvent(time: time, scene: scene, .bannerViewDidReceiveAd,
                              message: "\(request.map { "\($0.size) pt: " } ?? "")\(creative.summary)", url: request?.url),
                ScreenAdEvent(time: time, scene: scene, .bannerViewDidRecordImpression),
            ]
            for template in creative.impressions {
                let context = MacroContext(timestamp: stamps.timestamp(at: time), cacheBuster: stamps.nextCacheBuster())
                events.append(ScreenAdEvent(time: time, scene: scene, .beacon(
                    .impression, url: MacroExpander.expand(template, with: context), .session, code: nil)))
            }
            return events
        case .failure(let error):
            return [ScreenAdEvent(time: time, scene: scene, .bannerViewDidFailToReceiveAd, reason: error.reason,
                                  message: error.description, url: request?.url)]
        }
    }
}
