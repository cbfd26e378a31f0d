import AdPlayback
import MediaCore

/// Which output frames a report shows as thumbnails: the first and last frame of every row of the runs table
/// (`RunRows`: a segment, a run of one source in one place, with the one-frame segments after it; a change of the
/// screen's layout starts a new segment, so each screen change is a first frame too), at most `limit` of them.
///
/// The limit keeps a 2-hour render's report small (about 5 KB a thumbnail, so under 1 MB of pictures) and its
/// decoding bounded. Past it, the ad segments' frames are kept first (the splices people look for), then the rest,
/// each group thinned evenly over the render.
enum ThumbnailPlan {
    /// The most thumbnails a report holds (documented in `pipctl report --help` and docs/REPORT.md).
    static let limit = 120
    /// Their width in pixels.
    static let width = 192

    /// The frames of `timeline` to show, sorted, at most `limit`.
    static func frames(_ timeline: Timeline, limit: Int = ThumbnailPlan.limit) -> [Int64] {
        var ads: Set<Int64> = [], others: Set<Int64> = []
        for row in RunRows.rows(timeline.segments) {
            let first = timeline.segments[row.lowerBound], last = timeline.segments[row.upperBound - 1]
            guard last.outEndFrame > first.outStartFrame else { continue }
            let ends = [first.outStartFrame, last.outEndFrame - 1]
            if first.kind == .ad { ads.formUnion(ends) } else { others.formUnion(ends) }
        }
        others.subtract(ads)
        let keptAds = thinned(ads.sorted(), to: limit)
        let keptOthers = thinned(others.sorted(), to: limit - keptAds.count)
        return (keptAds + keptOthers).sorted()
    }

    /// The part of each of `frames` (sorted) a thumbnail shows: on a device render, the display of the segment
    /// that holds it (the bezel and the canvas around it left out); elsewhere nothing (the whole frame).
    static func displays(_ timeline: Timeline, frames: [Int64]) -> [Int64: PixelRect] {
        var crops: [Int64: PixelRect] = [:]
        var i = 0
        for frame in frames {
            while i < timeline.segments.count, timeline.segments[i].outEndFrame <= frame { i += 1 }
            guard i < timeline.segments.count, timeline.segments[i].outStartFrame <= frame,
                  let display = timeline.segments[i].screen.display else { continue }
            crops[frame] = display.pixelRect
        }
        return crops
    }

    /// `count` of `frames`, evenly spread, the first and last kept.
    static func thinned(_ frames: [Int64], to count: Int) -> [Int64] {
        guard count > 0 else { return [] }
        guard frames.count > count else { return frames }
        if count == 1 { return [frames[0]] }
        return (0..<count).map { frames[$0 * (frames.count - 1) / (count - 1)] }
    }
}
