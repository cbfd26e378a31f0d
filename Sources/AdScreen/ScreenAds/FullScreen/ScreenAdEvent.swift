import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// One event of the banner and full-screen ads of a screen, on the output clock and with its scene: what the
/// render writes to the event log (a `SessionEvent` with the scene) once it knows the content time.
public struct ScreenAdEvent: Hashable, Sendable {
    public var time: MediaTime
    /// The scene the ad belongs to.
    public var scene: SceneID
    /// A delegate message (`.screenAd`), a beacon (impression or click tracking) or a `LOG`.
    public var kind: SessionEvent.Kind

    public init(time: MediaTime, scene: SceneID, _ kind: SessionEvent.Kind) {
        self.time = time
        self.scene = scene
        self.kind = kind
    }

    /// A delegate message with its details.
    public init(time: MediaTime, scene: SceneID, _ moment: SessionEvent.ScreenAdMoment, reason: SessionEventReason? = nil,
                message: String? = nil, url: String? = nil) {
        self.init(time: time, scene: scene, .screenAd(moment, SessionEvent.ScreenAdDetails(reason: reason, message: message, url: url)))
    }

    public var type: SessionEventType { kind.type }
    /// The columns of its line (at output frame 0), read from its kind.
    package var columns: SessionEventColumns { sessionEvent(frame: 0, contentTime: 0).columns }

    /// The event log line, on output frame `frame` (the first at or after its time) and at `contentTime` on the
    /// content clock, with its scene.
    public func sessionEvent(frame: Int64, contentTime: Double) -> SessionEvent {
        SessionEvent(kind, time: time.seconds.doubleValue, frame: frame, contentTime: contentTime, scene: scene)
    }
}

/// One ad request the driver makes: when, for which placement, at which size, with which URL.
public struct ScreenAdRequest: Hashable, Sendable {
    /// Which placement asks.
    public enum Placement: Hashable, Sendable {
        case banner(SceneID)
        case fullScreen(SceneID)
    }

    /// The request's place in the run, from 0: the key of its outcome.
    public let index: Int
    public let time: MediaTime
    public let placement: Placement
    /// The scene the request carries; `nil` when the placement does not set it (filled for the whole screen).
    public let scene: SceneID?
    /// The size requested, in points.
    public let size: PointSize
    public let source: CreativeSource
    /// The URL with `[WIDTH]`, `[HEIGHT]`, `[SCALE]` and `[SCENE]` expanded.
    public let url: String
    /// Why the request was made again: `adTooLargeForWindow`; `nil` for a first load or a banner's new width.
    public let reason: SessionEventReason?
}
