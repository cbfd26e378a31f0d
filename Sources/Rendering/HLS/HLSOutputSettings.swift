import Foundation
import MediaCore
import VideoPipeline

/// `render --hls DIR`: where the HLS output goes and how it is cut.
public struct HLSOutputSettings: Sendable {
    /// The directory that gets `master.m3u8`, `media.m3u8`, the segments, `timeline.json` and `events.jsonl`; it
    /// must not exist or be empty.
    public var directory: String
    /// The target segment length, seconds (`--hls-time`).
    public var segmentDuration: Rational
    public var segmentType: HLSSegmentType
    /// `EXT-X-PROGRAM-DATE-TIME` of the first segment; the render's clock origin when `nil`.
    public var programDateTime: Date?

    public init(directory: String, segmentDuration: Rational = Rational(6), segmentType: HLSSegmentType = .fmp4, programDateTime: Date? = nil) {
        self.directory = directory
        self.segmentDuration = segmentDuration
        self.segmentType = segmentType
        self.programDateTime = programDateTime
    }
}

/// Which output frames an HLS render forces to be keyframes, so that the segmenter can cut there: frame 0,
/// every frame where a break starts or ends (the break shown changes), and otherwise the frame `interval` frames
/// after the last forced one.
struct KeyframeSchedule {
    let interval: Int64
    private var lastForced: Int64 = 0
    /// The break of the last frame written (`nil`: content).
    private var lastBreak: Int?

    init(interval: Int64) { self.interval = interval }

    /// Whether frame `n`, showing break `breakIndex` (`nil` for content), must be a keyframe.
    func forces(frame n: Int64, breakIndex: Int?) -> Bool {
        n == 0 || breakIndex != lastBreak || n - lastForced >= interval
    }

    /// Notes that frame `n` was written (an ad whose media failed is written again at the same frame: only what
    /// was written counts).
    mutating func wrote(frame n: Int64, breakIndex: Int?, keyframe: Bool) {
        if keyframe { lastForced = n }
        lastBreak = breakIndex
    }
}
