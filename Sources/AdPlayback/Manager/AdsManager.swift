import AdDecisioning
import MediaCore

/// Plays an ad plan against the content, frame by frame, as IMA's `IMAAdsManager` does for a player: it decides
/// when each break starts, *requests* the content pause and resume, plays each ad of a break in order, fires the
/// VAST and VMAP tracking, and reports everything as `SessionEvent`s with IMA's names.
///
/// The manager is driven by a `PlaybackSession`, which owns the output clock and the content position and asks
/// the manager, at every output frame, what the screen shows. It learns about picture-in-picture the way IMA
/// does: it receives the controller's delegate messages through a `PictureInPictureProxy`, and while the window
/// is up it holds the start of any break whose cue is reached (a break that has already started plays on).
///
/// Event order, all at the output frame where it happens (typed events first, then their `BEACON` lines):
/// - cue reached: `AD_BREAK_READY` (then `AD_BREAK_DEFERRED` or `AD_BREAK_SKIPPED` while picture-in-picture holds);
/// - each ad as it is about to start: `LOADED` once its media opened (else `AD_ERROR`, error beacons, next ad);
///   before the break's first ad also `CONTENT_PAUSE_REQUESTED`, `AD_BREAK_STARTED`, beacon `breakStart`; then
///   `STARTED`, beacons `impression` (all of them, wrappers' included), `IMPRESSION`, beacons `creativeView`,
///   `start`; all at the frame that shows the ad's tick 0;
/// - at the first frame whose ad time reaches each offset of the real duration: `FIRST_QUARTILE`, `MIDPOINT`,
///   `THIRD_QUARTILE` and beacon `progress` lines, in offset order;
/// - at the first frame whose ad time reaches each whole second below the real duration: `AD_PROGRESS` (after
///   any quartile or `progress` beacon of the same frame);
/// - at the frame boundary where the ad's last frame ends: `COMPLETE` (or `SKIPPED` at the `skip` command);
///   then the next ad, or `AD_BREAK_ENDED`, beacon `breakEnd`, `CONTENT_RESUME_REQUESTED`;
/// - at a `click` while an ad is on screen: `CLICK` (its ClickThrough in `url`), then its `clickTracking` beacons;
/// - where the content ends: `LOG` (`endedEarly`) when its frames stopped before its declared duration, then
///   `AD_BREAK_SKIPPED` (`contentEnded`) for every armed mid-roll cued after its end, then the post-roll;
/// - when the content ended and nothing is left: `ALL_ADS_COMPLETED`.
///
/// Rules:
/// - A mid-roll cued at content time `T` is reached at the first content tick `k` with `k/F ≥ T`. A mid-roll cued
///   at 0 is the pre-roll, as IMA counts it (cue point 0): it plays before the first content frame, under the
///   pre-roll switch, with `[BREAKPOSITION]` 1.
/// - A start position (`SessionConfiguration.contentStart`) is not a seek: the mid-rolls cued before the first
///   content tick shown are passed (a `LOG`, reason `startPosition`), whatever the seek policy, as IMA's
///   `playAdsAfterTime` set to the resume position does; the pre-roll still plays unless the settings refuse it.
/// - Breaks reached before the first content frame (the pre-roll, and a mid-roll cued exactly at the start)
///   are never held: picture-in-picture cannot be active before anything plays, and once the first of them
///   started the others continue it, in the window if the user moved it there.
/// - A failed ad never stops the plan: `AD_ERROR` with the VAST code, its error URLs and the break's VMAP `error`
///   URLs fire, the ad is marked failed and the next ad of the break (or the content) plays at the same frame.
///   A break whose ads all fail never requests a content pause.
public final class AdsManager {
    /// What the screen shows at the frame being decided.
    enum Picture: Hashable {
        case content
        case ad(AdReference, tick: Int64)
        /// The content has ended and a held break waits for picture-in-picture to stop.
        case waiting
        /// The content has ended and nothing is left to play.
        case finished
    }

    /// The plan with the state of every ad so far.
    public internal(set) var plan: AdPlan
    public let settings: AdsRenderingSettings
    let breakPolicy: PictureInPictureSettings.BreakPolicy
    let contentFrameCount: Int64
    /// The content's early end, reported once when the content ends.
    let contentEarlyEnd: EarlyEnd?
    var contentEndReported = false
    let recorder: EventRecorder
    /// Held strongly: the session cannot play ads without it.
    let media: any AdMediaProvider

    var slots: [Slot]
    /// Breaks whose cue was reached and that have not started yet, in play order.
    var due: [Due] = []
    var current: PlayingBreak?
    /// Failed ads whose `AD_ERROR` has been reported (ads that failed while loading are reported at their turn).
    var reportedFailures: Set<AdReference> = []
    /// From picture-in-picture will-start until did-stop, as the proxy reports it.
    var pictureInPictureHolds = false
    var contentHasStarted = false

    init(plan: AdPlan, settings: AdsRenderingSettings, breakPolicy: PictureInPictureSettings.BreakPolicy,
         contentFrameCount: Int64, contentEarlyEnd: EarlyEnd? = nil, recorder: EventRecorder,
         media: any AdMediaProvider) {
        self.contentEarlyEnd = contentEarlyEnd
        self.plan = plan
        self.settings = settings
        self.breakPolicy = breakPolicy
        self.contentFrameCount = contentFrameCount
        self.recorder = recorder
        self.media = media
        slots = plan.breaks.map { Slot(position: $0.position, rate: recorder.rate, contentFrameCount: contentFrameCount) }
    }

    /// Where one break of the plan stands in this session.
    struct Slot {
        enum Kind: Hashable {
            case preroll
            /// Reached when the content is about to show tick `trigger`.
            case midroll(trigger: Int64)
            case postroll
        }

        enum Status: Hashable {
            /// Will play when its cue is reached.
            case pending
            /// The content went past its cue without playing it (a seek); a seek back before the cue arms it again.
            case passed
            /// Reached; waiting in `due` to start.
            case due
            case playing
            /// Played, failed, skipped or filtered out: never plays again.
            case done
        }

        let kind: Kind
        /// On the content clock; the post-roll's is the content's end.
        let cueTime: MediaTime
        var status: Status = .pending

        init(position: BreakPosition, rate: FrameRate, contentFrameCount: Int64) {
            switch position {
            case .preroll:
                kind = .preroll
                cueTime = .zero
            case .midroll(let time) where time <= .zero:
                kind = .preroll
                cueTime = .zero
            case .midroll(let time):
                kind = .midroll(trigger: rate.firstFrame(atOrAfter: time))
                cueTime = time
            case .postroll:
                kind = .postroll
                cueTime = rate.time(ofFrame: contentFrameCount)
            }
        }

        var trigger: Int64? {
            if case .midroll(let trigger) = kind { return trigger }
            return nil
        }
    }

    struct Due: Hashable {
        let breakIndex: Int
        /// The output frame at which the cue was reached.
        let cueFrame: Int64
        /// `AD_BREAK_DEFERRED` was reported.
        var deferred = false
    }

    struct PlayingBreak {
        let breakIndex: Int
        let due: Due
        /// The content pause was requested and `AD_BREAK_STARTED` sent (an ad prepared successfully).
        var started = false
        var ad: PlayingAd?
    }

    struct PlayingAd {
        let adIndex: Int
        let info: AdMediaInfo
        /// The next ad tick to show; also how many have been shown.
        var tick: Int64 = 0
        /// Quartiles and progress offsets not yet fired, by offset.
        var milestones: [Milestone]
    }

    /// A moment in an ad at which an event and its tracking URLs fire.
    struct Milestone {
        let offset: MediaDuration
        /// The event it reports, if any (a `progress` offset has none).
        let report: Report?
        /// The tracking event whose `urls` fire; nil for `AD_PROGRESS`, which has no VAST counterpart.
        let vastEvent: TrackingEventName?
        let urls: [String]

        enum Report {
            case moment(SessionEvent.AdMoment)
            /// `AD_PROGRESS` at the milestone's offset.
            case progress
        }
    }

    // MARK: - Driving

    /// Reports the plan's own errors and the stand-alone ads that replaced others (`LOG` reason `fallback`),
    /// filters breaks by the settings, makes the pre-roll due and passes the
    /// mid-rolls behind a start position. Called once, at output frame 0.
    func begin(contentStartTick: Int64) {
        for error in plan.errors {
            recorder.emit(.adError(.session, code: error.code.rawValue, message: error.message))
            recorder.fire(.error, urls: error.errorURLs, macros: MacroContext(errorCode: error.code), about: .session)
        }
        for (index, adBreak) in plan.breaks.enumerated() {
            for note in adBreak.replacements { recorder.log(note.message, about: .adBreak(index), reason: .fallback) }
        }
        for dropped in plan.droppedReferences { recorder.log(dropped.message, reason: .originPolicy) }
        for index in slots.indices {
            // A break whose ads all failed while loading still goes through its cue, to report each failure then.
            if plan.breaks[index].ads.isEmpty {
                slots[index].status = .done
            } else if let reason = settingsRefusal(of: index) {
                skipBreak(index, reason: reason, cueFrame: nil)
            }
        }
        for index in slots.indices where slots[index].kind == .preroll && slots[index].status == .pending {
            makeDue(index)
        }
        if contentStartTick > 0 { passBreaks(before: contentStartTick) }
    }

    /// Decides what the screen shows at the recorder's frame, given the content position in the recorder; starts,
    /// advances and ends breaks on the way, emitting their events.
    func resolve() -> Picture {
        while true {
            if current != nil {
                if let picture = advanceBreak() { return picture }
                continue
            }
            reachCues()
            if holdsBreakStarts {
                holdDueBreaks()
            } else if !due.isEmpty {
                startBreak(due.removeFirst())
                continue
            }
            if recorder.contentTick >= contentFrameCount { return due.isEmpty ? .finished : .waiting }
            contentHasStarted = true
            return .content
        }
    }

    /// Ends the manager's part: every break still waiting is reported skipped (`sessionEnded`); when the content
    /// had ended, `ALL_ADS_COMPLETED` follows.
    func finish(contentEnded: Bool) {
        for waiting in due { skipBreak(waiting.breakIndex, reason: .sessionEnded, cueFrame: waiting.cueFrame) }
        due.removeAll()
        if contentEnded { recorder.emit(.allAdsCompleted) }
    }

    /// True while break starts are held: picture-in-picture is starting, active or stopping, the content has
    /// started playing, and the policy is not `play` (which starts breaks inside the window).
    var holdsBreakStarts: Bool { breakPolicy != .play && pictureInPictureHolds && contentHasStarted }

    /// True from the first frame of a break to its end (content seeks are refused meanwhile).
    public var isPlayingBreak: Bool { current != nil }

    /// The ad on screen: its place in the plan, the next ad tick and its length.
    public var playingAd: (breakIndex: Int, adIndex: Int, tick: Int64, info: AdMediaInfo)? {
        guard let playing = current, let ad = playing.ad else { return nil }
        return (playing.breakIndex, ad.adIndex, ad.tick, ad.info)
    }

    /// Breaks whose start is held by picture-in-picture, in the order they will play.
    public var heldBreaks: [Int] { due.filter(\.deferred).map(\.breakIndex) }

    /// The next break the content will reach: the first armed mid-roll at or after the content position, else
    /// the post-roll.
    public var nextBreak: Int? {
        let position = recorder.contentTick
        return slots.indices.first { index in
            guard slots[index].status == .pending else { return false }
            switch slots[index].kind {
            case .midroll(let trigger): return trigger >= position
            case .postroll: return true
            case .preroll: return false
            }
        }
    }
}
