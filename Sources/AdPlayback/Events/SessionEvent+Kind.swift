import AdDecisioning

extension SessionEvent {
    /// What happened, with what that kind of event carries and nothing else: a `STARTED` of the ads manager has its
    /// ad, an `AD_BREAK_DEFERRED` its break and cue, a `BEACON` its tracking event and URL. The log's `type` and
    /// its other columns follow from the case (`SessionEvent+Columns`).
    public enum Kind: Hashable, Sendable {
        // The ads manager: the linear ads of the content's breaks, with IMA's names.
        /// `LOADED`, `STARTED`, `IMPRESSION`, the quartiles, `COMPLETE`, `SKIPPED`, `PAUSE`, `RESUME` of one ad.
        case ad(AdMoment, AdReference)
        /// `AD_PROGRESS`: the ad's clock passed `adTime` seconds.
        case adProgress(AdReference, adTime: Double)
        /// `CLICK`: the ad's ClickThrough URL as written, if it has one.
        case click(AdReference, clickThrough: String?)
        /// `AD_ERROR`: an ad, or the plan itself (`.session`), failed with a VAST error code.
        case adError(Subject, code: Int, message: String)
        /// `AD_BUFFERING`: `play` waited for the ad's media download at `url`; `message` says how long.
        case adBuffering(AdReference, url: String, message: String)
        /// `AD_BREAK_READY`, `CONTENT_PAUSE_REQUESTED`, `AD_BREAK_ENDED`, `CONTENT_RESUME_REQUESTED` of a break.
        case adBreak(BreakMoment, breakIndex: Int)
        /// `AD_BREAK_STARTED`; `cueTime` when picture-in-picture held the start.
        case adBreakStarted(breakIndex: Int, cueTime: Double?)
        /// `AD_BREAK_DEFERRED`: the break's cue, reached at `cueTime`, waits (`reason` `pipActive`).
        case adBreakDeferred(breakIndex: Int, reason: SessionEventReason, cueTime: Double)
        /// `AD_BREAK_SKIPPED`: a break that will never start; `cueTime` when its cue had been reached.
        case adBreakSkipped(breakIndex: Int, reason: SessionEventReason, cueTime: Double?)
        /// `ALL_ADS_COMPLETED`.
        case allAdsCompleted
        /// `PIP_…`: a message of the picture-in-picture controller's delegate.
        case pictureInPicture(PictureInPictureMessage)
        /// `COMMAND`: a command applied, as a script writes it.
        case command(String)
        /// `SESSION_ENDED`, the last line, with why.
        case sessionEnded(SessionEventReason)

        // Everyone's.
        /// `LOG`: something worth knowing that changes nothing, about the session, a break, an ad or a native card.
        case log(Subject, reason: SessionEventReason?, message: String)
        /// `BEACON`: a tracking URL fired, its macros expanded; `code` for an error beacon.
        case beacon(TrackingEventName, url: String, Subject, code: Int?)

        // The device screen.
        /// A `LOG` of what a screen command did to the screen (`PlayerScreen.apply`): a scene's new size, frame or
        /// activation, a banner to request again, a presentation, a tap and what it landed on.
        case screen(ScreenEventKind)
        /// A banner's or a full-screen ad's delegate message (its scene is the event's).
        case screenAd(ScreenAdMoment, ScreenAdDetails)
        /// A native placement's or card's event, with the slider guide's names.
        case native(NativeMoment, NativeSubject)
    }

    /// Whom an event concerns, where more than one kind of thing can be.
    public enum Subject: Hashable, Sendable {
        /// The session, the plan or the screen as a whole.
        case session
        case adBreak(Int)
        case ad(AdReference)
        case native(NativeSubject)
    }

    /// The ads manager's events of one ad that carry nothing but the ad.
    public enum AdMoment: String, Hashable, Sendable, CaseIterable {
        case loaded = "LOADED", started = "STARTED", impression = "IMPRESSION"
        case firstQuartile = "FIRST_QUARTILE", midpoint = "MIDPOINT", thirdQuartile = "THIRD_QUARTILE"
        case complete = "COMPLETE", skipped = "SKIPPED", pause = "PAUSE", resume = "RESUME"
    }

    /// The ads manager's events of one break that carry nothing but the break.
    public enum BreakMoment: String, Hashable, Sendable, CaseIterable {
        case ready = "AD_BREAK_READY", contentPauseRequested = "CONTENT_PAUSE_REQUESTED"
        case ended = "AD_BREAK_ENDED", contentResumeRequested = "CONTENT_RESUME_REQUESTED"
    }

    /// `AVPictureInPictureControllerDelegate`'s messages; a failed start says why.
    public enum PictureInPictureMessage: Hashable, Sendable {
        case willStart, didStart, failedToStart(String), willStop, didStop, restoreUserInterface
    }

    /// The delegate messages of banners (`GADBannerViewDelegate`) and full-screen ads
    /// (`GADFullScreenContentDelegate`), and the IMA names a full-screen video ad's playback reuses.
    public enum ScreenAdMoment: String, Hashable, Sendable, CaseIterable {
        case bannerViewDidReceiveAd, bannerViewDidRecordImpression, bannerViewDidRecordClick
        case bannerViewDidFailToReceiveAd = "bannerView:didFailToReceiveAdWithError"
        case bannerViewWillPresentScreen, bannerViewWillDismissScreen, bannerViewDidDismissScreen
        case adDidLoad, adDidRecordImpression, adDidRecordClick, userDidEarnReward
        case adDidFailToLoad = "ad:didFailToLoadWithError"
        case adWillPresentFullScreenContent, adWillDismissFullScreenContent, adDidDismissFullScreenContent
        case adDidFailToPresentFullScreenContent = "ad:didFailToPresentFullScreenContentWithError"
        case contentPauseRequested = "CONTENT_PAUSE_REQUESTED", started = "STARTED"
        case firstQuartile = "FIRST_QUARTILE", midpoint = "MIDPOINT", thirdQuartile = "THIRD_QUARTILE"
        case complete = "COMPLETE", contentResumeRequested = "CONTENT_RESUME_REQUESTED"
    }

    /// What a screen ad's delegate message tells beside its name: the error's reason, a description (the
    /// creative and its size, or the error), and the request as sent or the click-through.
    public struct ScreenAdDetails: Hashable, Sendable {
        public var reason: SessionEventReason?
        public var message: String?
        public var url: String?

        public init(reason: SessionEventReason? = nil, message: String? = nil, url: String? = nil) {
            self.reason = reason
            self.message = message
            self.url = url
        }
    }

    /// A native placement, and the card (its index in the response's `ads` and its ad id) when the event is a
    /// card's rather than the block's.
    public struct NativeSubject: Hashable, Sendable {
        public var placement: String
        public var card: Int?
        public var adID: String?

        public init(placement: String, card: Int? = nil, adID: String? = nil) {
            self.placement = placement
            self.card = card
            self.adID = adID
        }
    }

    /// The native events beside the shared `LOG` and `BEACON`.
    public enum NativeMoment: Hashable, Sendable {
        /// `onAdLoadPhase`.
        case loadPhase(NativeLoadPhase)
        /// `onAdLoad`.
        case loaded
        /// `onAdFailure`: why the load failed, and the error.
        case failed(NativeFailureKind?, message: String)
        /// `onAdBindingFailure`: which required asset is not laid out.
        case bindingFailure(message: String)
        /// `onAdImpression`.
        case impression
        /// `onAdClick`: the card's link, recorded, never opened.
        case click(link: String?)
        /// `onAdDuplicate`: left out because `otherPlacement` showed the same ad first.
        case duplicate(otherPlacement: String, message: String)
    }
}
