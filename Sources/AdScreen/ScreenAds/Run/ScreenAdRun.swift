import AdPlayback
import Foundation
import MediaCore

/// The banners and full-screen ads of a render, loaded for real before it starts: the events to log and which
/// creative each scene's banner shows from when.
///
/// `ScreenAdDriver` knows every request before any fetch (they depend only on the screen's changes), so the render
/// fetches them all up front with `ScreenAdLoader` (under the ad fetches' limits and origin policy) and then draws
/// from this value frame by frame; a slow ad server delays the start of the render, never a frame's content.
public struct ScreenAdRun: Sendable {
    /// From `time` on, `scene`'s banner shows `creative` (`nil`: the request failed or was never made, so the
    /// banner's slot shows nothing of the ad's).
    public struct BannerChange: Sendable {
        public let time: MediaTime
        public let scene: SceneID
        public let creative: DisplayCreative?
        /// The request that loaded it (`ScreenAdRequest.index`).
        public let request: Int
    }

    /// The events of the run (loads, failures, impressions, clicks, landing screens, beacons), in time order.
    public let events: [ScreenAdEvent]
    /// Every change of a banner's creative, in time order.
    public let bannerChanges: [BannerChange]
    /// Every load of a full-screen ad's creative (same shape: from `time` on, `scene`'s full-screen ad, when it
    /// is presented, shows `creative`), in time order.
    public let fullScreenChanges: [BannerChange]
    /// The requests the run made, in order (what an ad server saw).
    public let requests: [ScreenAdRequest]
    /// The full-screen ads that present, in time order: the session pauses the content they cover.
    public let presentations: [FullScreenPresentation]
    /// The screen's timeline as these outcomes settle it: a present whose ad fails leaves its scene uncovered
    /// (`ScreenAdDriver.settledTimeline`), as the session's screen does.
    public let timeline: ScreenTimeline
    /// The driver and its requests' outcomes, to place a video creative's events once the render has opened it.
    public let driver: ScreenAdDriver
    public let outcomes: [Int: Result<DisplayCreative, ScreenAdError>]
    /// What the render found when it opened each video creative, by request (`opening(videos:)`).
    public let videos: [Int: FullScreenVideoOutcome]
    /// The loader that fetched them, for the requests live commands cause later (`LiveBannerRequests`).
    public var loader: ScreenAdLoader?

    /// Fetches every request of `driver` with `loader` and collects the events and the banners' creatives.
    public static func load(_ driver: ScreenAdDriver, with loader: ScreenAdLoader) async -> ScreenAdRun {
        let outcomes = await driver.load(with: loader)
        var run = ScreenAdRun(driver: driver, outcomes: outcomes)
        run.loader = loader
        return run
    }

    /// The run of `driver` when its requests had `outcomes`.
    ///
    /// - Parameter videos: for each request whose creative is a video, what the render found when it opened it;
    ///   a video that cannot play fails to present, one that can has its start, quartiles and end logged.
    public init(driver: ScreenAdDriver, outcomes: [Int: Result<DisplayCreative, ScreenAdError>],
                videos: [Int: FullScreenVideoOutcome] = [:]) {
        self.driver = driver
        self.outcomes = outcomes
        self.videos = videos
        var walk = ScreenAdWalk(driver: driver, outcomes: outcomes, videos: videos, missingIsFailure: true)
        walk.run()
        events = walk.events
        presentations = walk.presentations
        timeline = walk.settled ?? driver.timeline
        requests = driver.requests
        var changes: [BannerChange] = [], fullScreen: [BannerChange] = []
        // A request in test mode that did not set its scene is never sent: its banner has nothing from the start.
        for request in driver.requests {
            let creative = try? outcomes[request.index]?.get()
            switch request.placement {
            case .banner(let scene):
                changes.append(BannerChange(time: request.time, scene: scene, creative: creative, request: request.index))
            case .fullScreen(let scene):
                fullScreen.append(BannerChange(time: request.time, scene: scene, creative: creative, request: request.index))
            }
        }
        bannerChanges = changes
        fullScreenChanges = fullScreen
    }

    /// The same run once the render has opened its video creatives (`videos`, by request) and its images: a
    /// request whose image could not be opened (`imageFailures`, by request) fails with that error.
    public func opening(videos: [Int: FullScreenVideoOutcome], imageFailures: [Int: ScreenAdError] = [:]) -> ScreenAdRun {
        let outcomes = outcomes.merging(imageFailures.mapValues { .failure($0) }) { _, failure in failure }
        var run = ScreenAdRun(driver: driver, outcomes: outcomes, videos: videos)
        run.loader = loader
        return run
    }

    /// The presentation covering `scene` at output time `time`, if any.
    public func presentation(of scene: SceneID, at time: MediaTime) -> FullScreenPresentation? {
        presentations.last { $0.covers(scene, at: time) }
    }

    /// The creative `scene`'s banner shows at output time `time`; `nil` before its first load or after a failed one.
    public func bannerCreative(of scene: SceneID, at time: MediaTime) -> DisplayCreative? {
        bannerChanges.last { $0.scene == scene && $0.time <= time }?.creative
    }

    /// The run of the one-scene session the command line describes (`--banner`, `--test-mode`): `screen`'s
    /// scenes with a banner take `banner`'s source, and the screen commands of `script` drive the reloads.
    ///
    /// - Throws: `ScreenAdError.placement` when the placements do not fit the screen.
    public static func load(screen: ScreenState, script: SessionScript, banners: [BannerPlacement],
                            fullScreenAds: [FullScreenPlacement] = [], testMode: Bool, loader: ScreenAdLoader,
                            clockOrigin: Date = BeaconClock.defaultOrigin,
                            playerScenes: Set<SceneID>? = nil) async throws(ScreenAdError) -> ScreenAdRun {
        var driver = try ScreenAdDriver(timeline: ScreenTimeline(initial: screen, script: script), banners: banners,
                                        fullScreenAds: fullScreenAds, testMode: testMode)
        driver.clockOrigin = clockOrigin
        driver.playerScenes = playerScenes
        return await load(driver, with: loader)
    }
}
