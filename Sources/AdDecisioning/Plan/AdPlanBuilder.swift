import MediaCore

/// Places break drafts on the content clock and builds the `AdPlan`.
///
/// Placement rules:
/// - `start`, `00:00:00`, `0%` and `pre` are the pre-roll; `end`, `100%` and `post` the post-roll.
/// - A time strictly inside the content is a mid-roll at that time. `n%` is a mid-roll at that fraction of the
///   content's duration, and needs it: without a duration such breaks are left out with an error, as IMA
///   ignores percentage offsets when `contentDuration` is not set.
/// - A mid-roll at or past the end of the content is left out with an error, not moved to the post-roll: IMA
///   plays a mid-roll only when the content playhead reaches its cue point and starts the post-roll on
///   `contentComplete`; a cue point past the end is never reached (ExoPlayer issue #5534: the player waits for it
///   at the end of the content). Write `end`/`post` for a post-roll.
/// - VMAP `#n` is the n-th ad break opportunity of the content: the n-th of `cuePoints` (1-based), placed by the
///   rules above. VMAP 1.0 honours positions only when no other offset form is used, so with a mix, or without
///   enough cue points, `#n` breaks are left out with an error.
/// - `repeatAfter` repeats a pre-roll or mid-roll every interval after its first time, as mid-rolls strictly
///   before the content's end; it needs the content duration (without it the break plays once, with an error).
/// - Breaks at the same position with the same `breakId` are one break: ads, tracking, fallbacks and replacement
///   notes concatenated in document order, as Google writes pods as several `AdBreak`s.
/// - At most `maximumBreaks` breaks; repeats and breaks beyond are left out with an error.
/// Placement errors use code 200 (trafficking: the break was trafficked where this content cannot play it) and
/// carry the break's VMAP `error` tracking URLs.
struct AdPlanBuilder {
    var contentDuration: MediaDuration?
    var cuePoints: [MediaTime] = []
    var maximumBreaks = 10_000

    private struct Key: Hashable {
        var position: BreakPosition
        var mergeKey: String
    }

    func build(_ drafts: [BreakDraft], errors inputErrors: [AdError]) -> AdPlan {
        var errors = inputErrors
        let usesOtherOffsets = drafts.contains { if case .position = $0.offset { false } else { true } }

        var placed: [(position: BreakPosition, draft: BreakDraft)] = []
        var limitReported = false
        func add(_ position: BreakPosition, _ draft: BreakDraft) -> Bool {
            guard placed.count < maximumBreaks else {
                if !limitReported {
                    errors.append(AdError(.trafficking, "\(draft.label): more than \(maximumBreaks) breaks; the rest are left out",
                                          errorURLs: draft.errorURLs))
                    limitReported = true
                }
                return false
            }
            placed.append((position, draft))
            return true
        }

        for draft in drafts where !draft.ads.isEmpty {
            let position: BreakPosition
            switch place(draft.offset, mixedWithOtherOffsets: usesOtherOffsets) {
            case .success(let p): position = p
            case .failure(let failure):
                errors.append(AdError(.trafficking, "\(draft.label) left out: \(failure.reason)", errorURLs: draft.errorURLs))
                continue
            }
            guard add(position, draft) else { continue }
            guard let interval = draft.repeatAfter, position != .postroll else { continue }
            guard let end = contentDuration else {
                errors.append(AdError(.trafficking, "\(draft.label): repeatAfter needs the content duration; played once",
                                      errorURLs: draft.errorURLs))
                continue
            }
            var time = MediaTime.zero
            if case .midroll(let first) = position { time = first }
            while true {
                time = time + interval
                guard time.seconds < end.seconds, add(.midroll(time), draft) else { break }
            }
        }

        // Merge in document order; a break keeps the place of its first draft.
        var keyed: [Key: Int] = [:]
        var merged: [(position: BreakPosition, draft: BreakDraft)] = []
        for (position, draft) in placed {
            if let key = draft.mergeKey.map({ Key(position: position, mergeKey: $0) }) {
                if let index = keyed[key] {
                    merged[index].draft.ads += draft.ads
                    merged[index].draft.tracking += draft.tracking
                    merged[index].draft.fallbacks += draft.fallbacks
                    merged[index].draft.replacements += draft.replacements
                    continue
                }
                keyed[key] = merged.count
            }
            merged.append((position, draft))
        }

        // Sorted exactly as `AdPlan.init` sorts (stable by position), so indexes below match the plan's.
        let ordered = merged.enumerated().sorted {
            $0.element.position == $1.element.position ? $0.offset < $1.offset : $0.element.position < $1.element.position
        }.map(\.element)
        var plan = AdPlan(breaks: ordered.map { position, draft in
            AdBreak(id: draft.breakId, position: position, breakType: draft.breakType, tracking: draft.tracking,
                    ads: draft.ads.map(\.ad), fallbacks: draft.fallbacks, replacements: draft.replacements)
        }, errors: errors)
        for (b, item) in ordered.enumerated() {
            for (a, ad) in item.draft.ads.enumerated() {
                if let error = ad.error { try? plan.markFailed(breakIndex: b, adIndex: a, error: error) }
            }
        }
        return plan
    }

    /// The position of a break, or why it cannot be placed.
    func place(_ offset: BreakOffset, mixedWithOtherOffsets: Bool) -> Result<BreakPosition, PlacementFailure> {
        switch offset {
        case .start: return .success(.preroll)
        case .end: return .success(.postroll)
        case .time(let t): return place(time: t)
        case .fraction(let f):
            if f.isZero { return .success(.preroll) }
            if f == .one { return .success(.postroll) }
            guard let duration = contentDuration else {
                return .failure(PlacementFailure("\(offset) needs the content duration"))
            }
            return place(time: MediaTime(seconds: (duration * f).seconds))
        case .position(let n):
            if mixedWithOtherOffsets {
                return .failure(PlacementFailure("position #\(n) is not honoured when the VMAP also uses other timeOffset forms (VMAP 1.0)"))
            }
            guard n <= cuePoints.count else {
                return .failure(PlacementFailure("position #\(n) needs the content's ad break opportunities (cue points); \(cuePoints.count) known"))
            }
            return place(time: cuePoints[n - 1])
        }
    }

    private func place(time t: MediaTime) -> Result<BreakPosition, PlacementFailure> {
        if t.seconds.isZero { return .success(.preroll) }
        if let duration = contentDuration, t.seconds >= duration.seconds {
            return .failure(PlacementFailure("mid-roll at \(t) is at or after the end of the content (\(duration)) and would never be reached; use end/post for a post-roll"))
        }
        return .success(.midroll(t))
    }

    /// Why a break cannot be placed.
    struct PlacementFailure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
