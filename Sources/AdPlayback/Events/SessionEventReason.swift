/// Why something happened or did not: the `reason` field of an event log line.
///
/// A closed set, so that the ads manager, the session and whoever reads the log compare cases rather than
/// spellings; the raw values are the JSON text, unchanged from the logs written before this type existed.
public enum SessionEventReason: String, Hashable, Sendable, CaseIterable, Codable {
    /// `AD_BREAK_DEFERRED`/`AD_BREAK_SKIPPED`: picture-in-picture was active when the cue was reached.
    case pipActive
    /// `AD_BREAK_SKIPPED`: the session ended while the break was still held.
    case sessionEnded
    /// `AD_BREAK_SKIPPED`: the break's cue lies at or before `--play-ads-after`.
    case playAdsAfterTime
    /// `AD_BREAK_SKIPPED`: pre-rolls, mid-rolls or post-rolls are switched off.
    case prerollsOff, midrollsOff, postrollsOff
    /// `LOG`: a break passed over by a seek.
    case seek
    /// `LOG`: a mid-roll cued before `--start-at`, which does not play (a seek back before its cue arms it again).
    case startPosition
    /// `LOG`: a stand-alone ad of a pod response took the place of an ad that could not play.
    case fallback
    /// `LOG`, after an ad's `LOADED`: a rendition of the ad could not be fetched or decoded and the next fallback
    /// rendition was tried (one line per failed rendition, then one naming the rendition that plays).
    case renditionFailed
    /// `LOG`: a command that could not apply now (the `message` says why).
    case refused
    /// `SESSION_ENDED`: the content and every break are done. `AD_BREAK_SKIPPED`: a mid-roll cued after the
    /// content's real end (a content cut short, or a cue past its length), which the content never reached.
    case contentEnded
    /// `LOG`: an input's frames stop before the duration its container declares (the file was cut short); the
    /// `message` names the file, where it ends and what it declares. For the content it comes where the content
    /// ends; for an ad, right after its `LOADED`.
    case endedEarly
    /// `SESSION_ENDED`: the `quit` command.
    case quit
    /// `SESSION_ENDED`: the output limit was reached.
    case outputLimit
    /// `SESSION_ENDED`: a batch session could not move on and its script has nothing left that would let it.
    case scriptEnded
    /// `bannerView:didFailToReceiveAdWithError`/`ad:didFailToLoadWithError`: test mode on a multi-scene app, and the
    /// request did not set its window scene.
    case sceneNotSet
    /// `LOG` (then a new request) or `ad:didFailToPresentFullScreenContentWithError`: the full-screen ad's content
    /// is larger than its scene's window as it is now.
    case adTooLargeForWindow
    /// A full-screen ad's scene is not on screen, so it can be neither filled for it nor presented there.
    case sceneNotOnScreen
    /// `ad:didFailToPresentFullScreenContentWithError`: no ad was loaded (the request failed or was used).
    case adNotLoaded
    /// `ad:didFailToPresentFullScreenContentWithError`: the video full-screen ad's media could not be opened or
    /// downloaded, so the content plays on.
    case mediaUnavailable
    /// `LOG`, before the ad's `LOADED` (or `AD_ERROR`): the media cache's entry for the ad's media could not be
    /// trusted (its file no longer matches its SHA-256, or it names a file outside the cache), so it was dropped
    /// and the media fetched again; the `message` says which.
    case mediaCacheEntryDropped
    /// `LOG` in a normalised render (`--loudness`), before the ad's `LOADED` (or at the start, for the content): a
    /// source under 3 s of sound is measured by its highest momentary loudness, its integrated loudness being barely
    /// gated; the `message` says which and the value.
    case loudnessShortSource
    /// `LOG` in a normalised render: a source's loudness gain is more than 10 dB either way; the `message` says the
    /// gain, the measured loudness and the target.
    case loudnessGainLarge
    /// `LOG` at the start: a tracking, click or resource URL of a document fetched over http(s) that is not http(s)
    /// (a `file:` impression…) was dropped, as `ads inspect` warns (docs/SECURITY.md); the `message` names the
    /// document and the URL.
    case originPolicy
}
