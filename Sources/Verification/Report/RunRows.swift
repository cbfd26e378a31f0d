import AdPlayback

/// The rows of the runs table: each a range of segments. A segment of one frame (a frame of a swipe or a
/// transition) joins the row before it when it shows the same thing (same kind, source, break and ad) and touches
/// it, so that an animation is one row with its first and last frame, not one row (and two thumbnails) a frame.
enum RunRows {
    static func rows(_ segments: [Timeline.Segment]) -> [Range<Int>] {
        var rows: [Range<Int>] = []
        rows.reserveCapacity(segments.count)
        for (i, segment) in segments.enumerated() {
            if segment.outEndFrame - segment.outStartFrame == 1, let row = rows.last {
                let previous = segments[row.upperBound - 1]
                if previous.outEndFrame == segment.outStartFrame, previous.kind == segment.kind, previous.source == segment.source,
                   previous.breakIndex == segment.breakIndex, previous.adIndex == segment.adIndex {
                    rows[rows.count - 1] = row.lowerBound..<(i + 1)
                    continue
                }
            }
            rows.append(i..<(i + 1))
        }
        return rows
    }

    /// What changed over a row's segments: each part once, in order, with how many of its runs it was said of
    /// (`cards swiped ×6`).
    static func changes(_ row: Range<Int>, _ changes: [String]) -> String {
        var order: [String] = [], counts: [String: Int] = [:]
        for i in row where i < changes.count {
            for part in changes[i].components(separatedBy: "; ") where !part.isEmpty {
                if counts[part] == nil { order.append(part) }
                counts[part, default: 0] += 1
            }
        }
        return order.map { counts[$0, default: 1] > 1 ? "\($0) ×\(counts[$0, default: 1])" : $0 }.joined(separator: "; ")
    }
}
