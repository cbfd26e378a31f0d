@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// A video full-screen ad's events once the render has opened its media: start, quartiles and end on the video's
/// own clock from its present, cut short by a dismiss; a video that cannot be opened fails to present.
@Suite struct FullScreenVideoEventsTests {
    static let creative = DisplayCreative(
        content: .video(location: .file("/ads/interstitial.mp4"), duration: MediaDuration(seconds: 4)),
        requestURL: "https://ads.example/vast", impressions: ["https://t.example/imp"],
        tracking: [TrackingEventName.start, .firstQuartile, .midpoint, .thirdQuartile, .complete].map {
            TrackingEvent(event: $0, url: "https://t.example/\($0.rawValue)")
        })

    /// The driver of an iPad in portrait, "side" beside "main" in Split View 1/2, with a full-screen ad in "main".
    static func driver(_ commands: [(Rational, ScreenCommand)], kind: FullScreenAd.Kind = .interstitial) throws -> ScreenAdDriver {
        let timeline = ScreenTimeline(initial: ScreenState(device: .iPad11, scenes: [.init(id: "side"), .init(id: "main")]),
                                      commands: commands.map { (MediaTime(seconds: $0.0), $0.1) })
        return try ScreenAdDriver(timeline: timeline, fullScreenAds: [
            FullScreenPlacement(scene: "main", kind: kind, source: .vast(AdRequestTemplate("https://ads.example/vast"))),
        ])
    }

    /// `type` (and for a beacon, `type:event`) of each event, with its time in seconds.
    static func lines(_ events: [ScreenAdEvent]) -> [String] {
        events.map { "\($0.time.seconds) \($0.type.rawValue)\($0.columns.event.map { ":\($0.rawValue)" } ?? "")" }
    }

    @Test func aVideoPlaysItsQuartilesOnItsOwnClockFromItsPresentAndEndsBeforeTheDismiss() throws {
        let driver = try Self.driver([(Rational(1), .presentInterstitial("main")), (Rational(6), .dismiss("main"))])
        let outcomes: [Int: Result<DisplayCreative, ScreenAdError>] = [0: .success(Self.creative)]
        // The file is 4 s long, whatever the document declared.
        let videos: [Int: FullScreenVideoOutcome] = [0: .success(MediaDuration(seconds: 4))]
        let events = driver.events(outcomes: outcomes, videos: videos)
        #expect(Self.lines(events) == [
            "0 adDidLoad",
            "1 adWillPresentFullScreenContent", "1 CONTENT_PAUSE_REQUESTED", "1 adDidRecordImpression", "1 BEACON:impression",
            "1 STARTED", "1 BEACON:start",
            "2 FIRST_QUARTILE", "2 BEACON:firstQuartile", "3 MIDPOINT", "3 BEACON:midpoint",
            "4 THIRD_QUARTILE", "4 BEACON:thirdQuartile", "5 COMPLETE", "5 BEACON:complete",
            "6 adWillDismissFullScreenContent", "6 adDidDismissFullScreenContent", "6 CONTENT_RESUME_REQUESTED",
        ])
        #expect(events.filter { $0.type == .beacon }.map(\.columns.url) == ["imp", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
            .map { "https://t.example/\($0)" })
        #expect(events.first { $0.type == .complete }?.columns.message == "the video ended; it holds its last frame until dismissed")
        #expect(driver.presentations(outcomes: outcomes, videos: videos)
            == [FullScreenPresentation(scene: "main", from: MediaTime(seconds: 1), until: MediaTime(seconds: 6), request: 0)])
    }

    @Test func aDismissBeforeTheVideoEndsDropsWhatItHadNotReached() throws {
        let driver = try Self.driver([(Rational(1), .presentInterstitial("main")), (Rational(5, 2), .dismiss("main"))])
        let events = driver.events(outcomes: [0: .success(Self.creative)], videos: [0: .success(MediaDuration(seconds: 4))])
        let types = events.map(\.type)
        #expect(types.contains(.firstQuartile))
        #expect(!types.contains(.midpoint) && !types.contains(.complete))
        #expect(types.last == .contentResumeRequested)
    }

    @Test func aRewardedVideoEarnsItsRewardWhenItEnds() throws {
        let driver = try Self.driver([(Rational(1), .presentInterstitial("main"))], kind: .rewarded)
        let outcomes: [Int: Result<DisplayCreative, ScreenAdError>] = [0: .success(Self.creative)]
        let events = driver.events(outcomes: outcomes, videos: [0: .success(MediaDuration(seconds: 2))])
        #expect(Self.lines(events).suffix(3) == ["3 COMPLETE", "3 BEACON:complete", "3 userDidEarnReward"])
        // Never dismissed: presented to the end of the run.
        #expect(driver.presentations(outcomes: outcomes, videos: [0: .success(MediaDuration(seconds: 2))]).map(\.until) == [nil])
    }

    @Test func aVideoThatCannotBeOpenedFailsToPresentAndNothingCoversTheScene() throws {
        let driver = try Self.driver([(Rational(1), .presentInterstitial("main")), (Rational(3), .dismiss("main"))])
        let outcomes: [Int: Result<DisplayCreative, ScreenAdError>] = [0: .success(Self.creative)]
        let videos: [Int: FullScreenVideoOutcome] = [0: .failure(.mediaUnavailable(source: "/ads/interstitial.mp4", detail: "no such file"))]
        let events = driver.events(outcomes: outcomes, videos: videos)
        #expect(Self.lines(events) == ["0 adDidLoad", "1 ad:didFailToPresentFullScreenContentWithError"])
        #expect(events[1].columns.reason == .mediaUnavailable)
        #expect(events[1].columns.message == "interstitial for scene \"main\": /ads/interstitial.mp4: no such file")
        #expect(driver.presentations(outcomes: outcomes, videos: videos).isEmpty)
    }
}
