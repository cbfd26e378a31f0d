/// When `render --send-beacons` sends each beacon.
enum BeaconPacing: String, CaseIterable, Sendable {
    /// When a real player would have: the render start plus the output time of its event (the render waits at
    /// the end until the last one is due and sent).
    case realtime
    /// As fast as the render goes.
    case asap
}
