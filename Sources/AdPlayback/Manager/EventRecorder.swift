import AdDecisioning
import MediaCore

/// The session's notion of "now" and its event log: every event is stamped here with the output frame and the
/// content position, and every beacon URL is expanded here, so that the session and the ads manager write one
/// consistent, reproducible log.
final class EventRecorder {
    let rate: FrameRate
    /// The output frame being decided.
    var frame: Int64 = 0
    /// The content tick to show next (during a break: where the content resumes).
    var contentTick: Int64
    /// The screen, for `[PLAYERSIZE]`.
    let playerSize: PixelSize?
    /// The scene the player is in, on a device; stamped on every event.
    var scene: SceneID?
    private var stamps: BeaconStamps
    private var pending: [SessionEvent] = []

    init(rate: FrameRate, contentTick: Int64, stamps: BeaconStamps, playerSize: PixelSize? = nil) {
        self.rate = rate
        self.contentTick = contentTick
        self.stamps = stamps
        self.playerSize = playerSize
    }

    var outputTime: MediaTime { rate.time(ofFrame: frame) }
    var contentTime: MediaTime { rate.time(ofFrame: contentTick) }

    /// Records `kind` now: this frame, this content position, this scene (or `scene`, for an event about another).
    func emit(_ kind: SessionEvent.Kind, scene: SceneID?? = nil) {
        pending.append(SessionEvent(kind, time: outputTime.seconds.doubleValue, frame: frame,
                                    contentTime: contentTime.seconds.doubleValue, scene: scene ?? self.scene))
    }

    /// Seconds on the output clock of output frame `frame` (a cue's time).
    func seconds(ofFrame frame: Int64) -> Double { rate.time(ofFrame: frame).seconds.doubleValue }

    func log(_ message: String, about subject: SessionEvent.Subject = .session, reason: SessionEventReason? = nil) {
        emit(.log(subject, reason: reason, message: message))
    }

    /// Fires each URL template as a `BEACON` line, macros expanded with `macros` plus this moment's content
    /// playhead, the player size, timestamp and a fresh cache buster.
    func fire(_ event: TrackingEventName, urls: [String], macros: MacroContext, about subject: SessionEvent.Subject) {
        for template in urls {
            var context = macros
            context.contentPlayhead = context.contentPlayhead ?? contentTime
            context.mediaPlayhead = context.mediaPlayhead ?? context.adPlayhead ?? context.contentPlayhead
            context.playerSize = context.playerSize ?? playerSize
            context.timestamp = stamps.timestamp(at: outputTime)
            context.cacheBuster = stamps.nextCacheBuster()
            emit(.beacon(event, url: MacroExpander.expand(template, with: context), subject,
                         code: macros.errorCode?.rawValue))
        }
    }

    /// The events recorded since the last call, in order.
    func drain() -> [SessionEvent] {
        defer { pending.removeAll() }
        return pending
    }
}
