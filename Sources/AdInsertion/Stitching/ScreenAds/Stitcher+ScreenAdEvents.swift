import MediaCore

extension Stitcher {
    /// `events` with the screen ad events due by the last frame written placed among them by time (after the
    /// session's own events of the same moment, such as the screen command that caused a reload).
    ///
    /// The driver's events are known before the render; they are logged as the output reaches their time, so the
    /// log stays in time order and each carries the content time of that moment.
    func mergingScreenAdEvents(_ events: [SessionEvent]) -> [SessionEvent] {
        guard !pendingScreenEvents.isEmpty, frameCount > 0 else { return events }
        let now = format.frameRate.time(ofFrame: frameCount - 1)
        let contentTime = session.status.contentPosition.seconds.doubleValue
        var merged: [SessionEvent] = []
        func takeDue(before limit: Double?) {
            while let next = pendingScreenEvents.first, next.time <= now,
                  limit.map({ next.time.seconds.doubleValue < $0 }) ?? true {
                merged.append(next.sessionEvent(contentTime: contentTime))
                pendingScreenEvents.removeFirst()
            }
        }
        for event in events {
            takeDue(before: event.time)
            merged.append(event)
        }
        takeDue(before: nil)
        return merged
    }
}
