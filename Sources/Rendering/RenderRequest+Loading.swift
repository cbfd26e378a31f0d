import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension RenderRequest {
    /// What the request builders (`init(sessionFile:output:loading:)`, `init(session:output:loading:)`,
    /// `init(content:ads:script:screen:output:loading:)`) take besides their inputs: how ads are fetched and
    /// requested, and the few settings of the render that what is loaded depends on. The defaults are the command
    /// line's.
    public struct Loading: Sendable {
        /// How ad documents, banners, full-screen ads and native responses are fetched: deadlines, wrappers, the
        /// origin policy. Its `urlMap` is used when neither `urlMapFile` nor the session names a URL map file; its
        /// media selection's window is each player's (see `window`).
        public var fetching = AdsLoaderSettings()
        /// A URL map file (`--url-map`), read once for every fetch; `nil`: the session's own `urlMap` file, if it
        /// names one.
        public var urlMapFile: String?
        /// The size of the player's view that ad requests report and media selection chooses for, for every
        /// player (`--window`); `nil`: each player's own window (its scene's on a device, else the output's size).
        public var window: PixelSize?
        /// The content's ad break opportunities, for VMAP `#n` offsets.
        public var cuePoints: [MediaTime] = []
        /// Whether an ads document that cannot be loaded fails the request (`RenderRequestError.ads`) instead of
        /// leaving its player with a plan that holds only that error (`Warning.adsNotLoaded`).
        public var strictAds = false
        /// The output canvas, as the request's `size`: without a device, the player's window is the output's size.
        public var size: PixelSize?
        /// The output frame rate, as the request's `frameRate`: native placements are evaluated on the output's frames.
        public var frameRate: FrameRate?
        /// Where the primary player's content starts; it must be inside the content. `nil`: at its beginning.
        public var contentStart: MediaTime?
        /// The wall-clock time of output frame 0, for `[TIMESTAMP]` (banners and full-screen ads are requested with
        /// it); a fixed date keeps event logs reproducible.
        public var clockOrigin = BeaconClock.defaultOrigin
        /// `.random` when beacons are really sent; `.seeded` keeps event logs reproducible.
        public var cacheBusting: CacheBusting = .seeded
        /// The font file native ads' text is measured and drawn with; DejaVu Sans when `nil`.
        public var font: String?
        /// `.batch` loads and evaluates the native placements before the render (`nativeAds`); `.live` (`play`)
        /// leaves them to be loaded as their commands apply (`liveNative`).
        public var mode: SessionConfiguration.Mode = .batch
        /// Told, one at a time and in order, of what the request goes on without.
        public var warn: @Sendable (Warning) -> Void = { _ in }

        public init() {}
    }

    /// Something a request was built without; the render goes on.
    public enum Warning: Hashable, Sendable, CustomStringConvertible {
        /// A player's ads document could not be loaded (unreachable, not XML, not VAST or VMAP): its plan has no
        /// breaks and holds only this error, so that its content plays and the event log carries the VAST code.
        case adsNotLoaded(DecisioningError)
        /// What the native loader's origin policy dropped, or an image or a video of a native ad that cannot be
        /// shown, in one line.
        case native(String)

        public var description: String {
            switch self {
            case .adsNotLoaded(let error): "ads: \(error); playing the content without these ads"
            case .native(let message): message
            }
        }
    }
}

/// Why a render request could not be built, naming the input at fault.
public enum RenderRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The session file cannot be read or used, or none of its scenes has a player.
    case sessionFile(SessionFileError)
    /// The session has no player: none of its scenes plays content.
    case noPlayer
    /// A player's content cannot be used (it cannot be opened, or has no video).
    case content(MediaError)
    /// The content start is not inside the content, which is `duration` long.
    case contentStart(MediaTime, content: String, duration: MediaDuration)
    /// The URL map file cannot be read or has a malformed line.
    case urlMap(DecisioningError)
    /// A player's ads document could not be loaded, with strict ads, or the load was cancelled.
    case ads(DecisioningError)
    /// Quick breaks that cannot be planned (a media file that does not exist).
    case breaks(DecisioningError)
    /// The session's script cannot be read.
    case script(ScriptError)
    /// The session's banners or full-screen ads cannot be requested.
    case screenAds(ScreenAdError)
    /// The font of the native ads' text cannot be opened.
    case font(FontError)
    /// The native placements cannot be evaluated (a native command naming no placement).
    case native(NativeError)

    public var description: String {
        switch self {
        case .sessionFile(let error): "\(error)"
        case .noPlayer: "the session has no player (no scene has content)"
        case .content(let error): RenderError.content(error).description
        case .contentStart(let start, let content, let duration):
            "content start: \(start) is not inside the content (\(content) is \(duration) long)"
        case .urlMap(let error), .breaks(let error): error.message
        case .ads(let error): "ads: \(error)"
        case .script(let error): "script: \(error)"
        case .screenAds(let error): "screen ads: \(error)"
        case .font(let error): "font: \(error)"
        case .native(let error): "\(error)"
        }
    }
}
