/// The `type` of each line of the event log: IMA's event names where IMA has one, and pipctl's own for what
/// IMA does not model (picture-in-picture messages, held breaks, commands).
///
/// The raw values are the JSON text of the log and never change.
public enum SessionEventType: String, Hashable, Sendable, CaseIterable {
    /// An ad's media was opened and is about to play (`breakIndex`, `adIndex`).
    case loaded = "LOADED"
    /// A break's cue was reached (or a seek chose it); it starts now or, while picture-in-picture is active, later.
    case adBreakReady = "AD_BREAK_READY"
    /// The manager asks the player to pause the content: a break is about to start.
    case contentPauseRequested = "CONTENT_PAUSE_REQUESTED"
    /// The first ad of a break starts; `cueTime` is set when the start was held by picture-in-picture.
    case adBreakStarted = "AD_BREAK_STARTED"
    /// An ad shows its first frame.
    case started = "STARTED"
    /// The impression URLs of an ad (its wrappers' included) were fired.
    case impression = "IMPRESSION"
    case firstQuartile = "FIRST_QUARTILE"
    case midpoint = "MIDPOINT"
    case thirdQuartile = "THIRD_QUARTILE"
    /// While an ad plays, once per whole second of ad time: at the first frame whose ad tick `t` has
    /// `t / F ≥ s` for `s` = 1 s, 2 s, … below the ad's real duration (on the output clock, so a paused ad sends
    /// none; the start and the end are `STARTED` and `COMPLETE`). `adTime` is `s`.
    case adProgress = "AD_PROGRESS"
    /// The user clicked the ad on screen (`click`): the `clickTracking` beacons follow; `url` is the ad's
    /// ClickThrough URL as written (never opened), absent when the ad has none.
    case click = "CLICK"
    /// The ad's last frame ended.
    case complete = "COMPLETE"
    /// The user skipped the ad.
    case skipped = "SKIPPED"
    /// An ad on screen was paused.
    case pause = "PAUSE"
    /// A paused ad plays again.
    case resume = "RESUME"
    case adBreakEnded = "AD_BREAK_ENDED"
    /// The manager asks the player to resume the content: a break is over.
    case contentResumeRequested = "CONTENT_RESUME_REQUESTED"
    /// Nothing is left to play: the content ended and every break was played or accounted for.
    case allAdsCompleted = "ALL_ADS_COMPLETED"
    /// An ad (or the plan) failed; `code` is the VAST error code.
    case adError = "AD_ERROR"
    /// `play` waited for an ad's media download before the ad could start (`url`, and the wait in `message`);
    /// written just before that ad's `LOADED` or `AD_ERROR`. Never in a batch render, whose log must not depend
    /// on the network's speed.
    case adBuffering = "AD_BUFFERING"
    /// Something worth knowing that changes nothing: a refused command (`reason` `refused`), a break passed over
    /// by a seek (`reason` `seek`) or behind the start position (`reason` `startPosition`), an input that ends
    /// before its declared duration (`reason` `endedEarly`).
    case log = "LOG"
    /// A tracking URL was fired: `event` is the VAST event name, `url` the URL with its macros expanded.
    case beacon = "BEACON"
    /// A break whose cue was reached while picture-in-picture is active waits (`reason` `pipActive`, `cueTime`).
    case adBreakDeferred = "AD_BREAK_DEFERRED"
    /// A break that will never start, with the `reason`: `pipActive`, `sessionEnded`, `playAdsAfterTime`,
    /// `prerollsOff`, `midrollsOff`, `postrollsOff`, `contentEnded` (`SessionEventReason`). Its ads are marked skipped in the plan.
    case adBreakSkipped = "AD_BREAK_SKIPPED"
    case pipWillStart = "PIP_WILL_START"
    case pipDidStart = "PIP_DID_START"
    /// `message` says why.
    case pipFailedToStart = "PIP_FAILED_TO_START"
    case pipWillStop = "PIP_WILL_STOP"
    case pipDidStop = "PIP_DID_STOP"
    case pipRestoreUserInterface = "PIP_RESTORE_USER_INTERFACE"
    /// A command was applied (or refused, then a `LOG` follows); `message` is the command as a script writes it.
    case command = "COMMAND"
    /// The last line of a session; `reason`: `contentEnded`, `quit`, `outputLimit`, `scriptEnded`.
    case sessionEnded = "SESSION_ENDED"

    // Anchored adaptive banners (`ScreenAdDriver`), with Google Mobile Ads' `GADBannerViewDelegate` names.
    /// A banner request was filled; `url` is the request as sent, `message` the creative and its size.
    case bannerViewDidReceiveAd = "bannerViewDidReceiveAd"
    /// A banner request failed (`reason` `sceneNotSet` for a request without its scene in test mode).
    case bannerViewDidFailToReceiveAd = "bannerView:didFailToReceiveAdWithError"
    /// A received banner was shown; its impression beacons follow.
    case bannerViewDidRecordImpression = "bannerViewDidRecordImpression"
    /// A `tap` landed on the banner; its click-tracking beacons follow, `url` is its click-through.
    case bannerViewDidRecordClick = "bannerViewDidRecordClick"
    /// The banner's landing screen covers its scene's window (the `overlay` layer).
    case bannerViewWillPresentScreen = "bannerViewWillPresentScreen"
    case bannerViewWillDismissScreen = "bannerViewWillDismissScreen"
    case bannerViewDidDismissScreen = "bannerViewDidDismissScreen"

    // Full-screen ads (`ScreenAdDriver`), with `GADFullScreenContentDelegate`'s names; the SDK reports the load
    // through a completion handler, which these two lines stand for.
    /// A full-screen ad was loaded for its scene (`message`: the kind, content size and creative).
    case adDidLoad = "adDidLoad"
    /// A full-screen ad request failed (`reason` `sceneNotSet`, or the fetch's message).
    case adDidFailToLoad = "ad:didFailToLoadWithError"
    case adWillPresentFullScreenContent = "adWillPresentFullScreenContent"
    /// Presenting failed: `reason` `adTooLargeForWindow`, `adNotLoaded`, `sceneNotOnScreen` or `mediaUnavailable`.
    case adDidFailToPresentFullScreenContent = "ad:didFailToPresentFullScreenContentWithError"
    case adDidRecordImpression = "adDidRecordImpression"
    case adDidRecordClick = "adDidRecordClick"
    case adWillDismissFullScreenContent = "adWillDismissFullScreenContent"
    case adDidDismissFullScreenContent = "adDidDismissFullScreenContent"
    /// A rewarded ad's video played to its end (`GADUserDidEarnRewardHandler`); it holds its last frame until
    /// the user closes it.
    case userDidEarnReward = "userDidEarnReward"

    // Native ads and sliders (`NativeScreenRun`, docs/NATIVE.md), with the slider guide's names; each carries its
    // `placement`, and a card's event its `card` index and `adId`.
    /// A load phase began (`phase`: idle, loading, loaded, failed).
    case onAdLoadPhase
    case onAdLoad
    /// A load failed (`failure`: httpError, timeout, invalidResponse, noFill; `message`).
    case onAdFailure
    /// A required asset of the block or of a card is not laid out (`message` names it).
    case onAdBindingFailure
    case onAdImpression
    /// A `tap` on a card; `url` is its link, recorded, never opened.
    case onAdClick
    /// A card left out because another placement showed the same ad first (`otherPlacement`).
    case onAdDuplicate
}
