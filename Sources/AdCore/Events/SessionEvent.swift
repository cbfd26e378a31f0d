import AdDecisioning
/// One line of the event log (`OUT.events.jsonl`): an ads-manager event, a beacon, a picture-in-picture
/// message or a command, stamped on the output clock.
///
/// `type` uses IMA's names (`STARTED`, `FIRST_QUARTILE`, `AD_BREAK_STARTED`, …) so that users recognise them;
/// picture-in-picture messages are `PIP_WILL_START`, `PIP_DID_START`, …; a fired tracking URL is `BEACON` with the
/// VAST event name in `event`. Breaks and ads are numbered from 0, in plan order, as in the timeline and in
/// `pipctl ads inspect`.
///
/// The fields are typed; the JSON keeps the names and spellings of the logs written before they were. Reading a
/// line whose `type` or `reason` this version does not know fails, naming the line (`EventLogError`), rather
/// than guessing.
public struct SessionEvent: Hashable, Sendable, Codable {
    public var type: SessionEventType
    /// Seconds on the output clock (for display; `frame` is exact).
    public var time: Double
    /// The output frame at which it happened.
    public var frame: Int64?
    /// Seconds on the content clock at that moment.
    public var contentTime: Double
    /// Index of the break in the plan, from 0.
    public var breakIndex: Int?
    /// Index of the ad within its break, from 0.
    public var adIndex: Int?
    /// VAST error code, for `AD_ERROR` and error beacons.
    public var code: Int?
    /// The beacon URL after macro substitution, as sent; for `CLICK` the ClickThrough URL.
    public var url: String?
    /// For `BEACON`: the VAST tracking event (`impression`, `start`, `firstQuartile`, `progress`, `error`, `breakStart`…).
    public var event: TrackingEventName?
    /// Why something happened or did not (`pipActive` for `AD_BREAK_DEFERRED`).
    public var reason: SessionEventReason?
    /// Free text for `LOG`, `AD_ERROR` and commands.
    public var message: String?
    /// For `AD_BREAK_DEFERRED` and a deferred `AD_BREAK_STARTED`: the output time at which the cue was reached.
    public var cueTime: Double?
    /// For `AD_PROGRESS`: seconds on the ad's clock.
    public var adTime: Double?
    /// On a device (`--device`): the scene the event happened in; absent otherwise.
    public var scene: SceneID?
    /// A native ad's event: its placement, the card's index in the response's `ads` and its ad id (absent for the
    /// block), the load phase, why a load failed, and the placement that showed a left-out duplicate first.
    public var placement: String?
    public var card: Int?
    public var adID: String?
    public var phase: NativeLoadPhase?
    public var failure: NativeFailureKind?
    public var otherPlacement: String?

    enum CodingKeys: String, CodingKey {
        case type, time, frame, contentTime, breakIndex = "break", adIndex = "ad", code, url, event, reason, message, cueTime
        case adTime
        case scene
        case placement, card, adID = "adId", phase, failure, otherPlacement
    }

    public init(type: SessionEventType, time: Double, frame: Int64? = nil, contentTime: Double, breakIndex: Int? = nil,
                adIndex: Int? = nil, code: Int? = nil, url: String? = nil, event: TrackingEventName? = nil,
                reason: SessionEventReason? = nil, message: String? = nil, cueTime: Double? = nil,
                adTime: Double? = nil, scene: SceneID? = nil) {
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
        self.adTime = adTime
        self.scene = scene
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let typeName = try c.decode(String.self, forKey: .type)
        guard let type = SessionEventType(rawValue: typeName) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown event type \"\(typeName)\"")
        }
        self.type = type
        time = try c.decode(Double.self, forKey: .time)
        frame = try c.decodeIfPresent(Int64.self, forKey: .frame)
        contentTime = try c.decode(Double.self, forKey: .contentTime)
        breakIndex = try c.decodeIfPresent(Int.self, forKey: .breakIndex)
        adIndex = try c.decodeIfPresent(Int.self, forKey: .adIndex)
        code = try c.decodeIfPresent(Int.self, forKey: .code)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        event = try c.decodeIfPresent(String.self, forKey: .event).map(TrackingEventName.init)
        if let reasonName = try c.decodeIfPresent(String.self, forKey: .reason) {
            guard let reason = SessionEventReason(rawValue: reasonName) else {
                throw DecodingError.dataCorruptedError(forKey: .reason, in: c,
                                                       debugDescription: "unknown reason \"\(reasonName)\"")
            }
            self.reason = reason
        }
        message = try c.decodeIfPresent(String.self, forKey: .message)
        cueTime = try c.decodeIfPresent(Double.self, forKey: .cueTime)
        adTime = try c.decodeIfPresent(Double.self, forKey: .adTime)
        scene = try c.decodeIfPresent(String.self, forKey: .scene).map { SceneID($0) }
        placement = try c.decodeIfPresent(String.self, forKey: .placement)
        card = try c.decodeIfPresent(Int.self, forKey: .card)
        adID = try c.decodeIfPresent(String.self, forKey: .adID)
        phase = try Self.decodeName(c, .phase)
        failure = try Self.decodeName(c, .failure)
        otherPlacement = try c.decodeIfPresent(String.self, forKey: .otherPlacement)
    }

    /// An optional name of a closed set, refused (naming the key) when this version does not know it.
    private static func decodeName<T: RawRepresentable>(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> T?
        where T.RawValue == String {
        guard let name = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let value = T(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "unknown \(key.stringValue) \"\(name)\"")
        }
        return value
    }

    /// Writes the typed fields as the strings they always were, in `CodingKeys` order (the event log's bytes).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type.rawValue, forKey: .type)
        try c.encode(time, forKey: .time)
        try c.encodeIfPresent(frame, forKey: .frame)
        try c.encode(contentTime, forKey: .contentTime)
        try c.encodeIfPresent(breakIndex, forKey: .breakIndex)
        try c.encodeIfPresent(adIndex, forKey: .adIndex)
        try c.encodeIfPresent(code, forKey: .code)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(event?.rawValue, forKey: .event)
        try c.encodeIfPresent(reason?.rawValue, forKey: .reason)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encodeIfPresent(cueTime, forKey: .cueTime)
        try c.encodeIfPresent(adTime, forKey: .adTime)
        try c.encodeIfPresent(scene?.rawValue, forKey: .scene)
        try c.encodeIfPresent(placement, forKey: .placement)
        try c.encodeIfPresent(card, forKey: .card)
        try c.encodeIfPresent(adID, forKey: .adID)
        try c.encodeIfPresent(phase?.rawValue, forKey: .phase)
        try c.encodeIfPresent(failure?.rawValue, forKey: .failure)
        try c.encodeIfPresent(otherPlacement, forKey: .otherPlacement)
    }
}
