import AdPlayback
import MediaCore
import VideoPipeline

extension VerifyFinding {
    /// What a finding found, as typed facts: one case per kind of problem, carrying what its sentence says (output
    /// frames, expected against found values, the names of segments, layers and breaks) and nothing composed. Its
    /// code and subject follow from the case; its sentence is written at the edge (`VerifyFinding+Text.swift`).
    /// `verify --json` writes it as `detail`, `{"kind": …}` with the case's values beside the kind (docs/VERIFY.md).
    public enum Detail: Hashable, Sendable {
        // MARK: The output as a whole

        /// The output has `found` frames, not the `expected` the timeline (or the golden) says.
        case frameCount(found: Int64, expected: Int64, against: Reference)
        /// The output's size and rate are not the golden's.
        case format(found: Format, expected: Format)

        // MARK: Frames, from their stamps (`verify`)

        /// `segment` started (or resumed) at output frame `frame`, not at `expectedFrame`.
        case segmentStarted(frame: Int64, segment: Segment, resumes: Bool, expectedFrame: Int64, against: Reference)
        /// `segment` started at its source frame `shown.frame` (at output frame `frame`), not at `expected`.
        case segmentStartedAtFrame(frame: Int64, segment: Segment, resumes: Bool, shown: Stamp, expected: Int64, against: Reference)
        /// Output frame `frame` shows `shown`, not its source's frame `expected`.
        case frameShifted(frame: Int64, shown: Stamp, expected: Int64, against: Reference)
        /// Output frames `first…last` show the source `shown` (`nil`: no stamp), not `expected`, `segment`'s.
        case sourceShown(first: Int64, last: Int64, shown: String?, expected: String, segment: Segment, against: Reference)

        // MARK: Frames, from their fingerprints (`verify --sources`)

        /// `segment` starts `frames` output frames late, at `at`, not at `expectedFrame`.
        case startsLate(at: FrameTime, segment: Segment, resumes: Bool, frames: Int64, expectedFrame: Int64, against: Reference)
        /// `segment` starts `frames` output frames early, at `at`, not at `expectedFrame`.
        case startsEarly(at: FrameTime, segment: Segment, resumes: Bool, frames: Int64, expectedFrame: Int64, against: Reference)
        /// `segment` starts at its frame `shown`, not `expected`: `offset` frames lost (negative: repeated).
        case startsAtFrame(at: FrameTime, segment: Segment, resumes: Bool, shown: Int64, expected: Int64, offset: Int64,
                           against: Reference)
        /// Output frames `at…last` do not show `segment`'s file `source` (its frames `expectedFirst…expectedLast`).
        case sourceNotShown(at: FrameTime, last: Int64, segment: Segment, source: String, expectedFirst: Int64, expectedLast: Int64,
                            against: Reference)
        /// `segment` shows its frame `shown`, which its mapping never shows there, not `expected`.
        case frameNotOnTick(at: FrameTime, segment: Segment, shown: Int64, expected: Int64, against: Reference)
        /// `segment` jumps `frames` frames ahead, to its frame `shown`, not `expected`.
        case jumpsAhead(at: FrameTime, segment: Segment, frames: Int64, shown: Int64, expected: Int64, against: Reference)
        /// `segment`'s frames `lost` are not shown: its frame `shown` follows `previous`.
        case framesLost(at: FrameTime, segment: Segment, lost: [Int64], shown: Int64, previous: Int64)
        /// `segment`'s frame `shown` is shown twice.
        case shownTwice(at: FrameTime, segment: Segment, shown: Int64)
        /// `segment` falls `frames` frames behind: it shows its frame `shown`, not `expected`.
        case fallsBehind(at: FrameTime, segment: Segment, frames: Int64, shown: Int64, expected: Int64, against: Reference)

        // MARK: The timeline itself

        /// The content resumes at `tick` at output frame `frame`, where it had got to `expectedTick`, with no seek logged.
        case contentDiscontinuity(frame: Int64, tick: Int64, expectedTick: Int64)

        // MARK: Screen layers and other players

        /// `layer` at `rect`, from output frame `frame`, is not `rule` at `bound` (`LayoutInvariants`).
        case layoutRule(frame: Int64, layer: String, rect: Timeline.Rect, rule: String, bound: Timeline.Rect)
        /// `layer`, expected at `rect`, is not found there at output frame `frame` (nor at `alsoAt`), for `differences`.
        case layerMismatch(frame: Int64, layer: String, rect: Timeline.Rect, differences: [LayerDifference], alsoAt: [Int64])
        /// Scene `scene`'s player (or full-screen ad) layer of `kind` shows `shown` (`nil`: no stamp), not `expected`.
        case playerStamp(frame: Int64, scene: String, kind: ScreenLayer.Kind, shown: Stamp?, expected: Stamp)
        /// Scene `scene`'s player of `kind` shows its frame `shown` of `source`, not `expected` (`--sources`).
        case playerFrame(frame: Int64, scene: String, kind: ScreenLayer.Kind, shown: Int64, expected: Int64, source: String)
        /// Scene `scene`'s player of `kind` does not show `source` near its frame `expected` in `picture` (`--sources`).
        case playerNotShown(frame: Int64, scene: String, kind: ScreenLayer.Kind, source: String, expected: Int64, picture: Timeline.Rect)

        // MARK: Sound

        /// The output has no sound.
        case audioMissing
        /// The sound changes `offsetFrames` video frames after (negative: before) `segment`'s video begins at `frame`.
        case audioChange(frame: Int64, segment: Segment, offsetFrames: Double)
        /// No change of sound is found near output frame `frame`, where `segment` begins.
        case audioChangeNotFound(frame: Int64, segment: Segment)
        /// Output frames `first…last` (`segment`) sound like `heard` (`nil`: noise), not `expected`.
        case audioSource(first: Int64, last: Int64, segment: Segment, heard: Sound?, expected: Sound)
        /// `segment`'s sound just after (`place` start) or before (end) the splice at `at` is `milliseconds` late
        /// (negative: early), over `tolerance` ms (`--sources`).
        case soundOffset(at: FrameTime, place: SourceReport.AudioAlignment.Place, segment: Segment, milliseconds: Double,
                         tolerance: Double)

        // MARK: Loudness

        /// `ad`'s loudness by `measure` is `measured` LUFS, over 1 LU from `target` (or the `reached` the limiter left).
        case loudnessLevel(ad: LoudnessCheck.Segment.Ad, outStartFrame: Int64, outEndFrame: Int64, measure: String, measured: Double,
                           target: Double, reached: Double?)
        /// `ad`'s true peak is `truePeak` dBTP, over `ceiling`.
        case truePeak(ad: LoudnessCheck.Segment.Ad, outStartFrame: Int64, outEndFrame: Int64, truePeak: Double, ceiling: Double)

        // MARK: HLS playlists

        /// Media segment `segment` (`uri`) lasts `seconds`, not a whole number of frames.
        case hlsSegmentDuration(segment: Int, uri: String, seconds: Double)
        /// The playlist lasts `frames` frames, the render `expected`.
        case hlsLength(frames: Int64, expected: Int64)
        /// No segment starts where `adBreak` starts.
        case hlsBreakStart(adBreak: Break)
        /// No segment starts where `adBreak` ends.
        case hlsBreakEnd(adBreak: Break)
        /// No `EXT-X-CUE-OUT` of `seconds` before segment `segment`.
        case hlsCueOut(adBreak: Break, seconds: Double, segment: Int)
        /// No `EXT-X-CUE-IN` before segment `segment`.
        case hlsCueIn(adBreak: Break, segment: Int)
        /// No `EXT-X-DATERANGE` `break-N`.
        case hlsDateRangeMissing(adBreak: Break)
        /// The date range's `START-DATE` is `seconds` after the program date-time, not `expected`.
        case hlsStartDate(adBreak: Break, seconds: Double, expected: Double)
        /// The date range precedes segment `segment`, not `expected`.
        case hlsDateRangeSegment(adBreak: Break, segment: Int, expected: Int)
        /// The date range's `DURATION` is `seconds` (`nil`: missing), not `expected`.
        case hlsDateRangeDuration(adBreak: Break, seconds: Double?, expected: Double)
        /// `SCTE35-OUT` is `found` (`nil`: missing), not a splice_insert out of the network at `pts` for `ticks`.
        case hlsSCTE35Out(adBreak: Break, found: SpliceInfoSection?, pts: UInt64, ticks: UInt64)
        /// `SCTE35-IN` is `found` (`nil`: missing), not a splice_insert back in the network at `pts` before segment `segment`.
        case hlsSCTE35In(adBreak: Break, found: SpliceInfoSection?, pts: UInt64, segment: Int)
        /// The playlist marks `dateRanges` date ranges and `cueOuts` cue-outs for `breaks` breaks.
        case hlsMarkerCount(dateRanges: Int, cueOuts: Int, breaks: Int)

        // MARK: The golden's picture in picture

        /// Window `window` (from 1) at `rect` starts at output frame `frame`, not `expected`.
        case goldenPipStart(window: Int, rect: Timeline.Rect, frame: Int64, expected: Int64)
        /// Window `window` at `rect` ends at output frame `frame` (exclusive), not `expected`.
        case goldenPipEnd(window: Int, rect: Timeline.Rect, frame: Int64, expected: Int64)
        /// Window `window`, from output frame `frame`, is at `rect`, not `expected`.
        case goldenPipRect(window: Int, frame: Int64, rect: Timeline.Rect, expected: Timeline.Rect)
        /// Window `window` at `rect`, over output frames `first…last`, is not in the golden, which has `goldenCount`.
        case goldenPipExtra(window: Int, rect: Timeline.Rect, first: Int64, last: Int64, goldenCount: Int)
        /// The golden's window `window` at `rect`, over output frames `first…last`, is not in the output, which has `count`.
        case goldenPipMissing(window: Int, rect: Timeline.Rect, first: Int64, last: Int64, count: Int)

        // MARK: The golden's screen layers

        /// The screen layers change at output frame `frame`, not `expected`.
        case goldenLayersChange(frame: Int64, expected: Int64)
        /// Screen layer `number` (from 1) from output frame `frame` is `layer`, not `expected`.
        case goldenLayerKind(number: Int, frame: Int64, layer: LayerName, expected: LayerName)
        /// That layer is at `rect`, not `expected`.
        case goldenLayerRect(number: Int, frame: Int64, layer: LayerName, rect: Timeline.Rect, expected: Timeline.Rect)
        /// That layer (a shadow) is cast as `shadow` (`nil`: nothing said), not `expected`.
        case goldenLayerShadow(number: Int, frame: Int64, layer: LayerName, shadow: Shadow?, expected: Shadow?)
        /// That layer shows `source` (`nil`: a colour), not `expected`.
        case goldenLayerSource(number: Int, frame: Int64, layer: LayerName, source: String?, expected: String?)
        /// From output frame `frame` the screen has `count` layers, the golden `goldenCount`: `layers` are not in the golden.
        case goldenLayersExtra(frame: Int64, count: Int, goldenCount: Int, layers: [LayerName])
        /// From output frame `frame` the screen has `count` layers, the golden `goldenCount`: `layers` are missing.
        case goldenLayersMissing(frame: Int64, count: Int, goldenCount: Int, layers: [LayerName])
        /// The screen layers change `changes` times, the golden's `expected`, first differing at output frame `frame`.
        case goldenLayerChanges(changes: Int, expected: Int, frame: Int64)

        // MARK: The golden's events

        /// Event `number` (from 1, log lines left out) is `event`, the golden's `expected`.
        case goldenEvent(number: Int, event: Event, expected: Event)
        /// Event `number` is not in the golden, which has `goldenCount` events.
        case goldenEventExtra(number: Int, event: Event, goldenCount: Int)
        /// The golden's event `number` is not in the output's log, which ends after `count` events.
        case goldenEventMissing(number: Int, expected: Event, count: Int)
        /// The events could not be compared, for `reason` (why a log could not be read), and `--expect-only events` asked.
        case goldenEventsUnavailable(reason: String)
    }
}

// MARK: - The facts' own types

extension VerifyFinding {
    /// What a frame or a count is compared with: the render's own timeline, or the golden (`--expect`).
    public enum Reference: String, Codable, Hashable, Sendable {
        case timeline, golden
    }

    /// An output's size and rate.
    public struct Format: Codable, Hashable, Sendable {
        public var width: Int
        public var height: Int
        /// As the timeline writes it (`30/1`).
        public var fps: String

        public init(width: Int, height: Int, fps: String) {
            self.width = width
            self.height = height
            self.fps = fps
        }

        init(_ output: Timeline.Output) {
            self.init(width: output.width, height: output.height, fps: output.fps)
        }
    }

    /// A timeline segment by what it plays: an ad of a break, or the content (both indices `nil`).
    public struct Segment: Codable, Hashable, Sendable {
        public var breakIndex: Int?
        public var adIndex: Int?

        public init(breakIndex: Int?, adIndex: Int?) {
            self.breakIndex = breakIndex
            self.adIndex = adIndex
        }

        public init(_ segment: Timeline.Segment) {
            self.init(breakIndex: segment.breakIndex, adIndex: segment.adIndex)
        }

        public static let content = Segment(breakIndex: nil, adIndex: nil)
    }

    /// A frame stamp as read: the test source's id and the frame's index in it.
    public struct Stamp: Codable, Hashable, Sendable {
        public var source: String
        public var frame: Int64

        public init(source: String, frame: Int64) {
            self.source = source
            self.frame = frame
        }

        init(_ stamp: FrameStamp) {
            self.init(source: stamp.sourceID, frame: Int64(stamp.frameIndex))
        }
    }

    /// An output frame and its time, in whole milliseconds (rounded), as `--sources` names frames.
    public struct FrameTime: Codable, Hashable, Sendable {
        public var frame: Int64
        public var milliseconds: Int64

        public init(frame: Int64, milliseconds: Int64) {
            self.frame = frame
            self.milliseconds = milliseconds
        }

        init(_ frame: Int64, rate: FrameRate) {
            self.init(frame: frame, milliseconds: (Rational(frame) * Rational(1000) / rate.perSecond).rounded)
        }
    }

    /// A mean colour in limited-range YUV.
    public struct Color: Codable, Hashable, Sendable {
        public var y: Int
        public var u: Int
        public var v: Int

        public init(y: Int, u: Int, v: Int) {
            self.y = y
            self.u = u
            self.v = v
        }

        init(_ color: YUVColor) {
            self.init(y: Int(color.y), u: Int(color.u), v: Int(color.v))
        }
    }

    /// One way a screen layer's pixels are not its expected picture.
    public enum LayerDifference: Hashable, Sendable {
        /// Inside it, the block at `x`, `y` has the mean colour `found`, not `expected`.
        case inside(x: Int, y: Int, found: Color, expected: Color)
        /// The strips just inside this edge are not the layer's.
        case edgeInside(Verifier.Edge)
        /// The strips just outside this edge look like the layer: it goes on past it.
        case pastEdge(Verifier.Edge)
    }

    /// A sound a segment should have, or was heard to have: a tone (in Hz) or silence.
    public enum Sound: Hashable, Sendable {
        case tone(Double)
        case silence
    }

    /// A break of an HLS render, by its index and output frames `[startFrame, endFrame)`.
    public struct Break: Codable, Hashable, Sendable {
        public var index: Int
        public var startFrame: Int64
        public var endFrame: Int64

        public init(index: Int, startFrame: Int64, endFrame: Int64) {
            self.index = index
            self.startFrame = startFrame
            self.endFrame = endFrame
        }
    }

    /// A screen layer by its kind and scene (`""`: the screen as a whole).
    public struct LayerName: Codable, Hashable, Sendable {
        public var kind: ScreenLayer.Kind
        public var scene: String

        public init(kind: ScreenLayer.Kind, scene: String) {
            self.kind = kind
            self.scene = scene
        }
    }

    /// What casts a shadow layer: its caster's rectangle, and how far out the shadow reaches (px).
    public struct Shadow: Codable, Hashable, Sendable {
        public var caster: Timeline.Rect
        public var reach: Int

        public init(caster: Timeline.Rect, reach: Int) {
            self.caster = caster
            self.reach = reach
        }

        init(_ shadow: ScreenLayer.Shadow) {
            self.init(caster: Timeline.Rect(shadow.caster), reach: shadow.reach)
        }
    }

    /// An event of a log as the golden comparison sees it: its type (`COMPLETE`) and output frame (`nil`: before the
    /// first), and what names its ad, tracking event, command, placement or scene.
    public struct Event: Codable, Hashable, Sendable {
        public var type: String
        public var event: String?
        public var command: String?
        public var breakIndex: Int?
        public var adIndex: Int?
        public var placement: String?
        public var card: Int?
        public var adID: String?
        public var scene: String?
        public var frame: Int64?

        public init(type: String, event: String? = nil, command: String? = nil, breakIndex: Int? = nil, adIndex: Int? = nil,
                    placement: String? = nil, card: Int? = nil, adID: String? = nil, scene: String? = nil, frame: Int64?) {
            self.type = type
            self.event = event
            self.command = command
            self.breakIndex = breakIndex
            self.adIndex = adIndex
            self.placement = placement
            self.card = card
            self.adID = adID
            self.scene = scene
            self.frame = frame
        }
    }
}

// MARK: - Kind, code and subject

extension VerifyFinding.Detail {
    /// The name of each case, as `detail.kind` writes it.
    public enum Kind: String, Codable, CaseIterable, Hashable, Sendable {
        case frameCount, format
        case segmentStarted, segmentStartedAtFrame, frameShifted, sourceShown
        case startsLate, startsEarly, startsAtFrame, sourceNotShown, frameNotOnTick, jumpsAhead, framesLost, shownTwice, fallsBehind
        case contentDiscontinuity
        case layoutRule, layerMismatch, playerStamp, playerFrame, playerNotShown
        case audioMissing, audioChange, audioChangeNotFound, audioSource, soundOffset
        case loudnessLevel, truePeak
        case hlsSegmentDuration, hlsLength, hlsBreakStart, hlsBreakEnd, hlsCueOut, hlsCueIn, hlsDateRangeMissing, hlsStartDate,
             hlsDateRangeSegment, hlsDateRangeDuration, hlsSCTE35Out, hlsSCTE35In, hlsMarkerCount
        case goldenPipStart, goldenPipEnd, goldenPipRect, goldenPipExtra, goldenPipMissing
        case goldenLayersChange, goldenLayerKind, goldenLayerRect, goldenLayerShadow, goldenLayerSource, goldenLayersExtra,
             goldenLayersMissing, goldenLayerChanges
        case goldenEvent, goldenEventExtra, goldenEventMissing, goldenEventsUnavailable

        /// The code of every finding of this kind.
        public var code: VerifyFinding.Code {
            switch self {
            case .frameCount: .outputFrameCount
            case .format: .outputFormat
            case .segmentStarted, .segmentStartedAtFrame, .startsLate, .startsEarly, .startsAtFrame: .framesBoundary
            case .frameShifted, .frameNotOnTick, .jumpsAhead, .framesLost, .shownTwice, .fallsBehind: .framesOffset
            case .sourceShown, .sourceNotShown: .framesSource
            case .contentDiscontinuity: .contentDiscontinuity
            case .layoutRule: .layoutRule
            case .layerMismatch: .layerMismatch
            case .playerStamp, .playerFrame, .playerNotShown: .playerMismatch
            case .audioMissing: .audioMissing
            case .audioChange, .audioChangeNotFound, .soundOffset: .audioOffset
            case .audioSource: .audioSource
            case .loudnessLevel: .loudnessLevel
            case .truePeak: .loudnessTruePeak
            case .hlsSegmentDuration: .hlsSegmentDuration
            case .hlsLength: .hlsLength
            case .hlsBreakStart, .hlsBreakEnd: .hlsBreakBoundary
            case .hlsCueOut: .hlsCueOut
            case .hlsCueIn: .hlsCueIn
            case .hlsDateRangeMissing, .hlsStartDate, .hlsDateRangeSegment, .hlsDateRangeDuration: .hlsDateRange
            case .hlsSCTE35Out, .hlsSCTE35In: .hlsSCTE35
            case .hlsMarkerCount: .hlsMarkerCount
            case .goldenPipStart, .goldenPipEnd, .goldenPipRect, .goldenPipExtra, .goldenPipMissing: .goldenPictureInPicture
            case .goldenLayersChange, .goldenLayerKind, .goldenLayerRect, .goldenLayerShadow, .goldenLayerSource, .goldenLayersExtra,
                 .goldenLayersMissing, .goldenLayerChanges: .goldenLayers
            case .goldenEvent, .goldenEventExtra, .goldenEventMissing: .goldenEvents
            case .goldenEventsUnavailable: .goldenEventsUnavailable
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .frameCount: .frameCount
        case .format: .format
        case .segmentStarted: .segmentStarted
        case .segmentStartedAtFrame: .segmentStartedAtFrame
        case .frameShifted: .frameShifted
        case .sourceShown: .sourceShown
        case .startsLate: .startsLate
        case .startsEarly: .startsEarly
        case .startsAtFrame: .startsAtFrame
        case .sourceNotShown: .sourceNotShown
        case .frameNotOnTick: .frameNotOnTick
        case .jumpsAhead: .jumpsAhead
        case .framesLost: .framesLost
        case .shownTwice: .shownTwice
        case .fallsBehind: .fallsBehind
        case .contentDiscontinuity: .contentDiscontinuity
        case .layoutRule: .layoutRule
        case .layerMismatch: .layerMismatch
        case .playerStamp: .playerStamp
        case .playerFrame: .playerFrame
        case .playerNotShown: .playerNotShown
        case .audioMissing: .audioMissing
        case .audioChange: .audioChange
        case .audioChangeNotFound: .audioChangeNotFound
        case .audioSource: .audioSource
        case .soundOffset: .soundOffset
        case .loudnessLevel: .loudnessLevel
        case .truePeak: .truePeak
        case .hlsSegmentDuration: .hlsSegmentDuration
        case .hlsLength: .hlsLength
        case .hlsBreakStart: .hlsBreakStart
        case .hlsBreakEnd: .hlsBreakEnd
        case .hlsCueOut: .hlsCueOut
        case .hlsCueIn: .hlsCueIn
        case .hlsDateRangeMissing: .hlsDateRangeMissing
        case .hlsStartDate: .hlsStartDate
        case .hlsDateRangeSegment: .hlsDateRangeSegment
        case .hlsDateRangeDuration: .hlsDateRangeDuration
        case .hlsSCTE35Out: .hlsSCTE35Out
        case .hlsSCTE35In: .hlsSCTE35In
        case .hlsMarkerCount: .hlsMarkerCount
        case .goldenPipStart: .goldenPipStart
        case .goldenPipEnd: .goldenPipEnd
        case .goldenPipRect: .goldenPipRect
        case .goldenPipExtra: .goldenPipExtra
        case .goldenPipMissing: .goldenPipMissing
        case .goldenLayersChange: .goldenLayersChange
        case .goldenLayerKind: .goldenLayerKind
        case .goldenLayerRect: .goldenLayerRect
        case .goldenLayerShadow: .goldenLayerShadow
        case .goldenLayerSource: .goldenLayerSource
        case .goldenLayersExtra: .goldenLayersExtra
        case .goldenLayersMissing: .goldenLayersMissing
        case .goldenLayerChanges: .goldenLayerChanges
        case .goldenEvent: .goldenEvent
        case .goldenEventExtra: .goldenEventExtra
        case .goldenEventMissing: .goldenEventMissing
        case .goldenEventsUnavailable: .goldenEventsUnavailable
        }
    }

    /// The kind of problem: its case's.
    public var code: VerifyFinding.Code { kind.code }

    /// What the problem is about, from its facts.
    public var subject: VerifyFinding.Subject {
        switch self {
        case .frameCount, .format, .audioMissing, .hlsLength, .hlsMarkerCount:
            .render
        case .segmentStarted(let frame, _, _, _, _), .segmentStartedAtFrame(let frame, _, _, _, _, _), .frameShifted(let frame, _, _, _),
             .contentDiscontinuity(let frame, _, _), .playerStamp(let frame, _, _, _, _), .playerFrame(let frame, _, _, _, _, _),
             .playerNotShown(let frame, _, _, _, _, _), .audioChange(let frame, _, _), .audioChangeNotFound(let frame, _):
            .frame(frame)
        case .startsLate(let at, _, _, _, _, _), .startsEarly(let at, _, _, _, _, _), .startsAtFrame(let at, _, _, _, _, _, _),
             .frameNotOnTick(let at, _, _, _, _), .jumpsAhead(let at, _, _, _, _, _), .framesLost(let at, _, _, _, _),
             .shownTwice(let at, _, _), .fallsBehind(let at, _, _, _, _, _), .soundOffset(let at, _, _, _, _):
            .frame(at.frame)
        case .sourceShown(let first, let last, _, _, _, _), .audioSource(let first, let last, _, _, _):
            .frames(first: first, last: last)
        case .sourceNotShown(let at, let last, _, _, _, _, _):
            .frames(first: at.frame, last: last)
        case .layoutRule(let frame, let layer, _, _, _), .layerMismatch(let frame, let layer, _, _, _):
            .layer(frame: frame, name: layer)
        case .loudnessLevel(let ad, let start, let end, _, _, _, _), .truePeak(let ad, let start, let end, _, _):
            .ad(LoudnessCheck.Segment.name(of: ad, outStartFrame: start, outEndFrame: end))
        case .hlsSegmentDuration(let segment, _, _):
            .playlistSegment(segment)
        case .hlsBreakStart(let b), .hlsBreakEnd(let b), .hlsCueOut(let b, _, _), .hlsCueIn(let b, _), .hlsDateRangeMissing(let b),
             .hlsStartDate(let b, _, _), .hlsDateRangeSegment(let b, _, _), .hlsDateRangeDuration(let b, _, _),
             .hlsSCTE35Out(let b, _, _, _), .hlsSCTE35In(let b, _, _, _):
            .adBreak(b.index)
        case .goldenPipStart, .goldenPipEnd, .goldenPipRect, .goldenPipExtra, .goldenPipMissing:
            .golden(.pip)
        case .goldenLayersChange, .goldenLayerKind, .goldenLayerRect, .goldenLayerShadow, .goldenLayerSource, .goldenLayersExtra,
             .goldenLayersMissing, .goldenLayerChanges:
            .golden(.layers)
        case .goldenEvent, .goldenEventExtra, .goldenEventMissing, .goldenEventsUnavailable:
            .golden(.events)
        }
    }
}

// MARK: - JSON

/// A key of a detail's object: its `kind`, or the name of one of its values.
struct DetailKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// `{"kind": "framesLost", "at": {"frame": 200, "milliseconds": 6667}, …}`: the case's name, then each of its values by its
/// label; a value that is `nil` is left out.
extension VerifyFinding.Detail: Codable {
    /// The case's values by their labels (`nil` for one that is absent).
    private var fields: [(String, (any Encodable & Sendable)?)] {
        switch self {
        case .frameCount(let found, let expected, let against): [("found", found), ("expected", expected), ("against", against)]
        case .format(let found, let expected): [("found", found), ("expected", expected)]
        case .segmentStarted(let frame, let segment, let resumes, let expectedFrame, let against):
            [("frame", frame), ("segment", segment), ("resumes", resumes), ("expectedFrame", expectedFrame), ("against", against)]
        case .segmentStartedAtFrame(let frame, let segment, let resumes, let shown, let expected, let against):
            [("frame", frame), ("segment", segment), ("resumes", resumes), ("shown", shown), ("expected", expected), ("against", against)]
        case .frameShifted(let frame, let shown, let expected, let against):
            [("frame", frame), ("shown", shown), ("expected", expected), ("against", against)]
        case .sourceShown(let first, let last, let shown, let expected, let segment, let against):
            [("first", first), ("last", last), ("shown", shown), ("expected", expected), ("segment", segment), ("against", against)]
        case .startsLate(let at, let segment, let resumes, let frames, let expectedFrame, let against),
             .startsEarly(let at, let segment, let resumes, let frames, let expectedFrame, let against):
            [("at", at), ("segment", segment), ("resumes", resumes), ("frames", frames), ("expectedFrame", expectedFrame),
             ("against", against)]
        case .startsAtFrame(let at, let segment, let resumes, let shown, let expected, let offset, let against):
            [("at", at), ("segment", segment), ("resumes", resumes), ("shown", shown), ("expected", expected), ("offset", offset),
             ("against", against)]
        case .sourceNotShown(let at, let last, let segment, let source, let expectedFirst, let expectedLast, let against):
            [("at", at), ("last", last), ("segment", segment), ("source", source), ("expectedFirst", expectedFirst),
             ("expectedLast", expectedLast), ("against", against)]
        case .frameNotOnTick(let at, let segment, let shown, let expected, let against):
            [("at", at), ("segment", segment), ("shown", shown), ("expected", expected), ("against", against)]
        case .jumpsAhead(let at, let segment, let frames, let shown, let expected, let against),
             .fallsBehind(let at, let segment, let frames, let shown, let expected, let against):
            [("at", at), ("segment", segment), ("frames", frames), ("shown", shown), ("expected", expected), ("against", against)]
        case .framesLost(let at, let segment, let lost, let shown, let previous):
            [("at", at), ("segment", segment), ("lost", lost), ("shown", shown), ("previous", previous)]
        case .shownTwice(let at, let segment, let shown): [("at", at), ("segment", segment), ("shown", shown)]
        case .contentDiscontinuity(let frame, let tick, let expectedTick): [("frame", frame), ("tick", tick), ("expectedTick", expectedTick)]
        case .layoutRule(let frame, let layer, let rect, let rule, let bound):
            [("frame", frame), ("layer", layer), ("rect", rect), ("rule", rule), ("bound", bound)]
        case .layerMismatch(let frame, let layer, let rect, let differences, let alsoAt):
            [("frame", frame), ("layer", layer), ("rect", rect), ("differences", differences), ("alsoAt", alsoAt)]
        case .playerStamp(let frame, let scene, let kind, let shown, let expected):
            [("frame", frame), ("scene", scene), ("layerKind", kind), ("shown", shown), ("expected", expected)]
        case .playerFrame(let frame, let scene, let kind, let shown, let expected, let source):
            [("frame", frame), ("scene", scene), ("layerKind", kind), ("shown", shown), ("expected", expected), ("source", source)]
        case .playerNotShown(let frame, let scene, let kind, let source, let expected, let picture):
            [("frame", frame), ("scene", scene), ("layerKind", kind), ("source", source), ("expected", expected), ("picture", picture)]
        case .audioMissing: []
        case .audioChange(let frame, let segment, let offsetFrames): [("frame", frame), ("segment", segment), ("offsetFrames", offsetFrames)]
        case .audioChangeNotFound(let frame, let segment): [("frame", frame), ("segment", segment)]
        case .audioSource(let first, let last, let segment, let heard, let expected):
            [("first", first), ("last", last), ("segment", segment), ("heard", heard), ("expected", expected)]
        case .soundOffset(let at, let place, let segment, let milliseconds, let tolerance):
            [("at", at), ("place", place), ("segment", segment), ("milliseconds", milliseconds), ("tolerance", tolerance)]
        case .loudnessLevel(let ad, let start, let end, let measure, let measured, let target, let reached):
            [("ad", ad), ("outStartFrame", start), ("outEndFrame", end), ("measure", measure), ("measured", measured),
             ("target", target), ("reached", reached)]
        case .truePeak(let ad, let start, let end, let truePeak, let ceiling):
            [("ad", ad), ("outStartFrame", start), ("outEndFrame", end), ("truePeak", truePeak), ("ceiling", ceiling)]
        case .hlsSegmentDuration(let segment, let uri, let seconds): [("segment", segment), ("uri", uri), ("seconds", seconds)]
        case .hlsLength(let frames, let expected): [("frames", frames), ("expected", expected)]
        case .hlsBreakStart(let b), .hlsBreakEnd(let b), .hlsDateRangeMissing(let b): [("adBreak", b)]
        case .hlsCueOut(let b, let seconds, let segment): [("adBreak", b), ("seconds", seconds), ("segment", segment)]
        case .hlsCueIn(let b, let segment): [("adBreak", b), ("segment", segment)]
        case .hlsStartDate(let b, let seconds, let expected): [("adBreak", b), ("seconds", seconds), ("expected", expected)]
        case .hlsDateRangeSegment(let b, let segment, let expected): [("adBreak", b), ("segment", segment), ("expected", expected)]
        case .hlsDateRangeDuration(let b, let seconds, let expected): [("adBreak", b), ("seconds", seconds), ("expected", expected)]
        // A cue message as its bytes in base64, as a playlist carries it.
        case .hlsSCTE35Out(let b, let found, let pts, let ticks): [("adBreak", b), ("found", found?.base64), ("pts", pts), ("ticks", ticks)]
        case .hlsSCTE35In(let b, let found, let pts, let segment):
            [("adBreak", b), ("found", found?.base64), ("pts", pts), ("segment", segment)]
        case .hlsMarkerCount(let dateRanges, let cueOuts, let breaks): [("dateRanges", dateRanges), ("cueOuts", cueOuts), ("breaks", breaks)]
        case .goldenPipStart(let window, let rect, let frame, let expected), .goldenPipEnd(let window, let rect, let frame, let expected):
            [("window", window), ("rect", rect), ("frame", frame), ("expected", expected)]
        case .goldenPipRect(let window, let frame, let rect, let expected):
            [("window", window), ("frame", frame), ("rect", rect), ("expected", expected)]
        case .goldenPipExtra(let window, let rect, let first, let last, let goldenCount):
            [("window", window), ("rect", rect), ("first", first), ("last", last), ("goldenCount", goldenCount)]
        case .goldenPipMissing(let window, let rect, let first, let last, let count):
            [("window", window), ("rect", rect), ("first", first), ("last", last), ("count", count)]
        case .goldenLayersChange(let frame, let expected): [("frame", frame), ("expected", expected)]
        case .goldenLayerKind(let number, let frame, let layer, let expected):
            [("number", number), ("frame", frame), ("layer", layer), ("expected", expected)]
        case .goldenLayerRect(let number, let frame, let layer, let rect, let expected):
            [("number", number), ("frame", frame), ("layer", layer), ("rect", rect), ("expected", expected)]
        case .goldenLayerShadow(let number, let frame, let layer, let shadow, let expected):
            [("number", number), ("frame", frame), ("layer", layer), ("shadow", shadow), ("expected", expected)]
        case .goldenLayerSource(let number, let frame, let layer, let source, let expected):
            [("number", number), ("frame", frame), ("layer", layer), ("source", source), ("expected", expected)]
        case .goldenLayersExtra(let frame, let count, let goldenCount, let layers),
             .goldenLayersMissing(let frame, let count, let goldenCount, let layers):
            [("frame", frame), ("count", count), ("goldenCount", goldenCount), ("layers", layers)]
        case .goldenLayerChanges(let changes, let expected, let frame): [("changes", changes), ("expected", expected), ("frame", frame)]
        case .goldenEvent(let number, let event, let expected): [("number", number), ("event", event), ("expected", expected)]
        case .goldenEventExtra(let number, let event, let goldenCount): [("number", number), ("event", event), ("goldenCount", goldenCount)]
        case .goldenEventMissing(let number, let expected, let count): [("number", number), ("expected", expected), ("count", count)]
        case .goldenEventsUnavailable(let reason): [("reason", reason)]
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DetailKey.self)
        try c.encode(kind, forKey: DetailKey("kind"))
        for (name, value) in fields {
            if let value { try c.encode(value, forKey: DetailKey(name)) }
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: DetailKey.self)
        func value<T: Decodable>(_ name: String) throws -> T { try c.decode(T.self, forKey: DetailKey(name)) }
        func optional<T: Decodable>(_ name: String) throws -> T? { try c.decodeIfPresent(T.self, forKey: DetailKey(name)) }
        func splice(_ name: String) throws -> SpliceInfoSection? {
            guard let text = try c.decodeIfPresent(String.self, forKey: DetailKey(name)) else { return nil }
            do { return try SpliceInfoSection(encoded: text) } catch {
                throw DecodingError.dataCorruptedError(forKey: DetailKey(name), in: c, debugDescription: error.description)
            }
        }
        switch try c.decode(Kind.self, forKey: DetailKey("kind")) {
        case .frameCount: self = .frameCount(found: try value("found"), expected: try value("expected"), against: try value("against"))
        case .format: self = .format(found: try value("found"), expected: try value("expected"))
        case .segmentStarted:
            self = .segmentStarted(frame: try value("frame"), segment: try value("segment"), resumes: try value("resumes"),
                                   expectedFrame: try value("expectedFrame"), against: try value("against"))
        case .segmentStartedAtFrame:
            self = .segmentStartedAtFrame(frame: try value("frame"), segment: try value("segment"), resumes: try value("resumes"),
                                          shown: try value("shown"), expected: try value("expected"), against: try value("against"))
        case .frameShifted:
            self = .frameShifted(frame: try value("frame"), shown: try value("shown"), expected: try value("expected"),
                                 against: try value("against"))
        case .sourceShown:
            self = .sourceShown(first: try value("first"), last: try value("last"), shown: try optional("shown"),
                                expected: try value("expected"), segment: try value("segment"), against: try value("against"))
        case .startsLate:
            self = .startsLate(at: try value("at"), segment: try value("segment"), resumes: try value("resumes"), frames: try value("frames"),
                               expectedFrame: try value("expectedFrame"), against: try value("against"))
        case .startsEarly:
            self = .startsEarly(at: try value("at"), segment: try value("segment"), resumes: try value("resumes"), frames: try value("frames"),
                                expectedFrame: try value("expectedFrame"), against: try value("against"))
        case .startsAtFrame:
            self = .startsAtFrame(at: try value("at"), segment: try value("segment"), resumes: try value("resumes"), shown: try value("shown"),
                                  expected: try value("expected"), offset: try value("offset"), against: try value("against"))
        case .sourceNotShown:
            self = .sourceNotShown(at: try value("at"), last: try value("last"), segment: try value("segment"), source: try value("source"),
                                   expectedFirst: try value("expectedFirst"), expectedLast: try value("expectedLast"),
                                   against: try value("against"))
        case .frameNotOnTick:
            self = .frameNotOnTick(at: try value("at"), segment: try value("segment"), shown: try value("shown"),
                                   expected: try value("expected"), against: try value("against"))
        case .jumpsAhead:
            self = .jumpsAhead(at: try value("at"), segment: try value("segment"), frames: try value("frames"), shown: try value("shown"),
                               expected: try value("expected"), against: try value("against"))
        case .framesLost:
            self = .framesLost(at: try value("at"), segment: try value("segment"), lost: try value("lost"), shown: try value("shown"),
                               previous: try value("previous"))
        case .shownTwice: self = .shownTwice(at: try value("at"), segment: try value("segment"), shown: try value("shown"))
        case .fallsBehind:
            self = .fallsBehind(at: try value("at"), segment: try value("segment"), frames: try value("frames"), shown: try value("shown"),
                                expected: try value("expected"), against: try value("against"))
        case .contentDiscontinuity:
            self = .contentDiscontinuity(frame: try value("frame"), tick: try value("tick"), expectedTick: try value("expectedTick"))
        case .layoutRule:
            self = .layoutRule(frame: try value("frame"), layer: try value("layer"), rect: try value("rect"), rule: try value("rule"),
                               bound: try value("bound"))
        case .layerMismatch:
            self = .layerMismatch(frame: try value("frame"), layer: try value("layer"), rect: try value("rect"),
                                  differences: try value("differences"), alsoAt: try value("alsoAt"))
        case .playerStamp:
            self = .playerStamp(frame: try value("frame"), scene: try value("scene"), kind: try value("layerKind"), shown: try optional("shown"),
                                expected: try value("expected"))
        case .playerFrame:
            self = .playerFrame(frame: try value("frame"), scene: try value("scene"), kind: try value("layerKind"), shown: try value("shown"),
                                expected: try value("expected"), source: try value("source"))
        case .playerNotShown:
            self = .playerNotShown(frame: try value("frame"), scene: try value("scene"), kind: try value("layerKind"),
                                   source: try value("source"), expected: try value("expected"), picture: try value("picture"))
        case .audioMissing: self = .audioMissing
        case .audioChange:
            self = .audioChange(frame: try value("frame"), segment: try value("segment"), offsetFrames: try value("offsetFrames"))
        case .audioChangeNotFound: self = .audioChangeNotFound(frame: try value("frame"), segment: try value("segment"))
        case .audioSource:
            self = .audioSource(first: try value("first"), last: try value("last"), segment: try value("segment"), heard: try optional("heard"),
                                expected: try value("expected"))
        case .soundOffset:
            self = .soundOffset(at: try value("at"), place: try value("place"), segment: try value("segment"),
                                milliseconds: try value("milliseconds"), tolerance: try value("tolerance"))
        case .loudnessLevel:
            self = .loudnessLevel(ad: try value("ad"), outStartFrame: try value("outStartFrame"), outEndFrame: try value("outEndFrame"),
                                  measure: try value("measure"), measured: try value("measured"), target: try value("target"),
                                  reached: try optional("reached"))
        case .truePeak:
            self = .truePeak(ad: try value("ad"), outStartFrame: try value("outStartFrame"), outEndFrame: try value("outEndFrame"),
                             truePeak: try value("truePeak"), ceiling: try value("ceiling"))
        case .hlsSegmentDuration:
            self = .hlsSegmentDuration(segment: try value("segment"), uri: try value("uri"), seconds: try value("seconds"))
        case .hlsLength: self = .hlsLength(frames: try value("frames"), expected: try value("expected"))
        case .hlsBreakStart: self = .hlsBreakStart(adBreak: try value("adBreak"))
        case .hlsBreakEnd: self = .hlsBreakEnd(adBreak: try value("adBreak"))
        case .hlsCueOut: self = .hlsCueOut(adBreak: try value("adBreak"), seconds: try value("seconds"), segment: try value("segment"))
        case .hlsCueIn: self = .hlsCueIn(adBreak: try value("adBreak"), segment: try value("segment"))
        case .hlsDateRangeMissing: self = .hlsDateRangeMissing(adBreak: try value("adBreak"))
        case .hlsStartDate: self = .hlsStartDate(adBreak: try value("adBreak"), seconds: try value("seconds"), expected: try value("expected"))
        case .hlsDateRangeSegment:
            self = .hlsDateRangeSegment(adBreak: try value("adBreak"), segment: try value("segment"), expected: try value("expected"))
        case .hlsDateRangeDuration:
            self = .hlsDateRangeDuration(adBreak: try value("adBreak"), seconds: try optional("seconds"), expected: try value("expected"))
        case .hlsSCTE35Out:
            self = .hlsSCTE35Out(adBreak: try value("adBreak"), found: try splice("found"), pts: try value("pts"), ticks: try value("ticks"))
        case .hlsSCTE35In:
            self = .hlsSCTE35In(adBreak: try value("adBreak"), found: try splice("found"), pts: try value("pts"), segment: try value("segment"))
        case .hlsMarkerCount:
            self = .hlsMarkerCount(dateRanges: try value("dateRanges"), cueOuts: try value("cueOuts"), breaks: try value("breaks"))
        case .goldenPipStart:
            self = .goldenPipStart(window: try value("window"), rect: try value("rect"), frame: try value("frame"), expected: try value("expected"))
        case .goldenPipEnd:
            self = .goldenPipEnd(window: try value("window"), rect: try value("rect"), frame: try value("frame"), expected: try value("expected"))
        case .goldenPipRect:
            self = .goldenPipRect(window: try value("window"), frame: try value("frame"), rect: try value("rect"), expected: try value("expected"))
        case .goldenPipExtra:
            self = .goldenPipExtra(window: try value("window"), rect: try value("rect"), first: try value("first"), last: try value("last"),
                                   goldenCount: try value("goldenCount"))
        case .goldenPipMissing:
            self = .goldenPipMissing(window: try value("window"), rect: try value("rect"), first: try value("first"), last: try value("last"),
                                     count: try value("count"))
        case .goldenLayersChange: self = .goldenLayersChange(frame: try value("frame"), expected: try value("expected"))
        case .goldenLayerKind:
            self = .goldenLayerKind(number: try value("number"), frame: try value("frame"), layer: try value("layer"),
                                    expected: try value("expected"))
        case .goldenLayerRect:
            self = .goldenLayerRect(number: try value("number"), frame: try value("frame"), layer: try value("layer"), rect: try value("rect"),
                                    expected: try value("expected"))
        case .goldenLayerShadow:
            self = .goldenLayerShadow(number: try value("number"), frame: try value("frame"), layer: try value("layer"),
                                      shadow: try optional("shadow"), expected: try optional("expected"))
        case .goldenLayerSource:
            self = .goldenLayerSource(number: try value("number"), frame: try value("frame"), layer: try value("layer"),
                                      source: try optional("source"), expected: try optional("expected"))
        case .goldenLayersExtra:
            self = .goldenLayersExtra(frame: try value("frame"), count: try value("count"), goldenCount: try value("goldenCount"),
                                      layers: try value("layers"))
        case .goldenLayersMissing:
            self = .goldenLayersMissing(frame: try value("frame"), count: try value("count"), goldenCount: try value("goldenCount"),
                                        layers: try value("layers"))
        case .goldenLayerChanges:
            self = .goldenLayerChanges(changes: try value("changes"), expected: try value("expected"), frame: try value("frame"))
        case .goldenEvent: self = .goldenEvent(number: try value("number"), event: try value("event"), expected: try value("expected"))
        case .goldenEventExtra:
            self = .goldenEventExtra(number: try value("number"), event: try value("event"), goldenCount: try value("goldenCount"))
        case .goldenEventMissing:
            self = .goldenEventMissing(number: try value("number"), expected: try value("expected"), count: try value("count"))
        case .goldenEventsUnavailable: self = .goldenEventsUnavailable(reason: try value("reason"))
        }
    }
}

/// `{"kind": "inside", "x": …, "y": …, "found": {"y", "u", "v"}, "expected": …}`, `{"kind": "edgeInside", "edge": "left"}`
/// or `{"kind": "pastEdge", "edge": "left"}`.
extension VerifyFinding.LayerDifference: Codable {
    enum CodingKeys: String, CodingKey { case kind, x, y, found, expected, edge }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "inside":
            self = .inside(x: try c.decode(Int.self, forKey: .x), y: try c.decode(Int.self, forKey: .y),
                           found: try c.decode(VerifyFinding.Color.self, forKey: .found),
                           expected: try c.decode(VerifyFinding.Color.self, forKey: .expected))
        case "edgeInside": self = .edgeInside(try c.decode(Verifier.Edge.self, forKey: .edge))
        case "pastEdge": self = .pastEdge(try c.decode(Verifier.Edge.self, forKey: .edge))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "not a kind of layer difference: \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inside(let x, let y, let found, let expected):
            try c.encode("inside", forKey: .kind)
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
            try c.encode(found, forKey: .found)
            try c.encode(expected, forKey: .expected)
        case .edgeInside(let edge):
            try c.encode("edgeInside", forKey: .kind)
            try c.encode(edge, forKey: .edge)
        case .pastEdge(let edge):
            try c.encode("pastEdge", forKey: .kind)
            try c.encode(edge, forKey: .edge)
        }
    }
}

/// `{"kind": "tone", "hertz": 440}` or `{"kind": "silence"}`.
extension VerifyFinding.Sound: Codable {
    enum CodingKeys: String, CodingKey { case kind, hertz }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "tone": self = .tone(try c.decode(Double.self, forKey: .hertz))
        case "silence": self = .silence
        case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "not a kind of sound: \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .tone(let hertz):
            try c.encode("tone", forKey: .kind)
            try c.encode(hertz, forKey: .hertz)
        case .silence:
            try c.encode("silence", forKey: .kind)
        }
    }
}
