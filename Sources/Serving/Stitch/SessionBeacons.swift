import AdPlayback
import Foundation
import MediaCore
import Networking

/// Server-side tracking: an ad's impression, start, quartiles and complete are sent when the viewer's player asks
/// for the ad segment that holds that moment, never on a playlist fetch, and once per session however often a
/// segment is fetched again (across every instance that shares the session). Each beacon carries VAST 4's
/// server-to-server headers from the viewer's request.
package final class SessionBeacons: Sendable {
    /// The events a segment can fire, with the fraction of the ad at which each falls (`complete` at its last frame).
    static let moments: [(event: String, quarter: Int)] = [
        ("impression", 0), ("creativeView", 0), ("start", 0),
        ("firstQuartile", 1), ("midpoint", 2), ("thirdQuartile", 3), ("complete", 4),
    ]

    /// Where the session's sent beacons are kept.
    enum Claims: Sendable {
        /// In this server's memory.
        case memory(LockedState<Set<String>>)
        /// In the shared directory, one marker file per beacon (`SharedSessions.claim`): session `nonce`'s.
        case shared(SharedSessions, nonce: String)
    }

    private let claims: Claims

    package init(shared: SharedSessions? = nil, nonce: String) {
        claims = shared.map { .shared($0, nonce: nonce) } ?? .memory(LockedState([]))
    }

    /// The events whose moment falls in segment `n` of an ad whose segments hold `segmentFrames` pictures.
    static func events(inSegment n: Int, segmentFrames: [Int64]) -> [String] {
        let total = segmentFrames.reduce(0, +)
        guard segmentFrames.indices.contains(n), total > 0 else { return [] }
        let first = segmentFrames[..<n].reduce(0, +), range = first..<(first + segmentFrames[n])
        return moments.filter { moment in
            let frame = moment.quarter == 4 ? total - 1 : total * Int64(moment.quarter) / 4
            return range.contains(frame)
        }.map(\.event)
    }

    /// Of `events` of ad `ad` in break `adBreak`, those not yet sent in this session, marked as sent.
    package func claim(_ events: [String], break adBreak: Int, ad: Int) -> [String] {
        switch claims {
        case .memory(let fired):
            fired.withLock { sent in
                events.filter { sent.insert("\(adBreak)/\(ad)/\($0)").inserted }
            }
        case .shared(let shared, let nonce):
            zip(events, shared.claim(events.map { "\(adBreak)-\(ad)-\($0)" }, nonce)).filter(\.1).map(\.0)
        }
    }

    /// Sends `urls` (macros filled in) in the background, each once, bounded in time and size; only network URLs.
    /// `outcome` is told of each: accepted by the tracking server, or not (refused, timed out, unreachable, or not a
    /// network URL).
    static func send(_ urls: [String], headers: [String: String], context: MacroContext, outcome: @escaping @Sendable (Bool) -> Void) {
        for template in urls {
            let expanded = MacroExpander.expand(template, with: context)
            guard let url = URL(string: expanded), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                outcome(false)
                continue
            }
            Task.detached {
                let answer = await HTTPClient.shared.send(HTTPRequest(url: url, headers: headers, timeout: .seconds(5), maximumBytes: 64 * 1024))
                outcome((try? answer.get()) != nil)
            }
        }
    }
}
