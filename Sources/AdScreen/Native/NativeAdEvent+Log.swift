import AdPlayback
import MediaCore

extension NativeAdEvent {
    /// The event log line: at output frame `frame` (the event's own, on the output clock) and `contentTime` on the
    /// content clock, with its scene and placement.
    ///
    /// A refused command is a `LOG` with reason `refused`, as a refused player command is; a card's video that
    /// cannot play a `LOG` with reason `mediaUnavailable`; a fired tracker is a `BEACON` (`event` impression,
    /// clickTracking, or a video's start, quartiles and complete), which `--send-beacons` sends.
    public func sessionEvent(frame: Int64, contentTime: Double) -> SessionEvent {
        SessionEvent(sessionKind, time: time.seconds.doubleValue, frame: frame, contentTime: contentTime, scene: scene)
    }

    /// The log's type of the event (a refusal and a failed card video are `LOG`s).
    public var type: SessionEventType { sessionKind.type }
    /// The columns of its line (at output frame 0), read from its kind.
    package var columns: SessionEventColumns { sessionEvent(frame: 0, contentTime: 0).columns }

    /// What the event is, with what the log line of that kind carries.
    var sessionKind: SessionEvent.Kind {
        let subject = SessionEvent.NativeSubject(placement: placement, card: card, adID: ad)
        return switch kind {
        case .moment(let moment): .native(moment, subject)
        case .refused(let why): .log(.native(subject), reason: .refused, message: why)
        case .videoFailed(let why): .log(.native(subject), reason: .mediaUnavailable, message: why)
        case .beacon(let name, let url): .beacon(name, url: url, .native(subject), code: nil)
        }
    }
}
