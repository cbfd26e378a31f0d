import AdDecisioning
import AdPlayback
import MediaCore

/// One output frame as the director decided it, before its media is fetched.
public struct DirectedFrame: Sendable {
    /// The primary player's decision: the output's frame, and its sound and length.
    public let decision: FrameDecision
    /// The other players' decisions made by this `nextFrame()`, in scene order: the pictures the renderer fetches for
    /// them. A player whose session has ended holds what it showed and has none; so has one that decided this frame
    /// already (the frame is decided again after the primary player's media failed).
    public let others: [Other]

    /// What another scene's player shows at this frame.
    public struct Other: Sendable {
        public let scene: SceneID
        public let source: FrameDecision.Source
    }
}

extension Director {
    /// Where the frame in hand stands: the primary player's decision of it, the last output frame the other players
    /// were stepped for (a frame decided again must not move them on twice), and which sessions were told of a
    /// failure (`report`) since the last `nextFrame()`: they decide the frame again.
    struct FrameProgress {
        var decision: FrameDecision?
        var othersFrame: Int64 = -1
        var primaryReported = false
        var reported: Set<SceneID> = []
    }

    /// The next output frame: the primary player's decision (`nil` once its session has ended: the render ends) and
    /// the other players' for that frame. Before the primary session decides, the screen ads are walked through the
    /// frame's time (what covers a scene then); after, the screen ads' and live banners' answers that arrived are
    /// taken (the creatives opened through the catalog), the native placements follow the commands applied, and the
    /// events due are scheduled. Nothing here waits for a fetch.
    ///
    /// After a failure of another player's media only (`report(_:player:)`), the primary's decision stands and only
    /// that player decides the frame again.
    public func nextFrame() -> DirectedFrame? {
        let decision: FrameDecision
        if let current = progress.decision, !progress.primaryReported, !progress.reported.isEmpty {
            decision = current
        } else {
            guard let decided = decidePrimary() else { return nil }
            decision = decided
        }
        let stepping = progress.othersFrame == decision.frame ? players.filter { progress.reported.contains($0.scene) } : players
        progress = FrameProgress(decision: decision, othersFrame: decision.frame)
        // Made in scene order, after the primary session, which applies the screen commands they follow.
        let others = stepping.compactMap { player in
            player.nextFrame().map { DirectedFrame.Other(scene: player.scene, source: $0.source) }
        }
        return DirectedFrame(decision: decision, others: others)
    }

    private func decidePrimary() -> FrameDecision? {
        let rate = planner.frameRate
        screenAds?.advance(through: rate.time(ofFrame: session.status.frame))
        guard let decision = session.nextFrame() else { return nil }
        // The content time of the frame's moment, as its session events carry it: the content tick it shows while
        // the content plays (the session has moved on to the next one by now), else where the content stands.
        let tick: MediaTime = if case .content(let tick) = decision.source, !decision.isPaused {
            rate.time(ofFrame: tick)
        } else {
            session.status.contentPosition
        }
        frameContentTimes[decision.frame] = tick.seconds.doubleValue
        followScreenAds(at: rate.time(ofFrame: decision.frame))
        followNative(frame: decision.frame)
        return decision
    }

    /// After the frame at output time `time` is decided: the screen ads' events due by then (the script's, the live
    /// commands', the live requests' answers) are scheduled at their times; in `play`, the live banner requests that
    /// have arrived show from this frame on, their events logged at its time, and the live screen commands applied at
    /// this frame start theirs. A request still running leaves the ad as it was; its answer is taken at a later frame.
    private func followScreenAds(at time: MediaTime) {
        let changes = screen?.takeLiveScreenChanges() ?? []
        if let screenAds {
            for arrival in screenAds.takeArrivals() {
                let video = (try? arrival.result.get()).flatMap { catalog.openFullScreen($0, request: arrival.request.index) }
                screenAds.take(arrival, video: video, at: time)
            }
            screenAds.advance(through: time)
            schedule(screenAds.takeEvents())
        }
        guard let liveBanners else { return }
        var events: [ScreenAdEvent] = []
        for arrival in liveBanners.takeArrivals() {
            let creative = try? arrival.result.get()
            do throws(ScreenAdError) {
                try catalog.showBanner(creative, in: arrival.scene, from: time)
                // On screen, so that a tap on it is a click.
                screenAds?.bannerShown(creative, in: arrival.scene)
                events += liveBanners.events(of: arrival, at: time)
            } catch {
                screenAds?.bannerShown(nil, in: arrival.scene)
                events.append(ScreenAdEvent(time: time, scene: arrival.scene, .bannerViewDidFailToReceiveAd,
                                            reason: error.reason, message: error.description, url: arrival.request?.url))
            }
        }
        for change in changes { liveBanners.screenChanged(change) }
        schedule(events)
    }

    /// After output frame `frame` is decided, in `play`: the native placements follow the commands the session
    /// applied at this frame (loads begin in the background; answers that arrived are taken, and the images go to the
    /// catalog), and their events of this frame are scheduled with the others.
    private func followNative(frame: Int64) {
        guard case .live(let run) = native else { return }
        let events = run.step(frame: frame, applied: screen?.takeNativeCommands() ?? [])
        let images = run.takeImages()
        catalog.addNativeImages(images, origins: images.keys.reduce(into: [:]) { origins, url in origins[url] = run.origin(of: url) })
        schedule(native: events)
    }

    // MARK: - `play`

    /// Where the primary player's session stands, for a status line.
    public var status: SessionStatus { session.status }
    /// The primary player's plan, with the final (or current) state of every ad.
    public var adPlan: AdPlan { session.plan }
    /// Where `play`'s live commands go: each applies at the next frame, for every player it concerns.
    public var commandInbox: CommandInbox { session.inbox }
    /// Every command applied (or refused) so far: formatted, it replays the session with `render --script`.
    public var commandLog: SessionScript { session.commandLog }
    /// Live commands left out because the command log had no room for them.
    public var ignoredLiveCommands: Int { session.ignoredLiveCommands }
    /// The device's screen now, and where its own canvas lies on the output's (output pixels); `nil` without a device.
    public var screenNow: (state: ScreenState, origin: (x: Int, y: Int))? {
        screen.map { ($0.state, $0.canvas.offset(of: $0.state)) }
    }

    /// What `play`'s native fetches warned of since the last call (origin policy drops, images not fetched).
    public func takeNativeWarnings() -> [String] {
        if case .live(let run) = native { run.takeWarnings() } else { [] }
    }
}

extension Director {
    /// The native placements a director follows: none, a render's, or `play`'s.
    public struct Native {
        enum Run {
            case none
            case rendered(NativeScreenRun.Outcome)
            case live(LiveNativeRun)

            /// The layers and blocks to plan from: a render's whole run, or `play`'s last frame evaluated.
            var outcome: NativeScreenRun.Outcome? {
                switch self {
                case .none: nil
                case .rendered(let outcome): outcome
                case .live(let run): run.outcome
                }
            }
        }

        let run: Run
        /// The events known before the render starts (a render's, its videos' included).
        let events: [NativeAdEvent]

        public static var none: Native { Native(run: .none, events: []) }

        /// A render's placements, evaluated before it starts (`NativeScreenRun`), with all their events.
        public static func rendered(_ outcome: NativeScreenRun.Outcome, events: [NativeAdEvent]) -> Native {
            Native(run: .rendered(outcome), events: events)
        }

        /// `play`'s placements `placements` on `screen` (its state at frame 0), evaluated frame by frame as the
        /// commands apply, their text measured with `measurer`; loads and images are fetched in the background.
        public static func live(_ placements: LiveNativePlacements, screen: ScreenState, frameRate: FrameRate,
                                measurer: any TextMeasurer) throws(NativeError) -> Native {
            Native(run: .live(try LiveNativeRun(placements, screen: screen, frameRate: frameRate, measurer: measurer)), events: [])
        }

        /// Whether the placements are `play`'s, evaluated as it plays.
        public var isLive: Bool { if case .live = run { true } else { false } }
    }
}
