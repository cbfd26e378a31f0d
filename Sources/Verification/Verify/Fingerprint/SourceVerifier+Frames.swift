import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension SourceVerifier {
    /// What one output frame was found to show.
    struct Match {
        enum Kind {
            /// Source frame `shown` of the expected source, clearly nearer than any other candidate.
            case identified(shown: Int64)
            /// The candidates look alike, or the picture is flat: which frame it is cannot be told.
            case ambiguous
            /// None of the candidates is near.
            case unmatched
        }

        var kind: Kind
        /// The expected source frame, clamped to the frames the source has.
        var expected: Int64
        var distance: Float?
        var confidence: Float?

        var shown: Int64? { if case .identified(let s) = kind { s } else { nil } }
    }

    /// Compares a signature with the source frames `candidates`: the nearest one, when it is near and clearly
    /// nearer than every other candidate.
    static func compare(_ signature: FrameSignature, with source: [FrameSignature], candidates: [Int64],
                        expected: Int64) -> Match {
        let count = Int64(source.count)
        guard count > 0 else { return Match(kind: .unmatched, expected: expected) }
        let expected = max(0, min(count - 1, expected))
        let frames = Set(candidates.map { max(0, min(count - 1, $0)) }).sorted()
        if signature.isFlat || source[Int(expected)].isFlat {
            return Match(kind: signature.isFlat == source[Int(expected)].isFlat ? .ambiguous : .unmatched, expected: expected)
        }
        let distances = frames.map { signature.distance(to: source[Int($0)]) }
        guard let b = distances.indices.min(by: { distances[$0] < distances[$1] }) else {
            return Match(kind: .unmatched, expected: expected)
        }
        let best = distances[b]
        guard best <= matchDistance else { return Match(kind: .unmatched, expected: expected, distance: best) }
        // A source of one frame has nothing to be confused with.
        let runnerUp = distances.indices.filter { $0 != b }.map { distances[$0] }.min() ?? 2
        let confidence = (runnerUp - best) / max(runnerUp + best, .leastNonzeroMagnitude)
        guard runnerUp - best >= max(margin, best) else {
            return Match(kind: .ambiguous, expected: expected, distance: best, confidence: confidence)
        }
        return Match(kind: .identified(shown: frames[b]), expected: expected, distance: best, confidence: confidence)
    }

    /// The source frames segment `i` shows at output frames `from…to` (by its mapping, extended past its ends).
    static func frames(_ plan: Plan, segment i: Int, from: Int64, to: Int64) -> [Int64] {
        (from...max(from, to)).map { plan.index(segment: i, outputFrame: $0) }
    }

    static func match(_ plan: Plan, scans: Scans) -> [Match] {
        let count = min(plan.frames.count, scans.output.count)
        return (0..<count).map { n in
            let frame = plan.frames[n]
            let index = plan.index(segment: frame.segment, outputFrame: Int64(n))
            guard let signature = scans.output[n][plan.timeline.segments[frame.segment].picture.pixelRect] else {
                return Match(kind: .unmatched, expected: index)
            }
            return compare(signature, with: scans.sources[plan.paths[frame.segment]] ?? [],
                           // The expected frame's own neighbours too: a paused segment shows one frame on every tick.
                           candidates: frames(plan, segment: frame.segment, from: Int64(n - reach), to: Int64(n + reach))
                               + [index - 1, index + 1],
                           expected: index)
        }
    }

    /// `0:10.000`: an output frame's time, for people.
    static func clock(_ n: Int64, rate: FrameRate) -> String { VerifyFinding.FrameTime(n, rate: rate).clock }

    /// Finds what the matches say, segment by segment: boundaries that moved, frames lost or repeated, pictures that
    /// are not the source's (problems), and runs that cannot be told apart (notes).
    ///
    /// Offsets are counted in output frames (ticks): a frame shows the source frame of tick `n + offset`, so a
    /// source at another rate, whose frames the frame-rate rule shows once or twice, keeps one offset until a frame
    /// is really lost or repeated.
    static func describe(_ plan: Plan, matches: [Match], scans: Scans, against: VerifyFinding.Reference,
                         problems: inout [VerifyFinding], notes: inout [String]) -> [SourceReport.SegmentResult] {
        let segments = plan.timeline.segments
        var results: [SourceReport.SegmentResult] = []
        func at(_ n: Int64) -> VerifyFinding.FrameTime { VerifyFinding.FrameTime(n, rate: plan.rate) }
        var earlyNext: Int64 = 0
        for (i, segment) in segments.enumerated() {
            let start = Int(segment.outStartFrame), end = min(Int(segment.outEndFrame), matches.count)
            guard start < end else { continue }
            let label = Verifier.fullName(segment)
            let named = VerifyFinding.Segment(segment)
            if let cover = segment.pictureCover {
                // The player's picture is hidden: the covering layer is checked (`Verifier.checkLayers`) instead.
                let by = switch cover {
                case .fullScreen: "scene \(cover.scene)'s full-screen ad"
                case .slider(_, let slider): "\(cover.kind.rawValue) \"\(slider.placement ?? "")\" of scene \(cover.scene)"
                case .card(_, let card), .native(_, let card): "\(cover.kind.rawValue) \"\(card.placement ?? "")\" of scene \(cover.scene)"
                default: "\(cover.kind.rawValue) \"\" of scene \(cover.scene)"
                }
                notes.append("output frames \(start)–\(end - 1) (\(clock(Int64(start), rate: plan.rate))) of \(label) are covered by \(by), which is checked as its layer")
                earlyNext = 0
                continue
            }
            let resumes = segment.kind == .content && segment.outStartFrame > 0
            var result = SourceReport.SegmentResult(segment: i, name: label, outStartFrame: segment.outStartFrame,
                                                    outEndFrame: segment.outEndFrame, identified: 0, ambiguous: 0,
                                                    unmatched: 0)
            // Frames at the start that still show the previous segment's source (going on, or held): this one
            // started late.
            var late = 0
            if i > 0, earlyNext == 0 {
                while start + late < end, late < boundaryReach, matches[start + late].shown == nil,
                      shows(segment: i - 1, at: start + late, from: start - 1 - reach, plan: plan, scans: scans) {
                    late += 1
                }
            }
            // Frames at the end that already show the next segment's source: that one starts early.
            var early = 0
            if i + 1 < segments.count {
                while end - 1 - early > start + late, early < boundaryReach, matches[end - 1 - early].shown == nil,
                      shows(segment: i + 1, at: end - 1 - early, from: end - 1 - early - reach, plan: plan, scans: scans,
                            to: end + reach) {
                    early += 1
                }
            }
            if late > 0 {
                problems.append(.init(.startsLate(at: at(Int64(start + late)), segment: named, resumes: resumes, frames: Int64(late),
                                                  expectedFrame: Int64(start), against: against)))
            }
            if earlyNext > 0 {
                problems.append(.init(.startsEarly(at: at(Int64(start) - earlyNext), segment: named, resumes: resumes, frames: earlyNext,
                                                   expectedFrame: Int64(start), against: against)))
            }
            // After a boundary that moved, the first frame identified sets the offset: it was reported as the move.
            var current: Int64? = late > 0 || earlyNext > 0 ? nil : 0
            var previousShown: Int64?
            var first = true
            var unmatchedRun: (Int, Int)?
            var ambiguousRun: (Int, Int)?
            func flushRuns() {
                if let (a, b) = unmatchedRun {
                    problems.append(.init(.sourceNotShown(at: at(Int64(a)), last: Int64(b), segment: named, source: segment.source,
                                                          expectedFirst: matches[a].expected, expectedLast: matches[b].expected, against: against)))
                    unmatchedRun = nil
                }
                if let (a, b) = ambiguousRun {
                    notes.append("output frames \(a)–\(b) (\(clock(Int64(a), rate: plan.rate))) of \(label) are static or black: not verifiable")
                    ambiguousRun = nil
                }
            }
            for n in (start + late)..<(end - early) {
                let m = matches[n]
                switch m.kind {
                case .unmatched:
                    if let r = ambiguousRun { ambiguousRun = r; flushRuns() }
                    result.unmatched += 1
                    if let r = unmatchedRun { unmatchedRun = (r.0, n) } else { unmatchedRun = (n, n) }
                case .ambiguous:
                    if unmatchedRun != nil { flushRuns() }
                    result.ambiguous += 1
                    if let r = ambiguousRun { ambiguousRun = (r.0, n) } else { ambiguousRun = (n, n) }
                case .identified(let shown):
                    flushRuns()
                    result.identified += 1
                    result.lowestConfidence = min(result.lowestConfidence ?? 1, Double(m.confidence ?? 0))
                    result.largestDistance = max(result.largestDistance ?? 0, Double(m.distance ?? 0))
                    defer { previousShown = shown; first = false }
                    // The ticks (output frames from here) whose source frame this is.
                    let count = Int64(scans.sources[plan.paths[i]]?.count ?? 0)
                    let ticks = (-Int64(reach)...Int64(reach)).filter {
                        max(0, min(count - 1, plan.index(segment: i, outputFrame: Int64(n) + $0))) == shown
                    }
                    guard !ticks.isEmpty else {
                        // A frame the rule never shows here (a 60 fps source seen at 30 fps shows every other one).
                        problems.append(.init(.frameNotOnTick(at: at(Int64(n)), segment: named, shown: shown, expected: m.expected, against: against)))
                        continue
                    }
                    guard let known = current else {
                        current = ticks.min(by: { abs($0) < abs($1) })
                        continue
                    }
                    guard !ticks.contains(known), let offset = ticks.min(by: { abs($0 - known) < abs($1 - known) }) else { continue }
                    let delta = offset - known
                    current = offset
                    if first, n == start, late == 0, earlyNext == 0 {
                        problems.append(.init(.startsAtFrame(at: at(Int64(n)), segment: named, resumes: resumes, shown: shown, expected: m.expected,
                                                             offset: delta, against: against)))
                    } else if let previousShown, delta > 0 {
                        // The frames the skipped ticks should have shown, other than those on screen either side.
                        let lost = Set((known..<offset).map { plan.index(segment: i, outputFrame: Int64(n) + $0) })
                            .subtracting([previousShown, shown]).sorted()
                        problems.append(.init(lost.isEmpty
                            ? .jumpsAhead(at: at(Int64(n)), segment: named, frames: delta, shown: shown, expected: m.expected, against: against)
                            : .framesLost(at: at(Int64(n)), segment: named, lost: lost, shown: shown, previous: previousShown)))
                    } else if let previousShown, shown == previousShown {
                        problems.append(.init(.shownTwice(at: at(Int64(n)), segment: named, shown: shown)))
                    } else {
                        problems.append(.init(.fallsBehind(at: at(Int64(n)), segment: named, frames: -delta, shown: shown, expected: m.expected,
                                                           against: against)))
                    }
                }
            }
            flushRuns()
            earlyNext = Int64(early)
            results.append(result)
            if problems.count >= 50 { break }
        }
        return results
    }

    /// Whether output frame `n` shows segment `i`'s source among the frames its mapping gives output frames
    /// `from … to` (default `n + reach`): the segment going on past its end, held, or started early.
    static func shows(segment i: Int, at n: Int, from: Int, plan: Plan, scans: Scans, to: Int? = nil) -> Bool {
        guard let source = scans.sources[plan.paths[i]], n < scans.output.count,
              let signature = scans.output[n][plan.timeline.segments[i].picture.pixelRect] else { return false }
        return compare(signature, with: source,
                       candidates: frames(plan, segment: i, from: Int64(from), to: Int64(to ?? n + reach)),
                       expected: plan.index(segment: i, outputFrame: Int64(n))).shown != nil
    }
}
