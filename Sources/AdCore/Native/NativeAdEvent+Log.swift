import MediaCore

extension NativeAdEvent {
    /// The event log line: at output frame `frame` (the event's own, on the output clock) and `contentTime` on the
    /// content clock, with its scene and placement.
    ///
    /// A refused command is a `LOG` with reason `refused`, as a refused player command is; a card's video that
    /// cannot play a `LOG` with reason `mediaUnavailable`; a fired tracker is a `BEACON` (`event` impression,
    /// clickTracking, or a video's start, quartiles and complete), which `--send-beacons` sends.
    public func sessionEvent(frame: Int64, contentTime: Double) -> SessionEvent {
        let type: SessionEventType = switch kind {
        case .phase: .onAdLoadPhase
        case .onAdLoad: .onAdLoad
        case .onAdFailure: .onAdFailure
        case .onAdBindingFailure: .onAdBindingFailure
        case .onAdImpression: .onAdImpression
        case .onAdClick: .onAdClick
        case .duplicate: .onAdDuplicate
        case .refused, .videoFailed: .log
        case .beacon: .beacon
        }
        var event = SessionEvent(type: type, time: time.seconds.doubleValue, frame: frame, contentTime: contentTime, url: url,
                                 event: beacon, reason: kind == .refused ? .refused : kind == .videoFailed ? .mediaUnavailable : nil, message: message, scene: scene)
        event.placement = placement
        event.card = card
        event.adID = ad
        event.phase = phase
        event.failure = failure
        event.otherPlacement = otherPlacement
        return event
    }
}
