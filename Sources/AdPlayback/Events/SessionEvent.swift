import AdDecisioning
/// One line of the event log (`OUT.events.jsonl`): an ads-manager event, a beacon, a picture-in-picture
/// message or a command, stamped on the output clock.
///
/// `type` uses IMA's names (`STARTED`, `FIRST_QUARTILE`, `AD_BREAK_STARTED`, …) so that users recognise them;
/// picture-in-picture messages are `PIP_WILL_START`, `PIP_DID_START`, …; a fired tracking URL is `BEACON` with the
/// VAST event name in `event`. Breaks and ads are numbered from 0, in plan order, as in the timeline and in
/// `pipctl ads inspect`.
///
/// Every event has its stamp (the output frame and time, the content time, and on a device its scene) and a
/// `Kind`, a case with what that kind of event carries. The JSON keeps the names, spellings and order of the logs
/// written before events were typed (`SessionEvent+Columns`). Reading a line whose `type` or `reason` this
/// version does not know, or that lacks what its type carries, fails, naming the line (`EventLogError`), rather
/// than guessing.
public struct SessionEvent: Hashable, Sendable {
    /// Seconds on the output clock (for display; `frame` is exact).
    public var time: Double
    /// The output frame at which it happened.
    public var frame: Int64?
    /// Seconds on the content clock at that moment.
    public var contentTime: Double
    /// On a device (`--device`): the scene the event happened in; absent otherwise.
    public var scene: SceneID?
    public var kind: Kind

    public init(_ kind: Kind, time: Double, frame: Int64? = nil, contentTime: Double, scene: SceneID? = nil) {
        self.kind = kind
        self.time = time
        self.frame = frame
        self.contentTime = contentTime
        self.scene = scene
    }
}
