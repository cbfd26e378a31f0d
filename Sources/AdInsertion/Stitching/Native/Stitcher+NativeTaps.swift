import AdCore

extension Stitcher {
    /// `events` with each tap that clicked a native card logged as the card's: the screen model knows no cards,
    /// so it logs such a tap as "tap at X,Y on nothing"; the `onAdClick` at the same frame says which card it hit,
    /// and the `LOG` line names it instead ("tap at X,Y on card 3 ("shoe-4") of placement "feed-slider"").
    static func namingTappedCards(_ events: [SessionEvent]) -> [SessionEvent] {
        var events = events
        var clicks: [(frame: Int64?, card: SessionEvent.NativeSubject)] = events.compactMap {
            if case .native(.click, let card) = $0.kind { ($0.frame, card) } else { nil }
        }
        guard !clicks.isEmpty else { return events }
        for i in events.indices {
            guard case .log(let subject, let reason, let message) = events[i].kind, message.hasPrefix("tap at "),
                  message.hasSuffix(" on nothing"),
                  let k = clicks.firstIndex(where: { $0.frame == events[i].frame }) else { continue }
            let card = clicks.remove(at: k).card
            events[i].kind = .log(subject, reason: reason, message: String(message.dropLast("nothing".count))
                + "card \(card.card.map(String.init) ?? "?") (\"\(card.adID ?? "")\") of placement \"\(card.placement)\"")
        }
        return events
    }
}
