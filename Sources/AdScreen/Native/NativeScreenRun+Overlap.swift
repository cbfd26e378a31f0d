import AdPlayback
import MediaCore

extension NativeScreenRun.Outcome {
    /// Two placements of one scene drawn over each other: each spans its scene's safe area across, from its `top`
    /// down by its height (the placeholder's while loading, the slider's once loaded), so they overlap when those
    /// spans cross. Neither the stitcher nor verify has a rule for which one is on top, so a render refuses it.
    public struct Overlap: Hashable, Sendable {
        /// The placement declared later (whose `top` moves it clear), and the one it overlaps.
        public let placement: NativePlacement
        public let other: NativePlacement
        /// The first output time at which both are drawn over each other.
        public let time: MediaTime
        /// Each one's span, in points below the top of the scene's safe area.
        public let span: Range<Int>
        public let otherSpan: Range<Int>
    }

    /// The first overlap of two placements of one scene, checked at every time the placements or the screen change
    /// (loads landing, the screen turning or folding); `nil` when they never overlap.
    public func firstOverlap() -> Overlap? {
        let times = Set(snapshots.map(\.time) + run.screen.changes.map(\.time)).sorted()
        for time in times {
            let sliders = sliders(at: time)
            var spans: [(p: Int, span: Range<Int>)] = []
            for p in run.placements.indices {
                guard let span = run.span(of: p, sliders[p], at: time) else { continue }
                if let earlier = spans.first(where: { run.placements[$0.p].scene == run.placements[p].scene && $0.span.overlaps(span) }) {
                    return Overlap(placement: run.placements[p], other: run.placements[earlier.p], time: time,
                                   span: span, otherSpan: earlier.span)
                }
                spans.append((p, span))
            }
        }
        return nil
    }
}

extension NativeScreenRun {
    /// Placement `p`'s span at `time`, in points below its scene's safe-area top: the placeholder's while it
    /// loads, the slider's once loaded; `nil` when nothing of it is drawn (idle, failed, off screen, unbound).
    func span(of p: Int, _ slider: SliderState, at time: MediaTime) -> Range<Int>? {
        let placement = placements[p]
        guard screen.state(at: time).layout(of: placement.scene) != nil else { return nil }
        let height: Int
        if slider.phase == .loading {
            height = 2 * placement.template.padding + placement.template.iconSize
        } else if let layout = layout(of: p, slider, at: time) {
            height = layout.frame.height
        } else {
            return nil
        }
        return height > 0 ? placement.top..<(placement.top + height) : nil
    }
}

extension NativeScreenRun.Evaluation {
    /// `play`: while two placements of one scene are drawn over each other at `t` (a load began or landed, or the
    /// screen changed their width), the one whose phase changed last (the newer load; the later declared on a tie)
    /// is not shown: a `LOG` with reason `refused` naming the other, and it is `idle` again (a load under way is
    /// dropped, its answer ignored; a `load slider` may try again). True when one was refused.
    mutating func refuseOverlaps(at t: MediaTime) -> Bool {
        var refused = false
        while let (newer, older) = overlap(at: t) {
            refused = true
            let placement = run.placements[newer.p], other = run.placements[older.p]
            if sliders[newer.p].phase == .loading {
                loads.pending.removeAll { $0.index == newer.p }
                loads.states[newer.p].cancel(placement.source)
            }
            sliders[newer.p] = NativeScreenRun.SliderState(imagesLoaded: sliders[newer.p].imagesLoaded)
            shown = shown.filter { $0.value != placement.id }
            counted.forget(placement: newer.p)
            events.append(event(t, newer.p, .refused(
                "native placement \"\(placement.id.excerpt)\" is not shown: it would be drawn over \"\(other.id.excerpt)\" "
                    + "in scene \"\(placement.scene.description.excerpt)\" (\(newer.span.lowerBound) to \(newer.span.upperBound) pt and "
                    + "\(older.span.lowerBound) to \(older.span.upperBound) pt below the safe area's top)")))
            phase(t, newer.p, .idle)
        }
        return refused
    }

    /// Two placements of one scene drawn over each other at `t` as they stand, the newer first, with their spans.
    private func overlap(at t: MediaTime) -> (newer: (p: Int, span: Range<Int>), older: (p: Int, span: Range<Int>))? {
        var spans: [(p: Int, span: Range<Int>)] = []
        for p in run.placements.indices {
            guard let span = run.span(of: p, sliders[p], at: t) else { continue }
            if let other = spans.first(where: { run.placements[$0.p].scene == run.placements[p].scene && $0.span.overlaps(span) }) {
                let this: (p: Int, span: Range<Int>) = (p, span)
                return phaseChanged[other.p] > phaseChanged[p] ? (newer: other, older: this) : (newer: this, older: other)
            }
            spans.append((p, span))
        }
        return nil
    }
}
