import AdCore
import MediaCore

extension Stitcher {
    /// `events` with the screen ad and native ad events due by the last frame written placed among them by time (after the
    /// session's own events of the same moment, such as the screen command that caused a reload).
    ///
    /// The driver's events are known before the render; they are logged as the output reaches their time, so the
    /// log stays in time order and each carries the content time of that moment.
    func mergingScreenAdEvents(_ events: [SessionEvent]) -> [SessionEvent] {
        guard !screenAds.pending.isEmpty || !nativeAds.pending.isEmpty, frameCount > 0 else { return events }
        let now = format.frameRate.time(ofFrame: frameCount - 1)
        let contentTime = session.status.contentPosition.seconds.doubleValue
        var merged: [SessionEvent] = []
        // The next due event of the two queues, the screen's first at the same moment.
        func next() -> (time: MediaTime, take: () -> SessionEvent)? {
            let screen = screenAds.pending.first.flatMap { $0.time <= now ? $0 : nil }
            let native = nativeAds.pending.first.flatMap { $0.time <= now ? $0 : nil }
            if let screen, native.map({ screen.time <= $0.time }) ?? true {
                let frame = format.frameRate.firstFrame(atOrAfter: screen.time)
                return (screen.time, { self.screenAds.pending.removeFirst().sessionEvent(frame: frame, contentTime: contentTime) })
            }
            guard let native else { return nil }
            let frame = format.frameRate.firstFrame(atOrAfter: native.time)
            return (native.time, { self.nativeAds.pending.removeFirst().sessionEvent(frame: frame, contentTime: contentTime) })
        }
        func takeDue(before limit: Double?) {
            while let due = next(), limit.map({ due.time.seconds.doubleValue < $0 }) ?? true {
                merged.append(due.take())
            }
        }
        for event in events {
            takeDue(before: event.time)
            merged.append(event)
        }
        takeDue(before: nil)
        return Stitcher.namingTappedCards(merged)
    }
}
