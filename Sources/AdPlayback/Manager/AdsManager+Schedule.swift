import AdDecisioning
import MediaCore

/// When breaks become due: cues, seeks, settings and picture-in-picture holds.
extension AdsManager {
    /// Makes due every armed mid-roll the content position has reached, and at the content's end the post-roll.
    func reachCues() {
        let position = recorder.contentTick
        if position >= contentFrameCount { reportContentEnd() }
        for index in slots.indices where slots[index].status == .pending {
            switch slots[index].kind {
            case .midroll(let trigger) where trigger <= position: makeDue(index)
            case .postroll where position >= contentFrameCount: makeDue(index)
            case .preroll, .midroll, .postroll: break
            }
        }
    }

    /// At the content's end, once: reports an early end, and every armed mid-roll cued after the end as never
    /// reached (`AD_BREAK_SKIPPED`, `contentEnded`) rather than leaving it silently unplayed.
    func reportContentEnd() {
        guard !contentEndReported else { return }
        contentEndReported = true
        if let early = contentEarlyEnd {
            recorder.log("the content \(early.description): \(early.path)", reason: .endedEarly)
        }
        for index in slots.indices where slots[index].status == .pending {
            guard let trigger = slots[index].trigger, trigger > contentFrameCount else { continue }
            skipBreak(index, reason: .contentEnded, cueFrame: nil)
        }
    }

    /// Applies a content seek from tick `from` to tick `to`: forward, the armed mid-rolls jumped over (cued in
    /// `[from, to)`) play as the seek policy says and the others are passed; backward, every mid-roll not played
    /// yet is armed again if its cue lies ahead.
    ///
    /// - Parameter why: for the log, as in "jumped over by a seek".
    func jump(from: Int64, to: Int64, why: String) {
        if to < from {
            for index in slots.indices where slots[index].status == .pending || slots[index].status == .passed {
                guard let trigger = slots[index].trigger else { continue }
                slots[index].status = trigger >= to ? .pending : .passed
            }
            return
        }
        let jumped = slots.indices.filter { index in
            guard slots[index].status == .pending, let trigger = slots[index].trigger else { return false }
            return from <= trigger && trigger < to
        }
        let chosen: ArraySlice<Int> = switch settings.seekPolicy {
        case .last: jumped.suffix(1)
        case .all: jumped[...]
        case .none: []
        }
        for index in jumped {
            if chosen.contains(index) {
                makeDue(index)
            } else {
                slots[index].status = .passed
                recorder.log("break \(index) (\(plan.breaks[index].position)) jumped over \(why) is not played "
                    + "(seek policy \(settings.seekPolicy.rawValue))", about: .adBreak(index), reason: .seek)
            }
        }
    }

    /// Passes every armed mid-roll reached before content tick `startTick`, the first one a start position shows.
    ///
    /// A viewer who starts part-way (resumes from a bookmark) has not skipped anything, so the seek policy does
    /// not apply: as with IMA's `playAdsAfterTime` set to the resume position, the breaks behind the start do not
    /// play. They are `passed`, not done, so that a seek back before their cue arms them again.
    func passBreaks(before startTick: Int64) {
        for index in slots.indices where slots[index].status == .pending {
            guard let trigger = slots[index].trigger, trigger < startTick else { continue }
            slots[index].status = .passed
            recorder.log("break \(index) (\(plan.breaks[index].position)) is cued before the start position and is not played",
                         about: .adBreak(index), reason: .startPosition)
        }
    }

    /// While picture-in-picture holds break starts: reports each newly due break deferred, or skips it under the
    /// `skip` policy.
    func holdDueBreaks() {
        var kept: [Due] = []
        for var waiting in due {
            switch breakPolicy {
            case .defer:
                if !waiting.deferred {
                    recorder.emit(.adBreakDeferred(breakIndex: waiting.breakIndex, reason: .pipActive,
                                                   cueTime: recorder.seconds(ofFrame: waiting.cueFrame)))
                    waiting.deferred = true
                }
                kept.append(waiting)
            case .skip:
                skipBreak(waiting.breakIndex, reason: .pipActive, cueFrame: waiting.cueFrame)
            case .play:
                // Never held (`holdsBreakStarts`), so never here; kept due, it starts at the next frame.
                kept.append(waiting)
            }
        }
        due = kept
    }

    func makeDue(_ index: Int) {
        slots[index].status = .due
        due.append(Due(breakIndex: index, cueFrame: recorder.frame))
        recorder.emit(.adBreak(.ready, breakIndex: index))
    }

    /// Reports a break that will never start and marks its remaining ads skipped.
    func skipBreak(_ index: Int, reason: SessionEventReason, cueFrame: Int64?) {
        recorder.emit(.adBreakSkipped(breakIndex: index, reason: reason, cueTime: cueFrame.map(recorder.seconds(ofFrame:))))
        for adIndex in plan.breaks[index].ads.indices where plan.breaks[index].ads[adIndex].state == .available {
            mark(breakIndex: index, adIndex: adIndex, .skipped)
        }
        slots[index].status = .done
    }

    /// Why the settings keep a break from playing, as an `AD_BREAK_SKIPPED` reason; `nil` when they let it play.
    func settingsRefusal(of index: Int) -> SessionEventReason? {
        let slot = slots[index]
        switch slot.kind {
        case .preroll where !settings.playsPrerolls: return .prerollsOff
        case .midroll where !settings.playsMidrolls: return .midrollsOff
        case .postroll where !settings.playsPostrolls: return .postrollsOff
        default: break
        }
        if let after = settings.playAdsAfterTime, slot.cueTime <= after { return .playAdsAfterTime }
        return nil
    }

    /// The state an ad moves to.
    enum AdOutcome {
        case played, skipped
        case failed(AdError)
    }

    /// Moves an ad out of `available` through the plan's checked methods; the manager only ever moves available
    /// ads, so a refusal is a bug in the manager.
    func mark(breakIndex b: Int, adIndex a: Int, _ outcome: AdOutcome) {
        do {
            switch outcome {
            case .played: try plan.markPlayed(breakIndex: b, adIndex: a)
            case .skipped: try plan.markSkipped(breakIndex: b, adIndex: a)
            case .failed(let error): try plan.markFailed(breakIndex: b, adIndex: a, error: error)
            }
        } catch {
            preconditionFailure("ads manager bug: \(error)")
        }
    }
}
