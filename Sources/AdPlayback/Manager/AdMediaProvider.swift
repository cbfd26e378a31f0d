import AdDecisioning
import MediaCore

/// Opens ad media for the session: the media layer in `pipctl`, a fake with chosen lengths in tests.
public protocol AdMediaProvider: AnyObject {
    /// Opens the ad's media for playback at the output rate, just before the ad starts.
    ///
    /// - Returns: its length, or the VAST error that keeps it from playing (401 file not found, 403 no supported
    ///   media, 405 cannot be decoded, …), with what opening it noted; the session logs the notes, in order, right
    ///   before the ad's `LOADED` or `AD_ERROR`.
    func prepareAd(breakIndex: Int, adIndex: Int, ad: LinearAd) -> PreparedAdMedia
}

/// What opening an ad's media gave: its length or its error, and what happened on the way.
public struct PreparedAdMedia: Sendable {
    public var outcome: Result<AdMediaInfo, AdError>
    public var notes: [MediaNote]

    public init(_ outcome: Result<AdMediaInfo, AdError>, notes: [MediaNote] = []) {
        self.outcome = outcome
        self.notes = notes
    }
}

/// Something the media layer noted while it opened a source: logged with an ad at the moment it opened, or (a
/// `log`) with the session for the content's and full-screen videos' loudness (`PlaybackSession.log(_:scene:)`).
public enum MediaNote: Hashable, Sendable {
    /// The session waited for the media's download (`AD_BUFFERING`): the wait took no output time.
    case buffered(url: String, waited: Duration)
    /// A `LOG` line about the ad's media: a cache entry dropped as untrustworthy (`mediaCacheEntryDropped`), its
    /// loudness (`loudnessShortSource`, `loudnessGainLarge`).
    case log(SessionEventReason, message: String)
}

/// The length of an opened ad.
public struct AdMediaInfo: Hashable, Sendable {
    /// How many output frames the ad covers (the media layer conforms it to the output rate).
    public var frameCount: Int64
    /// The media's real duration; quartiles, progress offsets and the skip offset are measured against it.
    public var duration: MediaDuration
    /// Set when the media's frames stop before the duration its container declares; it plays to its real end
    /// and a `LOG` (`endedEarly`) says so.
    public var earlyEnd: EarlyEnd?
    /// Set when the chosen rendition failed and a fallback rendition is what opened.
    public var fallback: Fallback?

    /// A fallback rendition that played, and why each rendition before it could not.
    public struct Fallback: Hashable, Sendable {
        public var rendition: MediaSelection.Rendition
        /// The failures of the renditions tried before, best first.
        public var failures: [AdError]

        public init(rendition: MediaSelection.Rendition, failures: [AdError]) {
            self.rendition = rendition
            self.failures = failures
        }
    }

    public init(frameCount: Int64, duration: MediaDuration, earlyEnd: EarlyEnd? = nil, fallback: Fallback? = nil) {
        self.frameCount = frameCount
        self.duration = duration
        self.earlyEnd = earlyEnd
        self.fallback = fallback
    }

    /// The usual case: `duration` shown at `rate`, one output frame for every frame that starts before its end.
    public init(duration: MediaDuration, rate: FrameRate) {
        self.init(frameCount: rate.frameCount(in: duration), duration: duration)
    }
}
