import Foundation
import MediaCore

/// Everything a `PlaybackSession` needs besides the plan and the media: the output clock and screen, the content,
/// the ad and picture-in-picture settings, the script, and the values that make beacons reproducible.
public struct SessionConfiguration: Hashable, Sendable {
    /// How the session ends when it can no longer move on by itself.
    public enum Mode: String, Hashable, Sendable {
        /// `pipctl render`: commands come from the script only. When the session is paused and no `resume` is
        /// left in the script, or waits at the content's end for picture-in-picture to stop before a held post-roll
        /// and no `pip`/`pip off` is left, it ends there (`SESSION_ENDED` reason `scriptEnded`; a held break is
        /// reported `AD_BREAK_SKIPPED` reason `sessionEnded`).
        case batch
        /// `pipctl play`: commands also arrive through `submit(_:)`, so a paused or waiting session waits.
        case live
    }

    /// The output rate; content and ads are seen at it (content tick `k` is content time `k/F`).
    public var frameRate: FrameRate
    /// The output canvas; on a device, `ScreenCanvas`'s size.
    public var canvas: PixelSize
    public var content: Content
    /// The player's place on the device's screen.
    public var device = Device()
    public var ads: AdsRenderingSettings
    public var pictureInPicture: PictureInPictureSettings
    public var script: SessionScript
    public var mode: Mode
    /// The session ends at the first output frame at or after this output time, whatever plays.
    public var outputLimit: MediaTime?
    public var beacons: Beacons

    /// What a session knows of its content: its frames, display aspect, early end and where it starts.
    public struct Content: Hashable, Sendable {
        /// Content ticks `0..<frameCount` exist.
        public var frameCount: Int64
        /// The content's display aspect (width / height): the shape of the picture-in-picture window.
        public var aspect: Rational
        /// Set when the content's frames stop before the duration its container declares (`frameCount` counts the
        /// frames it really has); reported as a `LOG` (`endedEarly`) where the content ends.
        public var earlyEnd: EarlyEnd?
        /// Where the content starts; reached at the first tick at or after it.
        public var start: MediaTime

        public init(frameCount: Int64, aspect: Rational, earlyEnd: EarlyEnd? = nil, start: MediaTime = .zero) {
            self.frameCount = frameCount
            self.aspect = aspect
            self.earlyEnd = earlyEnd
            self.start = start
        }
    }

    /// The player's place on the device's screen (the screen itself is the session's `PlayerScreen`).
    public struct Device: Hashable, Sendable {
        /// The scene this session's player plays in on a device; `nil` for the screen's first scene.
        public var playerScene: SceneID?
        /// Every scene with a player, the primary first, when the screen has more than one player: a player command
        /// without a scene goes to the player of the `foregroundActive` scene, else to the first; empty for one player
        /// (every command is this session's).
        public var playerScenes: [SceneID] = []
        /// Whether this session logs the screen's commands and changes: the primary player's does, the others apply
        /// them silently, so that the event log has each once.
        public var logsScreen = true
    }

    /// What makes beacons reproducible: the clock their `[TIMESTAMP]` starts from and where `[CACHEBUSTING]` values
    /// come from.
    public struct Beacons: Hashable, Sendable {
        /// `[TIMESTAMP]` is this date plus the output time.
        public var clockOrigin: Date
        /// Seeds the `[CACHEBUSTING]` generator.
        public var seed: UInt64
        public var cacheBusting: CacheBusting
    }

    public init(frameRate: FrameRate, canvas: PixelSize, contentFrameCount: Int64, contentAspect: Rational,
                contentStart: MediaTime = .zero, ads: AdsRenderingSettings = AdsRenderingSettings(),
                pictureInPicture: PictureInPictureSettings = PictureInPictureSettings(),
                script: SessionScript = SessionScript(), mode: Mode = .batch, outputLimit: MediaTime? = nil,
                clockOrigin: Date = BeaconClock.defaultOrigin, seed: UInt64 = 0,
                cacheBusting: CacheBusting = .seeded, contentEarlyEnd: EarlyEnd? = nil) {
        self.frameRate = frameRate
        self.canvas = canvas
        content = Content(frameCount: contentFrameCount, aspect: contentAspect, earlyEnd: contentEarlyEnd, start: contentStart)
        self.ads = ads
        self.pictureInPicture = pictureInPicture
        self.script = script
        self.mode = mode
        self.outputLimit = outputLimit
        beacons = Beacons(clockOrigin: clockOrigin, seed: seed, cacheBusting: cacheBusting)
    }

    /// The content's length on its own clock.
    public var contentDuration: MediaDuration { frameRate.time(ofFrame: content.frameCount) - .zero }
}
