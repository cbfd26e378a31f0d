/// The name of a VAST (or VMAP) tracking event: the `event` attribute of `<Tracking>`, and the `event` field of a
/// `BEACON` line for the URL lists that have an element of their own (`impression`, `error`, `clickTracking`).
///
/// Every name of VAST 2.0 to 4.2 and VMAP 1.0 is a case, so that the parser, the plan, the ads manager and the
/// event log share one spelling; a name none of them define (a vendor's own) is kept as `unknown` so that it still
/// shows in `ads inspect`, and is never fired.
public enum TrackingEventName: Hashable, Sendable, CustomStringConvertible {
    // Linear ad playback (VAST 4.2 §3.14.1).
    case loaded, start, firstQuartile, midpoint, thirdQuartile, complete, progress
    case mute, unmute, pause, resume, rewind, skip, playerExpand, playerCollapse, notUsed
    case otherAdInteraction, closeLinear, creativeView, acceptInvitationLinear, timeSpentViewing
    // Non-linear and companion (VAST 4.2), and VAST 2/3 names since replaced.
    case acceptInvitation, adExpand, adCollapse, minimize, close, overlayViewDuration, interactiveStart
    case fullscreen, exitFullscreen, expand, collapse
    // VMAP 1.0 break tracking (`error` also names VAST `<Error>` URLs).
    case breakStart, breakEnd, error
    // URL lists with their own VAST element, fired under these names.
    case impression, clickTracking
    /// A name that VAST and VMAP do not define, as written.
    case unknown(String)

    /// Every defined name, in the order above.
    public static let known: [TrackingEventName] = [
        .loaded, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .progress,
        .mute, .unmute, .pause, .resume, .rewind, .skip, .playerExpand, .playerCollapse, .notUsed,
        .otherAdInteraction, .closeLinear, .creativeView, .acceptInvitationLinear, .timeSpentViewing,
        .acceptInvitation, .adExpand, .adCollapse, .minimize, .close, .overlayViewDuration, .interactiveStart,
        .fullscreen, .exitFullscreen, .expand, .collapse,
        .breakStart, .breakEnd, .error,
        .impression, .clickTracking,
    ]

    private static let byName: [String: TrackingEventName] = Dictionary(
        uniqueKeysWithValues: known.map { ($0.rawValue, $0) })

    /// The defined name spelled exactly `name` (VAST names are case-sensitive), else `unknown(name)`.
    public init(_ name: String) {
        self = Self.byName[name] ?? .unknown(name)
    }

    /// The name as VAST writes it.
    public var rawValue: String {
        switch self {
        case .loaded: "loaded"
        case .start: "start"
        case .firstQuartile: "firstQuartile"
        case .midpoint: "midpoint"
        case .thirdQuartile: "thirdQuartile"
        case .complete: "complete"
        case .progress: "progress"
        case .mute: "mute"
        case .unmute: "unmute"
        case .pause: "pause"
        case .resume: "resume"
        case .rewind: "rewind"
        case .skip: "skip"
        case .playerExpand: "playerExpand"
        case .playerCollapse: "playerCollapse"
        case .notUsed: "notUsed"
        case .otherAdInteraction: "otherAdInteraction"
        case .closeLinear: "closeLinear"
        case .creativeView: "creativeView"
        case .acceptInvitationLinear: "acceptInvitationLinear"
        case .timeSpentViewing: "timeSpentViewing"
        case .acceptInvitation: "acceptInvitation"
        case .adExpand: "adExpand"
        case .adCollapse: "adCollapse"
        case .minimize: "minimize"
        case .close: "close"
        case .overlayViewDuration: "overlayViewDuration"
        case .interactiveStart: "interactiveStart"
        case .fullscreen: "fullscreen"
        case .exitFullscreen: "exitFullscreen"
        case .expand: "expand"
        case .collapse: "collapse"
        case .breakStart: "breakStart"
        case .breakEnd: "breakEnd"
        case .error: "error"
        case .impression: "impression"
        case .clickTracking: "clickTracking"
        case .unknown(let name): name
        }
    }

    public var description: String { rawValue }
}
