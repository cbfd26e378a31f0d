import Foundation
import MediaCore

/// An ad break of a render as the playlist marks it, in output frames.
public struct HLSAdBreak: Hashable, Sendable {
    /// The plan's break index; the cue's `splice_event_id` is this plus one, the date range's ID `break-N`.
    public var index: Int
    public var startFrame: Int64
    public var endFrame: Int64
    /// What the plan expected the break to last (its ads' declared durations), when known.
    public var plannedDuration: Rational?
    /// Where the splice's presentation times come from.
    public var splice: SpliceTimes

    /// The presentation times (90 kHz) of a break's `splice_insert`s, leaving the content and coming back to it.
    public enum SpliceTimes: Hashable, Sendable {
        /// The output clock's times of `startFrame` and `endFrame`, as a render's one clock runs through its breaks.
        case outputClock
        /// The content's own timestamps, for a stream whose clock is not one line through its breaks (a stitched
        /// stream, where the content keeps its timestamps around each ad): the time at the cut, on the clock of the
        /// content before it (`leaves`) and after it (`returns`). The two are the same unless the content's clock
        /// restarts at the break (an origin's `EXT-X-DISCONTINUITY` there).
        case content(leaves: Int64, returns: Int64)
    }

    public init(index: Int, startFrame: Int64, endFrame: Int64, plannedDuration: Rational? = nil, splice: SpliceTimes = .outputClock) {
        self.index = index
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.plannedDuration = plannedDuration
        self.splice = splice
    }

    /// The `splice_insert` times as MPEG-TS carries them (33 bits), `outputClock` giving each frame's.
    func spliceTimes(outputClock pts: (Int64) -> UInt64) -> (leaves: UInt64, returns: UInt64) {
        func wrapped(_ pts: Int64) -> UInt64 { UInt64(pts & ((1 << 33) - 1)) }
        switch splice {
        case .outputClock: return (pts(startFrame), pts(endFrame))
        case .content(let leaves, let returns): return (wrapped(leaves), wrapped(returns))
        }
    }
}

/// A segment file of a render, in output frames.
public struct HLSSegmentSpan: Hashable, Sendable {
    public var uri: String
    public var startFrame: Int64
    public var frameCount: Int64

    public init(uri: String, startFrame: Int64, frameCount: Int64) {
        self.uri = uri
        self.startFrame = startFrame
        self.frameCount = frameCount
    }
}

extension HLSMediaPlaylist {
    /// The playlist of a render's segments with each break marked where it starts and where the content returns:
    ///
    /// - before the break's first segment: `EXT-X-DATERANGE` (ID `break-N`, `START-DATE`, `DURATION`, and
    ///   `PLANNED-DURATION` when known) with `SCTE35-OUT`, a `splice_insert` leaving the network at the break's PTS
    ///   with its duration, then `EXT-X-CUE-OUT:<duration>`;
    /// - before the first segment after it: `EXT-X-CUE-IN` and the same date range again with `SCTE35-IN`, the
    ///   `splice_insert` returning at the break's end. A break that ends the stream has no return to mark.
    ///
    /// Dates count from `origin` on the output clock (`EXT-X-PROGRAM-DATE-TIME` of the first segment); PTS values
    /// add `ptsOffset` (90 kHz), the container's first presentation time, or are the break's own (`splice`).
    ///
    /// - Precondition: every break starts and ends on a segment boundary (or the stream's end).
    public static func withAdMarkers(_ spans: [HLSSegmentSpan], breaks: [HLSAdBreak], frameRate: FrameRate, map: String?,
                                     origin: Date, ptsOffset: Int64 = 0) -> HLSMediaPlaylist {
        func seconds(_ frames: Int64) -> Rational { Rational(frames) / frameRate.perSecond }
        func ticks(_ frames: Int64) -> UInt64 { UInt64((seconds(frames) * Rational(SpliceInfoSection.clockRate)).rounded) }
        func pts(_ frame: Int64) -> UInt64 { ticks(frame) + UInt64(ptsOffset) }
        func date(_ frame: Int64) -> String { HLSAttributes.date(origin.addingTimeInterval(seconds(frame).doubleValue)) }
        var segments = spans.map { Segment(uri: $0.uri, duration: seconds($0.frameCount)) }
        for b in breaks {
            guard let first = spans.firstIndex(where: { $0.startFrame == b.startFrame }) else {
                preconditionFailure("break \(b.index) starts at frame \(b.startFrame), inside a segment")
            }
            let length = b.endFrame - b.startFrame, times = b.spliceTimes(outputClock: pts)
            let id = "ID=\(HLSAttributes.quoted("break-\(b.index)")),START-DATE=\(HLSAttributes.quoted(date(b.startFrame)))"
            let cueOut = SpliceInfoSection(command: .spliceInsert(.init(
                eventID: UInt32(b.index + 1), outOfNetwork: true, pts: times.leaves,
                breakDuration: .init(autoReturn: true, duration: ticks(length)))))
            var out = "#EXT-X-DATERANGE:\(id),DURATION=\(HLSAttributes.decimal(seconds(length)))"
            if let planned = b.plannedDuration { out += ",PLANNED-DURATION=\(HLSAttributes.decimal(planned))" }
            segments[first].tags += [out + ",SCTE35-OUT=\(cueOut.hexadecimal)", "#EXT-X-CUE-OUT:\(HLSAttributes.decimal(seconds(length)))"]
            guard let after = spans.firstIndex(where: { $0.startFrame == b.endFrame }) else {
                precondition(b.endFrame == (spans.last.map { $0.startFrame + $0.frameCount } ?? 0),
                             "break \(b.index) ends at frame \(b.endFrame), inside a segment")
                continue
            }
            let cueIn = SpliceInfoSection(command: .spliceInsert(.init(eventID: UInt32(b.index + 1), outOfNetwork: false,
                                                                       pts: times.returns)))
            segments[after].tags += ["#EXT-X-CUE-IN", "#EXT-X-DATERANGE:\(id),SCTE35-IN=\(cueIn.hexadecimal)"]
        }
        return HLSMediaPlaylist(map: map, segments: segments, programDateTime: origin)
    }
}
