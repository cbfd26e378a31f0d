import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// Everything `pipctl render` (and `pipctl play --record`) needs: the content, the plan, the output and how the
/// session behaves. What changes together is grouped: the files written (`output`), the format asked for
/// (`format`), passthrough, and the device screen with what is drawn on it (`device`).
public struct RenderRequest: Sendable {
    public var content: Content
    public var plan: AdPlan
    public var output: Output
    public var format: Format
    public var encoding: EncodingSettings
    /// What is done to the sources' loudness (`--loudness`); `nil`: `LoudnessNormalisation.default(plan:)`, bringing
    /// ads to the content's loudness when there are any (a live session, `play`: off).
    public var loudness: LoudnessNormalisation?
    public var passthrough = Passthrough()
    public var ads: AdsRenderingSettings
    public var pictureInPicture: PictureInPictureSettings
    /// An image or a video drawn behind the picture-in-picture window (looped); a dark slate when `nil`.
    public var pictureInPictureBackground: String?
    public var script: SessionScript
    public var device = Device()
    /// The wall-clock time of output frame 0, for `[TIMESTAMP]`; a fixed date keeps event logs reproducible.
    public var clockOrigin: Date
    /// `.random` when beacons are really sent; `.seeded` keeps event logs reproducible.
    public var cacheBusting: CacheBusting = .seeded
    /// Where remote media files are downloaded and how (the default cache directory, 1 GiB, 30 s per file, 3 at
    /// once ahead of their breaks).
    public var mediaCache = MediaCacheSettings(directory: MediaCacheSettings.defaultDirectory())

    /// The primary player's content.
    public struct Content: Sendable {
        public var path: String
        /// Where it starts (`--start-at`).
        public var start: MediaTime
        /// Its probe, when the request was built from a session or content (`init(session:output:loading:)`): the
        /// stitcher uses it instead of probing again while it names `path`.
        var info: MediaInfo?
    }

    /// The files a render writes.
    public struct Output: Sendable {
        public var path: String
        /// False for a live session that is not recorded: everything is decoded and composited (so that media
        /// failures happen as they would), nothing is encoded, and the timeline and event log are written only
        /// where `timelinePath` and `eventsPath` say.
        public var writesMedia = true
        /// Defaults to `OUT.timeline.json` beside the output.
        public var timelinePath: String?
        /// Defaults to `OUT.events.jsonl` beside the output.
        public var eventsPath: String?
        public var frameHashPath: String?
        /// An HLS render (`--hls`): keyframes are forced where `HLSRender` will cut segments. `nil`: one MP4 whose
        /// encoding nothing forces.
        public var hls: HLSOutputSettings?
    }

    /// The output format asked for; each `nil` is the content's (`OutputFormat.resolve`).
    public struct Format: Sendable {
        /// Output canvas ("the screen"); the content's display size when `nil`.
        public var size: PixelSize?
        public var frameRate: FrameRate?
        /// Output audio; the content's when `nil` (48 kHz stereo if it has none).
        public var sampleRate: Int?
        public var channels: Int?
    }

    /// Whether the content's own H.264 packets are copied where it is shown whole (`render --passthrough`), and in
    /// passthrough whether sound is copied too where it can be.
    public struct Passthrough: Sendable {
        public var mode: PassthroughMode = .off
        public var sound: PassthroughSoundMode = .copy
    }

    /// The device screen and what is drawn on it; `screen` is `nil` for a player that fills the canvas.
    public struct Device: Sendable {
        /// The device and its scenes (`--device`): the canvas is `ScreenCanvas`'s and the player is drawn in the
        /// first scene's window.
        public var screen: ScreenState?
        /// The players of the screen's other scenes (a session file with several players), each with its own
        /// content and ad plan; the request's own content and plan are the primary player's, in the first scene.
        public var players: [ScenePlayer] = []
        /// The banners and full-screen ads loaded for the screen (`--banner`, `--test-mode`, a session file): their
        /// creatives are drawn and their events logged with the session's.
        public var screenAds: ScreenAdRun?
        /// The native placements (sliders, single native ads) loaded and evaluated for the screen: drawn over their
        /// scenes, their events logged with the session's.
        public var nativeAds: NativeAds?
        /// The native placements `play` loads as their `load slider` commands apply, in the background, instead of
        /// `nativeAds` (used only by a live session).
        public var liveNative: LiveNativePlacements?
        /// The font file native ads' text is drawn with; DejaVu Sans when `nil`.
        public var font: String?
    }

    /// A scene's player other than the primary one: what it plays (its plan decisioned for its scene's window).
    public struct ScenePlayer: Sendable {
        public var scene: SceneID
        public var contentPath: String
        public var plan: AdPlan

        public init(scene: SceneID, contentPath: String, plan: AdPlan) {
            self.scene = scene
            self.contentPath = contentPath
            self.plan = plan
        }
    }

    public init(contentPath: String, plan: AdPlan, outputPath: String, size: PixelSize? = nil,
                frameRate: FrameRate? = nil, sampleRate: Int? = nil, channels: Int? = nil,
                encoding: EncodingSettings = EncodingSettings(), timelinePath: String? = nil, eventsPath: String? = nil,
                frameHashPath: String? = nil, ads: AdsRenderingSettings = AdsRenderingSettings(),
                pictureInPicture: PictureInPictureSettings = PictureInPictureSettings(),
                pictureInPictureBackground: String? = nil, script: SessionScript = SessionScript(),
                contentStart: MediaTime = .zero, clockOrigin: Date = BeaconClock.defaultOrigin) {
        content = Content(path: contentPath, start: contentStart)
        self.plan = plan
        output = Output(path: outputPath, timelinePath: timelinePath, eventsPath: eventsPath, frameHashPath: frameHashPath)
        format = Format(size: size, frameRate: frameRate, sampleRate: sampleRate, channels: channels)
        self.encoding = encoding
        self.ads = ads
        self.pictureInPicture = pictureInPicture
        self.pictureInPictureBackground = pictureInPictureBackground
        self.script = script
        self.clockOrigin = clockOrigin
    }

    /// Where the timeline goes: `timelinePath`, or beside the output when media is written.
    public var resolvedTimelinePath: String? { output.timelinePath ?? (output.writesMedia ? output.path + ".timeline.json" : nil) }
    /// Where the event log goes: `eventsPath`, or beside the output when media is written.
    public var resolvedEventsPath: String? { output.eventsPath ?? (output.writesMedia ? output.path + ".events.jsonl" : nil) }

    /// The output's format for this content, by `OutputFormat.resolve`'s one rule: what the request sets, else
    /// the content's, else the standard format.
    ///
    /// On a device the size is the screen's canvas, whatever `format.size` says.
    public func outputFormat(content: MediaInfo, live: Bool = false) -> OutputFormat {
        OutputFormat.resolve(size: screenCanvas(live: live)?.size ?? format.size, frameRate: format.frameRate,
                             sampleRate: format.sampleRate, channels: format.channels, source: content)
    }

    /// The canvas of a render on a device: it covers both orientations when the script rotates or the session is
    /// live (see `ScreenCanvas`).
    public func screenCanvas(live: Bool = false) -> ScreenCanvas? {
        device.screen.map { ScreenCanvas(initial: $0, script: script, live: live) }
    }
}

/// Why a render could not be done (ads that fail never stop a render; they are in the event log).
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The content cannot be used.
    case content(MediaError)
    /// The picture-in-picture background cannot be used.
    case background(MediaError)
    /// The banner image (`--banner`) cannot be used.
    case banner(MediaError)
    /// Writing the output failed (disk full, directory missing, …), or a setting is impossible.
    case output(MediaError)
    /// The session could not start (content without frames, a start position outside the content).
    case session(String)
    /// Interrupted by a signal; nothing was left at the destination.
    case interrupted
    /// In passthrough: an ad's pictures, held back to be copied and then needed after all (its run was cut), cannot
    /// be decoded. Its sound is in the output by then, so it cannot be replaced as a failing ad is.
    case heldAd(MediaError)

    public var description: String {
        switch self {
        case .content(let e): "content: \(e)"
        case .background(let e): "picture-in-picture background: \(e)"
        case .banner(let e): "banner: \(e)"
        case .output(let e): "\(e)"
        case .session(let message): message
        case .interrupted: "interrupted; nothing was written"
        case .heldAd(let e): "an ad held back to be copied: \(e)"
        }
    }
}
