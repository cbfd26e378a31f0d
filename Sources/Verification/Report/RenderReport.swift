import AdPlayback
import Foundation
import MediaCore

/// Everything `pipctl report` shows of one render, gathered and checked: the timeline, its events, thumbnails of
/// its frames, its loudness and, when asked, verify's verdict. Media-free: `ReportPage` and `ReportSVG` turn it
/// into a page without decoding anything.
public struct RenderReport: Sendable {
    /// A small JPEG picture of one output frame.
    public struct Picture: Hashable, Sendable {
        public var frame: Int64
        public var jpeg: Data
        public var width: Int
        public var height: Int

        public init(frame: Int64, jpeg: Data, width: Int, height: Int) {
            self.frame = frame
            self.jpeg = jpeg
            self.width = width
            self.height = height
        }
    }

    /// The output's loudness (BS.1770-4): short-term loudness every `step` seconds from the start, and each
    /// segment's integrated loudness, one per timeline segment (nil where it has too little sound to gate).
    public struct LoudnessTrack: Hashable, Sendable {
        public var step: Double
        public var shortTerm: [Double?]
        public var segments: [Double?]
        public var integrated: Double?

        public init(step: Double, shortTerm: [Double?], segments: [Double?], integrated: Double?) {
            self.step = step
            self.shortTerm = shortTerm
            self.segments = segments
            self.integrated = integrated
        }
    }

    /// What the report is of, as the user named it.
    public var title: String
    public var timeline: Timeline
    public var events: [SessionEvent]
    /// In frame order; at most `ThumbnailPlan.limit`.
    public var thumbnails: [Picture]
    public var loudness: LoudnessTrack?
    public var verdict: RunVerdicts?
    /// The time strip's lanes, built once from the timeline (`ReportLane.layout`) for the page and the sheet.
    let layout: ReportLane.Layout

    public init(title: String, timeline: Timeline, events: [SessionEvent], thumbnails: [Picture] = [],
                loudness: LoudnessTrack? = nil, verdict: RunVerdicts? = nil) {
        self.init(title: title, timeline: timeline, events: events, thumbnails: thumbnails, loudness: loudness, verdict: verdict,
                  layout: (try? ReportLane.layout(of: timeline, isCancelled: { false })) ?? .init(lanes: [], scenes: 0))
    }

    /// A report whose lanes are built here, stopping with `ReportError.interrupted` when `isCancelled` says.
    init(title: String, timeline: Timeline, events: [SessionEvent], thumbnails: [Picture] = [], loudness: LoudnessTrack? = nil,
         verdict: RunVerdicts? = nil, isCancelled: () -> Bool) throws(ReportError) {
        self.init(title: title, timeline: timeline, events: events, thumbnails: thumbnails, loudness: loudness, verdict: verdict,
                  layout: try ReportLane.layout(of: timeline, isCancelled: isCancelled))
    }

    private init(title: String, timeline: Timeline, events: [SessionEvent], thumbnails: [Picture], loudness: LoudnessTrack?,
                 verdict: RunVerdicts?, layout: ReportLane.Layout) {
        self.title = title
        self.timeline = timeline
        self.events = events
        self.thumbnails = thumbnails
        self.loudness = loudness
        self.verdict = verdict
        self.layout = layout
    }

    /// The strip's lanes.
    var lanes: [ReportLane] { layout.lanes }

    /// Seconds per output frame (the timeline's rate, checked by `checkBounds` before a report is gathered).
    var secondsPerFrame: Double {
        guard let rate = FrameRate(parsing: timeline.output.fps), rate.perSecond > .zero else { return 1.0 / 30 }
        return 1 / rate.perSecond.doubleValue
    }

    /// The output's length in seconds (at least one frame, so that nothing divides by zero).
    var duration: Double { Double(max(1, timeline.output.frames)) * secondsPerFrame }
}
