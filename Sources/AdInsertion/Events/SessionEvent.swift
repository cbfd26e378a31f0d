/// One line of the event log (`OUT.events.jsonl`): an ads-manager event, a beacon, a picture-in-picture
/// message or a command, stamped on the output clock.
///
/// `type` uses IMA's names (`STARTED`, `FIRST_QUARTILE`, `AD_BREAK_STARTED`, …) so that users recognise them;
/// picture-in-picture messages are `PIP_WILL_START`, `PIP_DID_START`, …; a fired tracking URL is `BEACON` with the
/// VAST event name in `event`.
public struct SessionEvent: Hashable, Sendable, Codable {
    public var type: String
    /// Seconds on the output clock (for display; `frame` is exact).
    public var time: Double
    /// The output frame at which it happened.
    public var frame: Int64?
    /// Seconds on the content clock at that moment.
    public var contentTime: Double
    /// Index of the break in the plan.
    public var breakIndex: Int?
    /// Index of the ad within its break.
    public var adIndex: Int?
    /// VAST error code, for `AD_ERROR` and error beacons.
    public var code: Int?
    /// The beacon URL after macro substitution.
    public var url: String?
    /// For `BEACON`: the VAST tracking event (`impression`, `start`, `firstQuartile`, `progress`, `error`, `breakStart`…).
    public var event: String?
    /// Why something happened or did not (`pipActive` for `AD_BREAK_DEFERRED`).
    public var reason: String?
    /// Free text for `LOG`, `AD_ERROR` and commands.
    public var message: String?
    /// For `AD_BREAK_DEFERRED` and a deferred `AD_BREAK_STARTED`: the output time at which the cue was reached.
    public var cueTime: Double?

    enum CodingKeys: String, CodingKey {
        case type, time, frame, contentTime, breakIndex = "break", adIndex = "ad", code, url, event, reason, message, cueTime
    }

    public init(type: String, time: Double, frame: Int64? = nil, contentTime: Double, breakIndex: Int? = nil,
                adIndex: Int? = nil, code: Int? = nil, url: String? = nil, event: String? = nil,
                reason: String? = nil, message: String? = nil, cueTime: Double? = nil) {
        self.type = type
        self.time = time
        self.frame = frame
        self.contentTime = contentTime
        self.breakIndex = breakIndex
        self.adIndex = adIndex
        self.code = code
        self.url = url
        self.event = event
        self.reason = reason
        self.message = message
        self.cueTime = cueTime
    }
}
