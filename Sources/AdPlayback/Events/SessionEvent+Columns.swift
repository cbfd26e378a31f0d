import AdDecisioning

/// The event log's line: one JSON object whose keys are the columns below, in this order, each written only when
/// the event's kind carries it. The names and spellings are those of the logs written before events were typed,
/// so that a log is byte for byte what it was.
///
/// Inside the package, a report, verify and the tests read a log's columns through `SessionEvent.columns`; what
/// the library offers beyond it is the typed `SessionEvent.Kind`.
package struct SessionEventColumns: Codable {
    package var type: SessionEventType
    package var time: Double
    package var frame: Int64?
    package var contentTime: Double
    package var breakIndex: Int?
    package var adIndex: Int?
    package var code: Int?
    package var url: String?
    package var event: TrackingEventName?
    package var reason: SessionEventReason?
    package var message: String?
    package var cueTime: Double?
    package var adTime: Double?
    package var scene: SceneID?
    /// A native placement's columns, the line's last ones.
    package var native = Native()

    /// The columns of a native placement's event: which placement, card and ad, its load phase or failure, and the
    /// placement an ad was already shown in.
    package struct Native {
        package var placement: String?
        package var card: Int?
        package var adID: String?
        package var phase: NativeLoadPhase?
        package var failure: NativeFailureKind?
        package var otherPlacement: String?
    }

    package enum CodingKeys: String, CodingKey {
        case type, time, frame, contentTime, breakIndex = "break", adIndex = "ad", code, url, event, reason, message, cueTime
        case adTime
        case scene
        case placement, card, adID = "adId", phase, failure, otherPlacement
    }

    init(type: SessionEventType, time: Double, frame: Int64?, contentTime: Double, scene: SceneID?) {
        self.type = type
        self.time = time
        self.frame = frame
        self.contentTime = contentTime
        self.scene = scene
    }

    package init(from decoder: any Decoder) throws {
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
        reason = try Self.decodeName(c, .reason)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        cueTime = try c.decodeIfPresent(Double.self, forKey: .cueTime)
        adTime = try c.decodeIfPresent(Double.self, forKey: .adTime)
        scene = try c.decodeIfPresent(String.self, forKey: .scene).map { SceneID($0) }
        native.placement = try c.decodeIfPresent(String.self, forKey: .placement)
        native.card = try c.decodeIfPresent(Int.self, forKey: .card)
        native.adID = try c.decodeIfPresent(String.self, forKey: .adID)
        native.phase = try Self.decodeName(c, .phase)
        native.failure = try Self.decodeName(c, .failure)
        native.otherPlacement = try c.decodeIfPresent(String.self, forKey: .otherPlacement)
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
    package func encode(to encoder: any Encoder) throws {
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
        try c.encodeIfPresent(native.placement, forKey: .placement)
        try c.encodeIfPresent(native.card, forKey: .card)
        try c.encodeIfPresent(native.adID, forKey: .adID)
        try c.encodeIfPresent(native.phase?.rawValue, forKey: .phase)
        try c.encodeIfPresent(native.failure?.rawValue, forKey: .failure)
        try c.encodeIfPresent(native.otherPlacement, forKey: .otherPlacement)
    }
}

// MARK: - Kind to columns

extension SessionEventColumns {
    /// The line of `event`: its type and the columns its kind carries.
    package init(_ line: SessionEvent) {
        self.init(type: line.kind.type, time: line.time, frame: line.frame, contentTime: line.contentTime,
                  scene: line.scene)
        switch line.kind {
        case .ad(_, let ad):
            set(.ad(ad))
        case .adProgress(let ad, let adTime):
            set(.ad(ad))
            self.adTime = adTime
        case .click(let ad, let clickThrough):
            set(.ad(ad))
            url = clickThrough
        case .adError(let subject, let code, let message):
            set(subject)
            self.code = code
            self.message = message
        case .adBuffering(let ad, let url, let message):
            set(.ad(ad))
            self.url = url
            self.message = message
        case .adBreak(_, let breakIndex):
            self.breakIndex = breakIndex
        case .adBreakStarted(let breakIndex, let cueTime):
            self.breakIndex = breakIndex
            self.cueTime = cueTime
        case .adBreakDeferred(let breakIndex, let reason, let cueTime):
            self.breakIndex = breakIndex
            self.reason = reason
            self.cueTime = cueTime
        case .adBreakSkipped(let breakIndex, let reason, let cueTime):
            self.breakIndex = breakIndex
            self.reason = reason
            self.cueTime = cueTime
        case .allAdsCompleted:
            break
        case .pictureInPicture(let message):
            if case .failedToStart(let why) = message { self.message = why }
        case .command(let written):
            message = written
        case .sessionEnded(let reason):
            self.reason = reason
        case .log(let subject, let reason, let message):
            set(subject)
            self.reason = reason
            self.message = message
        case .screen(let event):
            message = event.message
        case .beacon(let name, let url, let subject, let code):
            set(subject)
            self.code = code
            self.url = url
            self.event = name
        case .screenAd(_, let details):
            reason = details.reason
            message = details.message
            url = details.url
        case .native(let moment, let subject):
            set(.native(subject))
            switch moment {
            case .loadPhase(let phase): self.native.phase = phase
            case .loaded, .impression: break
            case .failed(let failure, let message):
                self.native.failure = failure
                self.message = message
            case .bindingFailure(let message): self.message = message
            case .click(let link): url = link
            case .duplicate(let otherPlacement, let message):
                self.message = message
                self.native.otherPlacement = otherPlacement
            }
        }
    }

    private mutating func set(_ subject: SessionEvent.Subject) {
        switch subject {
        case .session: break
        case .adBreak(let index): breakIndex = index
        case .ad(let ad):
            breakIndex = ad.breakIndex
            adIndex = ad.adIndex
        case .native(let native):
            self.native.placement = native.placement
            self.native.card = native.card
            self.native.adID = native.adID
        }
    }
}

extension SessionEvent.Kind {
    /// The log's `type` of this kind.
    public var type: SessionEventType {
        switch self {
        case .ad(let moment, _): SessionEventType(rawValue: moment.rawValue)!
        case .adProgress: .adProgress
        case .click: .click
        case .adError: .adError
        case .adBuffering: .adBuffering
        case .adBreak(let moment, _): SessionEventType(rawValue: moment.rawValue)!
        case .adBreakStarted: .adBreakStarted
        case .adBreakDeferred: .adBreakDeferred
        case .adBreakSkipped: .adBreakSkipped
        case .allAdsCompleted: .allAdsCompleted
        case .pictureInPicture(let message):
            switch message {
            case .willStart: .pipWillStart
            case .didStart: .pipDidStart
            case .failedToStart: .pipFailedToStart
            case .willStop: .pipWillStop
            case .didStop: .pipDidStop
            case .restoreUserInterface: .pipRestoreUserInterface
            }
        case .command: .command
        case .sessionEnded: .sessionEnded
        case .log, .screen: .log
        case .beacon: .beacon
        case .screenAd(let moment, _): SessionEventType(rawValue: moment.rawValue)!
        case .native(let moment, _):
            switch moment {
            case .loadPhase: .onAdLoadPhase
            case .loaded: .onAdLoad
            case .failed: .onAdFailure
            case .bindingFailure: .onAdBindingFailure
            case .impression: .onAdImpression
            case .click: .onAdClick
            case .duplicate: .onAdDuplicate
            }
        }
    }
}

// MARK: - Columns to kind

extension SessionEventColumns {
    /// The kind a line stands for; a line that lacks what its type carries is refused, naming what is missing.
    func kind() throws(SessionEventColumnsError) -> SessionEvent.Kind {
        switch type {
        case .loaded, .started, .impression, .firstQuartile, .midpoint, .thirdQuartile, .complete, .skipped, .pause,
             .resume:
            // A full-screen video ad's playback reuses some of these names, on its scene and without an ad.
            if breakIndex == nil, adIndex == nil, let moment = SessionEvent.ScreenAdMoment(rawValue: type.rawValue) {
                return .screenAd(moment, details)
            }
            return .ad(SessionEvent.AdMoment(rawValue: type.rawValue)!, try ad())
        case .adProgress: return .adProgress(try ad(), adTime: try required(adTime, .adTime))
        case .click: return .click(try ad(), clickThrough: url)
        case .adError: return .adError(try subject(), code: try required(code, .code), message: try required(message, .message))
        case .adBuffering:
            return .adBuffering(try ad(), url: try required(url, .url), message: try required(message, .message))
        case .adBreakReady, .adBreakEnded, .contentPauseRequested, .contentResumeRequested:
            if breakIndex == nil, let moment = SessionEvent.ScreenAdMoment(rawValue: type.rawValue) {
                return .screenAd(moment, details)
            }
            return .adBreak(SessionEvent.BreakMoment(rawValue: type.rawValue)!, breakIndex: try required(breakIndex, .breakIndex))
        case .adBreakStarted: return .adBreakStarted(breakIndex: try required(breakIndex, .breakIndex), cueTime: cueTime)
        case .adBreakDeferred:
            return .adBreakDeferred(breakIndex: try required(breakIndex, .breakIndex), reason: try required(reason, .reason),
                                    cueTime: try required(cueTime, .cueTime))
        case .adBreakSkipped:
            return .adBreakSkipped(breakIndex: try required(breakIndex, .breakIndex), reason: try required(reason, .reason),
                                   cueTime: cueTime)
        case .allAdsCompleted: return .allAdsCompleted
        case .pipWillStart: return .pictureInPicture(.willStart)
        case .pipDidStart: return .pictureInPicture(.didStart)
        case .pipFailedToStart: return .pictureInPicture(.failedToStart(try required(message, .message)))
        case .pipWillStop: return .pictureInPicture(.willStop)
        case .pipDidStop: return .pictureInPicture(.didStop)
        case .pipRestoreUserInterface: return .pictureInPicture(.restoreUserInterface)
        case .command: return .command(try required(message, .message))
        case .sessionEnded: return .sessionEnded(try required(reason, .reason))
        case .log:
            let subject = try subject(), message = try required(message, .message)
            // The screen's lines: about the session, without a reason, their message one of `ScreenEventKind`'s.
            if subject == .session, reason == nil {
                do throws(ScreenEventTextError) {
                    if let event = try SessionEvent.ScreenEventKind(message: message) { return .screen(event) }
                } catch {
                    throw .malformed(.message, error.description)
                }
            }
            return .log(subject, reason: reason, message: message)
        case .beacon:
            return .beacon(try required(event, .event), url: try required(url, .url), try subject(), code: code)
        case .bannerViewDidReceiveAd, .bannerViewDidFailToReceiveAd, .bannerViewDidRecordImpression,
             .bannerViewDidRecordClick, .bannerViewWillPresentScreen, .bannerViewWillDismissScreen,
             .bannerViewDidDismissScreen, .adDidLoad, .adDidFailToLoad, .adWillPresentFullScreenContent,
             .adDidFailToPresentFullScreenContent, .adDidRecordImpression, .adDidRecordClick,
             .adWillDismissFullScreenContent, .adDidDismissFullScreenContent, .userDidEarnReward:
            return .screenAd(SessionEvent.ScreenAdMoment(rawValue: type.rawValue)!, details)
        case .onAdLoadPhase: return .native(.loadPhase(try required(native.phase, .phase)), try nativeSubject())
        case .onAdLoad: return .native(.loaded, try nativeSubject())
        case .onAdFailure: return .native(.failed(native.failure, message: try required(message, .message)), try nativeSubject())
        case .onAdBindingFailure: return .native(.bindingFailure(message: try required(message, .message)), try nativeSubject())
        case .onAdImpression: return .native(.impression, try nativeSubject())
        case .onAdClick: return .native(.click(link: url), try nativeSubject())
        case .onAdDuplicate:
            return .native(.duplicate(otherPlacement: try required(native.otherPlacement, .otherPlacement),
                                      message: try required(message, .message)), try nativeSubject())
        }
    }

    private var details: SessionEvent.ScreenAdDetails {
        SessionEvent.ScreenAdDetails(reason: reason, message: message, url: url)
    }

    private func required<T>(_ value: T?, _ key: CodingKeys) throws(SessionEventColumnsError) -> T {
        guard let value else { throw .missing(key, type: type) }
        return value
    }

    private func ad() throws(SessionEventColumnsError) -> AdReference {
        AdReference(try required(breakIndex, .breakIndex), try required(adIndex, .adIndex))
    }

    private func nativeSubject() throws(SessionEventColumnsError) -> SessionEvent.NativeSubject {
        SessionEvent.NativeSubject(placement: try required(native.placement, .placement), card: native.card, adID: native.adID)
    }

    /// A native card's (`placement`), an ad's (`break` and `ad`), a break's, or the session's.
    private func subject() throws(SessionEventColumnsError) -> SessionEvent.Subject {
        if native.placement != nil { return .native(try nativeSubject()) }
        switch (breakIndex, adIndex) {
        case (let b?, let a?): return .ad(AdReference(b, a))
        case (let b?, nil): return .adBreak(b)
        case (nil, nil): return .session
        case (nil, _?): throw .missing(.breakIndex, type: type)
        }
    }
}

/// A line whose type needs a column it lacks (`AD_PROGRESS` without `adTime`), or whose column is not what its kind
/// writes there (a screen `LOG`'s message); `EventLogReader` names the line.
enum SessionEventColumnsError: Error, CustomStringConvertible {
    case missing(SessionEventColumns.CodingKeys, type: SessionEventType)
    case malformed(SessionEventColumns.CodingKeys, String)

    var description: String {
        switch self {
        case .missing(let key, let type): "missing field \"\(key.stringValue)\": \(type.rawValue) carries it"
        case .malformed(let key, let why): "field \"\(key.stringValue)\": \(why)"
        }
    }
}

// MARK: - Codable, and the columns read back

extension SessionEvent: Codable {
    public init(from decoder: any Decoder) throws {
        let columns = try SessionEventColumns(from: decoder)
        self.init(try columns.kind(), time: columns.time, frame: columns.frame, contentTime: columns.contentTime,
                  scene: columns.scene)
    }

    public func encode(to encoder: any Encoder) throws {
        try SessionEventColumns(self).encode(to: encoder)
    }
}

extension SessionEvent {
    /// The log's `type` of the event.
    public var type: SessionEventType { kind.type }

    /// The columns of the event's line, read from its kind: for readers inside the package that look at a log as
    /// its lines (a report, verify's golden comparison, the tests).
    package var columns: SessionEventColumns { SessionEventColumns(self) }
}
