import AdCore

extension Stitcher {
    /// `events` with each tap that clicked a native card logged as the card's: the screen model knows no cards,
    /// so it logs such a tap as "tap at X,Y on nothing"; the `onAdClick` at the same frame says which card it hit,
    /// and the `LOG` line names it instead ("tap at X,Y on card 3 ("shoe-4") of placement "feed-slider"").
    static func namingTappedCards(_ events: [SessionEvent]) -> [SessionEvent] {
        var events = events
        var clicks = events.filter { $0.type == .onAdClick }
        guard !clicks.isEmpty else { return events }
        for i in events.indices {
            guard events[i].type == .log, let message = events[i].message, message.hasPrefix("tap at "), message.hasSuffix(" on nothing"),
                  let k = clicks.firstIndex(where: { $0.frame == events[i].frame }) else { continue }
            let click = clicks.remove(at: k)
            events[i].message = String(message.dropLast("nothing".count))
                + "card \(click.card.map(String.init) ?? "?") (\"\(click.adID ?? "")\") of placement \"\(click.placement ?? "")\""
        }
        return events
    }
}
