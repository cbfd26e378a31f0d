import AdPlayback
import MediaCore

extension Director {
    /// The screen ads' and the native placements' events not yet logged, each queue in time order: they are known
    /// ahead (a render's) or arrive as `play` plays, and join the log as the output reaches their time.
    struct PendingEvents {
        var screenAds: ArraySlice<ScreenAdEvent> = []
        var native: ArraySlice<NativeAdEvent> = []
    }

    /// Places `events` among the screen ad events not yet logged, each after those of its time or earlier.
    func schedule(_ events: [ScreenAdEvent]) {
        for event in events {
            let at = pending.screenAds.firstIndex { $0.time > event.time } ?? pending.screenAds.endIndex
            pending.screenAds.insert(event, at: at)
        }
    }

    /// Adds native placements' events, later than those already scheduled, in time order.
    func schedule(native events: [NativeAdEvent]) {
        pending.native.append(contentsOf: events)
    }

    /// Every session's events since the last call, in one time-ordered log, with the screen ads' and the native
    /// placements' events due by the last frame written (`written` frames so far) placed among them by time.
    ///
    /// The sessions' events are merged by frame, the primary's first at the same frame, then the other players' in
    /// scene order, each keeping its own order. A screen ad or
    /// native event goes after the sessions' events of the same moment (such as the screen command that caused a
    /// reload), with the content time of that moment; a tap that clicked a card is then logged as the card's.
    public func drainEvents(written: Int64) -> [SessionEvent] {
        let sessions = Self.inFrameOrder(session.drainEvents(), players.map { $0.session.drainEvents() })
        // Only the last frame's content time can serve a later drain (an event that arrives late is logged then).
        defer { frameContentTimes = frameContentTimes.filter { $0.key >= written - 1 } }
        guard !pending.screenAds.isEmpty || !pending.native.isEmpty, written > 0 else { return sessions }
        let rate = planner.frameRate
        let now = rate.time(ofFrame: written - 1)
        let standing = session.status.contentPosition.seconds.doubleValue
        /// The content time at output frame `frame`: as the session's events of that frame carry it.
        func contentTime(_ frame: Int64) -> Double { frameContentTimes[frame] ?? frameContentTimes[written - 1] ?? standing }
        var merged: [SessionEvent] = []
        // The next due event of the two queues, the screen's first at the same moment.
        func next() -> (time: MediaTime, take: () -> SessionEvent)? {
            let screen = pending.screenAds.first.flatMap { $0.time <= now ? $0 : nil }
            let native = pending.native.first.flatMap { $0.time <= now ? $0 : nil }
            if let screen, native.map({ screen.time <= $0.time }) ?? true {
                let frame = rate.firstFrame(atOrAfter: screen.time)
                return (screen.time, { self.pending.screenAds.removeFirst().sessionEvent(frame: frame, contentTime: contentTime(frame)) })
            }
            guard let native else { return nil }
            let frame = rate.firstFrame(atOrAfter: native.time)
            return (native.time, { self.pending.native.removeFirst().sessionEvent(frame: frame, contentTime: contentTime(frame)) })
        }
        func takeDue(before limit: Double?) {
            while let due = next(), limit.map({ due.time.seconds.doubleValue < $0 }) ?? true {
                merged.append(due.take())
            }
        }
        for event in sessions {
            takeDue(before: event.time)
            merged.append(event)
        }
        takeDue(before: nil)
        return Self.namingTappedCards(merged)
    }

    /// One time-ordered log from the primary session's events and each other player's (`drainEvents`).
    static func inFrameOrder(_ primary: [SessionEvent], _ others: [[SessionEvent]]) -> [SessionEvent] {
        guard others.contains(where: { !$0.isEmpty }) else { return primary }
        let all = ([primary] + others).enumerated().flatMap { player, events in
            events.enumerated().map { (player: player, index: $0.offset, event: $0.element) }
        }
        return all.sorted {
            let (a, b) = ($0.event.frame ?? -1, $1.event.frame ?? -1)
            return a != b ? a < b : ($0.player, $0.index) < ($1.player, $1.index)
        }.map(\.event)
    }

    /// `events` with each tap that clicked a native card logged as the card's: the screen model knows no cards,
    /// so such a tap landed on `.nothing` for it; the `onAdClick` at the same frame says which card it hit, and
    /// becomes the tap's target (logged "tap at X,Y on card 3 ("shoe-4") of placement "feed-slider"").
    static func namingTappedCards(_ events: [SessionEvent]) -> [SessionEvent] {
        var events = events
        var clicks: [(frame: Int64?, target: SessionEvent.TapTarget)] = events.compactMap {
            guard case .native(.click, let subject) = $0.kind, let card = subject.card, let adID = subject.adID else { return nil }
            return ($0.frame, .nativeCard(card: card, adID: adID, placement: subject.placement))
        }
        guard !clicks.isEmpty else { return events }
        for i in events.indices {
            guard case .screen(.tapped(let x, let y, .nothing)) = events[i].kind,
                  let k = clicks.firstIndex(where: { $0.frame == events[i].frame }) else { continue }
            events[i].kind = .screen(.tapped(x: x, y: y, on: clicks.remove(at: k).target))
        }
        return events
    }
}
