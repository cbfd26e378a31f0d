import AdPlayback
import AdScreen
import MediaCore
import Rendering

/// The inputs and behaviour of a playback session with ads and picture-in-picture, shared by `render` and `play`.
struct SessionOptions: Hashable, Sendable {
    /// Where the ads come from.
    enum Ads: Hashable, Sendable {
        /// A VMAP or VAST document, from a file or a URL.
        case document(InputLocation)
        /// Breaks given with `--break`, in command-line order.
        case breaks([BreakArgument])
    }

    /// The content video; nil for the bundled demo content.
    var content: String?
    /// Nil when neither `--ads` nor `--break` is given.
    var ads: Ads?
    var script: ScriptSource?
    /// `--session FILE`: the device, scenes, player, placements and script from a session file.
    var sessionFile: String?
    /// Where the content starts; nil for its beginning.
    var startAt: MediaTime?
    var sendsBeacons: Bool
    /// `--font FILE`: the font of native ads' text; nil for the default (DejaVu Sans).
    var font: String?
    var adRequest: AdRequest
    var adBreaks: AdBreaks
    var pictureInPicture: PictureInPicture
    var remoteMedia: RemoteMedia
    var shortcuts: ScreenShortcuts

    /// How ads are requested (`adRequestParameters`): what the request reports, how URLs resolve, how responses
    /// are loaded and whether a document that cannot be loaded fails the command.
    struct AdRequest: Hashable, Sendable {
        /// The player's view, as the ad request reports it; nil for the output size.
        var window: PixelSize?
        var urlMap: String?
        /// The content's cue points, for VMAP `#n` offsets.
        var cuePoints: [MediaTime]
        /// How ad responses are loaded: wrapper limits and deadlines.
        var decisioning: DecisioningOptions
        /// Fail the command when the `--ads` document cannot be loaded, instead of playing the content without ads.
        var strictAds: Bool

        init(_ arguments: ParsedArguments) {
            window = arguments[SessionOptions.window]
            urlMap = arguments[SessionOptions.urlMap]
            cuePoints = arguments[SessionOptions.cuePoints] ?? []
            decisioning = DecisioningOptions(arguments)
            strictAds = arguments[SessionOptions.strictAds]
        }
    }

    /// Which of the plan's ad breaks play (`settings`): the kinds played, those cued too early left out, and the
    /// ones a seek jumps over.
    struct AdBreaks: Hashable, Sendable {
        var seekPolicy: SeekPolicy
        /// Breaks cued at or before this content time do not play.
        var playAdsAfter: MediaTime?
        var playsPreroll: Bool
        var playsMidrolls: Bool
        var playsPostroll: Bool

        init(_ arguments: ParsedArguments) {
            seekPolicy = arguments[SessionOptions.seekPolicy]
            playAdsAfter = arguments[SessionOptions.playAdsAfter]
            playsPreroll = !arguments[SessionOptions.noPreroll]
            playsMidrolls = !arguments[SessionOptions.noMidroll]
            playsPostroll = !arguments[SessionOptions.noPostroll]
        }
    }

    /// The picture-in-picture window (`settings`): its place, size and moves, what happens to breaks while it is
    /// active, and what is drawn around it.
    struct PictureInPicture: Hashable, Sendable {
        var adPolicy: PictureInPictureAdPolicy
        /// The window's width as a fraction of the output width.
        var size: Rational
        var corner: PictureInPictureCorner
        var margin: Int
        var background: String?
        /// Frames the move into and out of the window takes.
        var transition: Int
        var backgroundPlaybackEnabled: Bool

        init(_ arguments: ParsedArguments) {
            adPolicy = arguments[SessionOptions.pipAdPolicy]
            size = arguments[SessionOptions.pipSize]
            corner = arguments[SessionOptions.pipCorner]
            margin = arguments[SessionOptions.pipMargin]
            background = arguments[SessionOptions.pipBackground]
            transition = arguments[SessionOptions.pipTransition]
            backgroundPlaybackEnabled = !arguments[SessionOptions.noBackgroundPlayback]
        }
    }

    /// How remote ad media is downloaded and kept (`mediaParameters`, `settings`): the cache and the limits of one
    /// download.
    struct RemoteMedia: Hashable, Sendable {
        /// Nil for the default cache directory.
        var cache: String?
        /// `--media-cache-shared`: use a cache directory that other users can write to.
        var cacheShared: Bool
        var timeout: MediaDuration
        var maximumBytes: Int

        init(_ arguments: ParsedArguments) {
            cache = arguments[SessionOptions.mediaCache]
            cacheShared = arguments[SessionOptions.mediaCacheShared]
            timeout = arguments[SessionOptions.mediaTimeout]
            maximumBytes = arguments[SessionOptions.maxMediaBytes]
        }
    }

    /// The one-scene screen given on the command line instead of a session file: the device and how it is held,
    /// the scene's banner and test mode (`ScreenSession.oneScene`).
    struct ScreenShortcuts: Hashable, Sendable {
        /// The device the player runs on; nil for a player that fills the output (as before devices).
        var device: Device?
        /// Nil for the device's natural orientation.
        var orientation: Orientation?
        /// Nil for `PointScale.default(for:)`.
        var pointScale: PointScale?
        /// The anchored adaptive banner of the player's scene: an image or a VAST document, a path or a URL.
        var banner: String?
        /// How the banner shares the scene's window; nil for `below` (the guides' layout).
        var bannerLayout: BannerLayout?
        /// `--test-mode`: requests behave as with Google Mobile Ads test ads (a multi-scene app's request must set
        /// its scene).
        var testMode: Bool

        init(_ arguments: ParsedArguments) {
            device = arguments[SessionOptions.device]
            orientation = arguments[SessionOptions.orientation]
            pointScale = arguments[SessionOptions.pointScale]
            banner = arguments[SessionOptions.banner]
            bannerLayout = arguments[SessionOptions.bannerLayout]
            testMode = arguments[SessionOptions.testMode]
        }
    }

    /// True when no content and no ads were given: the session is the bundled demo.
    var usesDemo: Bool { content == nil && ads == nil && sessionFile == nil }

    static let content = Parameter.optional(
        "content", .text("FILE"), absent: "the bundled demo content",
        help: "The content video (MP4).")
    static let ads = Parameter.optional(
        "ads", .location("VMAP|VAST|URL"), absent: "the demo schedule when --content is not given, no ads otherwise",
        help: "The ad schedule: a VMAP or VAST document, as a file or an http(s) URL. A VAST document plays as a "
            + "pre-roll.")
    static let breaks = Parameter.repeating(
        "break", .adBreak, absent: "none",
        help: "A quick ad break without VAST: TIME is pre, post, a content time (seconds or hh:mm:ss.mmm; 0 is "
            + "the pre-roll) or n% of the content, then the ad videos to play there, in order.")
    static let window = Parameter.optional(
        "window", .size, absent: "the output size",
        help: "The size of the player's view, reported to the ad server and used to choose among an ad's media "
            + "files.")
    static let urlMap = Parameter.optional(
        "url-map", .text("FILE"), absent: "fetch URLs over HTTP(S)",
        help: "Resolve URLs offline: a file of 'URL-PREFIX<TAB>LOCAL-PATH-PREFIX' lines that maps ad tag, wrapper "
            + "and media URLs to local files (relative paths are relative to the map file).")
    static let script = Parameter.optional(
        "script", .script, absent: "none",
        help: "Timed user actions that drive the session (start or stop picture-in-picture, seek, pause, "
            + "resume), given inline or read from @FILE.")
    static let pipAdPolicy = Parameter.option(
        "pip-ad-policy", .choice(PictureInPictureAdPolicy.self), default: .defer,
        help: "What happens to an ad break whose cue is reached while picture-in-picture is active: defer plays "
            + "it when picture-in-picture stops; skip drops it; play plays it at its cue inside the picture-in-picture window.")
    static let pipSize = Parameter.option(
        "pip-size", .number("FRACTION", above: .zero, atMost: .one, examples: "0.25, 1/3"),
        default: Rational(1, 3),
        help: "Width of the picture-in-picture window as a fraction of the player's width: the output's, or with "
            + "--device or a session file the player's window in its scene; the height follows the picture's shape.")
    static let pipCorner = Parameter.option(
        "pip-corner", .choice(PictureInPictureCorner.self), default: .bottomRight,
        help: "The corner where the picture-in-picture window sits: the output's, or on a device the player's "
            + "window's, inside its safe area and above its banner.")
    static let pipMargin = Parameter.option(
        "pip-margin", .integer("PX", in: 0...4096), default: 16,
        help: "Gap in pixels between the picture-in-picture window and the edges of the output, or on a device "
            + "of the player's window's safe area.")
    static let pipTransition = Parameter.option(
        "pip-transition", .integer("FRAMES", in: 0...600), default: 0,
        help: "How many output frames the move into and out of the picture-in-picture window takes (the window "
            + "moves and scales linearly); 0 switches at once.")
    static let pipBackground = Parameter.optional(
        "pip-background", .text("FILE"), absent: "plain dark grey",
        help: "An image or video shown around the picture-in-picture window, standing for the screen the user "
            + "went to.")
    static let noBackgroundPlayback = Parameter.flag(
        "no-background-playback",
        help: "Act as an app without background playback: every request to start picture-in-picture fails, as "
            + "it does on a device.")
    static let seekPolicy = Parameter.option(
        "seek-policy", .choice(SeekPolicy.self), default: .last,
        help: "Which ad breaks play when a seek jumps over several: the last one before the target (as IMA "
            + "does), all of them, or none.")
    static let playAdsAfter = Parameter.optional(
        "play-ads-after", .time.named("SEC"), absent: "none",
        help: "Skip ad breaks cued at or before this content time, the pre-roll included (cued at 0), as IMA's "
            + "playAdsAfterTime does; with --start-at T, '--play-ads-after T' plays only the breaks after T.")
    static let startAt = Parameter.optional(
        "start-at", .time, absent: "the beginning of the content",
        help: "Start the content at this time, as a viewer resuming part-way. The pre-roll still plays first (as "
            + "IMA plays it) unless --no-preroll or --play-ads-after says otherwise; mid-rolls cued before T do "
            + "not play (the seek policy is for seeks), one cued at T plays before the first content frame. T must "
            + "be inside the content.")
    static let cuePoints = Parameter.optional(
        "cue-points", .cuePoints, absent: "none (VMAP #n breaks are left out)",
        help: "The content's ad break opportunities, as increasing content times: a VMAP timeOffset '#2' places "
            + "its break at the second one.")
    static let noPreroll = Parameter.flag("no-preroll", help: "Do not play the pre-roll break.")
    static let noMidroll = Parameter.flag("no-midroll", help: "Do not play mid-roll breaks.")
    static let noPostroll = Parameter.flag("no-postroll", help: "Do not play the post-roll break.")
    static let strictAds = Parameter.flag(
        "strict-ads",
        help: "Fail (exit 1) when the --ads document cannot be fetched or read. Without it the content plays "
            + "without those ads: the error goes to the event log with its VAST code and a warning is printed.")
    static let sendBeacons = Parameter.flag(
        "send-beacons",
        help: "Really send tracking beacons (impressions, quartiles, errors) with HTTP GET; without it they are "
            + "only written to the event log.")

    static let mediaCache = Parameter.optional(
        "media-cache", .text("DIR"), absent: "$XDG_CACHE_HOME/pipctl/media, else ~/.cache/pipctl/media",
        help: "Where http(s) ad media files are downloaded and kept between runs. Each break's media starts "
            + "downloading right after the ads are loaded, three files at a time, while the content plays. A "
            + "file is reused without a request while it is fresh (as its Cache-Control max-age says, else for 24 "
            + "hours), then revalidated with its ETag or Last-Modified date. Runs may share the directory at the "
            + "same time. Files found through --url-map never go through it. pipctl makes it private (mode 0700) "
            + "and refuses one that other users can write to (see --media-cache-shared); a cached file is played "
            + "only while it still matches its SHA-256, else it is fetched again.")
    static let mediaCacheShared = Parameter.flag(
        "media-cache-shared",
        help: "Use a --media-cache directory that other users can write to (or that belongs to another user); "
            + "without it such a directory is refused. The risk: anyone who can write there can change which ads "
            + "play (a cached file changed in place no longer matches its SHA-256 and is fetched again, but a forged "
            + "entry naming other cached bytes is not caught) and can fill the disk.")
    static let mediaTimeout = Parameter.option(
        "media-timeout", .seconds(), default: MediaDuration(seconds: 30),
        help: "How long one ad media file may take to download, all attempts together (a transfer that breaks "
            + "off is resumed up to twice). An ad whose media is not there in time fails with VAST error 402 and "
            + "the rest plays.")
    static let maxMediaBytes = Parameter.option(
        "max-media-bytes", .integer("BYTES", in: 1...Int.max), default: 1 << 30,
        help: "The largest ad media file that is downloaded; a larger one is stopped as soon as it passes the "
            + "limit and its ad fails with VAST error 401.")

    static let device = Parameter.optional(
        "device", .device, absent: "none: the player fills the output",
        help: "Play on a device: iphone-15, ipad-11, foldable, or WxH[@scale] in points (as in 390x844@3). The "
            + "output is the device's display in pixels (see --point-scale) and the player fills one full-screen "
            + "scene, \"main\"; screen commands (rotate, fold, unfold, tap, …) in --script then apply.")
    static let orientation = Parameter.optional(
        "orientation", .choice(Orientation.self), absent: "portrait (landscape for a custom WxH wider than tall)",
        help: "How the --device is held at the start.")
    static let pointScale = Parameter.optional(
        "point-scale", .pointScale, absent: "the largest multiple of 1/4 (at most the device's own scale) that keeps "
            + "the long side at most 1280 px",
        help: "Output pixels per point of the --device (a script's tap X,Y is in the device's points whatever the scale).")
    static let banner = Parameter.optional(
        "banner", .text("SOURCE"), absent: "none",
        help: "With --device: an anchored adaptive banner in the scene: as wide as its safe area, max(50, min(90, "
            + "15% of the screen height)) points high, on the bottom of the safe area, below the content "
            + "(--banner-layout). SOURCE "
            + "is an image (PNG, JPEG, GIF) or a VAST document (a name ending in .xml or .vast, or 'vast:' before "
            + "it) whose NonLinear or Companion StaticResource is an image, as a path or an http(s) URL; a URL may "
            + "carry [WIDTH] and [HEIGHT] (points), [SCALE] and [SCENE]. It is requested when the render starts "
            + "and again whenever the banner's width changes; the image is stretched to the banner's rectangle.")
    static let bannerLayout = Parameter.optional(
        "banner-layout", .choice(BannerLayout.self), absent: "below",
        help: "With --banner: below ends the player's window where the banner begins, so the banner covers none of "
            + "the content (the AdMob and Yandex guides' layout); overlay draws the banner over the bottom of a "
            + "window that keeps the whole scene.")
    static let testMode = Parameter.flag(
        "test-mode",
        help: "Request ads as an app in test mode: in an app with several scenes, a request that does not set its "
            + "window scene fails (reason sceneNotSet) instead of filling for the whole screen.")

    static let session = Parameter.optional(
        "session", .text("FILE"), absent: "none",
        help: "A session file (JSON, see docs/SESSION.md): the device, its scenes and their layout, each scene's "
            + "player (content and ads) and placements (banner, interstitial), test mode and a script. It takes "
            + "the place of --content, --ads, --break and the other screen options; --script, given with it, "
            + "replaces the file's script (as when replaying 'pipctl play --command-log').")

    static let font = Parameter.optional(
        "font", .text("FILE"), absent: "DejaVu Sans (fonts-dejavu-core)",
        help: "The font (a TrueType or OpenType file) native ads' text is measured and drawn with.")

    /// Where the session runs: the device and its banner.
    static let screenParameters: [any ParameterDeclaration] = [session, device, orientation, pointScale, banner, bannerLayout, testMode, font]
    /// What the session plays, listed first in help.
    static let inputParameters: [any ParameterDeclaration] = [content, ads, breaks]
    /// How ads are requested.
    static let adRequestParameters: [any ParameterDeclaration] = [window, urlMap, cuePoints] + DecisioningOptions.parameters + [strictAds]
    /// What the viewer does and how the player reacts.
    static let behaviourParameters: [any ParameterDeclaration] = [
        script, pipAdPolicy, pipSize, pipCorner, pipMargin, pipTransition, pipBackground, noBackgroundPlayback, seekPolicy,
        playAdsAfter, startAt, noPreroll, noMidroll, noPostroll, sendBeacons,
    ]
    /// How remote ad media is fetched.
    static let mediaParameters: [any ParameterDeclaration] = [mediaCache, mediaCacheShared, mediaTimeout, maxMediaBytes]
    /// `--ads` and `--break` are two ways of saying the same thing.
    static let exclusive: [[any ParameterDeclaration]] = [[ads, breaks]]

    init(_ arguments: ParsedArguments) {
        content = arguments[Self.content]
        let breaks = arguments[Self.breaks]
        ads = arguments[Self.ads].map(Ads.document) ?? (breaks.isEmpty ? nil : .breaks(breaks))
        script = arguments[Self.script]
        sessionFile = arguments[Self.session]
        startAt = arguments[Self.startAt]
        sendsBeacons = arguments[Self.sendBeacons]
        font = arguments[Self.font]
        adRequest = AdRequest(arguments)
        adBreaks = AdBreaks(arguments)
        pictureInPicture = PictureInPicture(arguments)
        remoteMedia = RemoteMedia(arguments)
        shortcuts = ScreenShortcuts(arguments)
    }
}
