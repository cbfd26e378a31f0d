import AdDecisioning
import MediaCore

/// Playing a break: preparing each ad, its events and tracking, completion, skips, pauses and failures.
extension AdsManager {
    func startBreak(_ waiting: Due) {
        slots[waiting.breakIndex].status = .playing
        current = PlayingBreak(breakIndex: waiting.breakIndex, due: waiting)
    }

    /// Shows the next frame of the playing break, or moves on: completes an ad whose frames are all shown,
    /// starts the next one, or ends the break. Returns `nil` when the caller must decide again (the break ended).
    func advanceBreak() -> Picture? {
        guard let playing = current else { return nil }
        if var ad = playing.ad {
            if ad.tick < ad.info.frameCount {
                fireMilestones(of: &ad, breakIndex: playing.breakIndex, upTo: recorder.rate.time(ofFrame: ad.tick) - .zero)
                let picture = Picture.ad(AdReference(playing.breakIndex, ad.adIndex), tick: ad.tick)
                ad.tick += 1
                current?.ad = ad
                return picture
            }
            complete(&ad, breakIndex: playing.breakIndex)
            current?.ad = nil
        }
        if startNextAd() { return advanceBreak() }
        endBreak()
        return nil
    }

    /// Prepares the first available ad of the playing break, failing over to the next one; on success sends the
    /// break's start (once) and the ad's start. Returns false when no ad of the break is left.
    private func startNextAd() -> Bool {
        guard let playing = current else { return false }
        let b = playing.breakIndex
        while let a = plan.breaks[b].ads.indices.first(where: {
            plan.breaks[b].ads[$0].state == .available
                || (plan.breaks[b].ads[$0].state == .failed && !reportedFailures.contains(AdReference(b, $0)))
        }) {
            let ad = plan.breaks[b].ads[a].ad
            if plan.breaks[b].ads[a].state == .failed {
                // Failed while loading (no usable rendition, media missing): reported at its turn in the pod.
                reportedFailures.insert(AdReference(b, a))
                reportLoadFailure(breakIndex: b, adIndex: a)
                continue
            }
            let info: AdMediaInfo
            let prepared = media.prepareAd(breakIndex: b, adIndex: a, ad: ad)
            for note in prepared.notes { record(note, of: AdReference(b, a)) }
            switch prepared.outcome {
            case .failure(let error):
                fail(breakIndex: b, adIndex: a, error: error, adTime: nil)
                continue
            case .success(let prepared) where prepared.frameCount <= 0:
                fail(breakIndex: b, adIndex: a, error: AdError(.mediaDisplay, "ad \(a) of break \(b) has no frames"),
                     adTime: nil)
                continue
            case .success(let prepared):
                info = prepared
            }
            recorder.emit(.ad(.loaded, AdReference(b, a)))
            if let fallback = info.fallback {
                // The ad plays from a fallback rendition: its macros ([ASSETURI]) and the plan name that one.
                do { try plan.choose(fallback.rendition, breakIndex: b, adIndex: a) } catch {
                    preconditionFailure("ads manager bug: \(error)")
                }
                for failure in fallback.failures {
                    recorder.log("ad \(a) of break \(b): rendition failed (VAST \(failure.code.rawValue)), trying the next: "
                                 + failure.message, about: .ad(AdReference(b, a)), reason: .renditionFailed)
                }
                recorder.log("ad \(a) of break \(b) plays its fallback rendition \(fallback.rendition.file.url)",
                             about: .ad(AdReference(b, a)), reason: .renditionFailed)
            }
            if let early = info.earlyEnd {
                recorder.log("ad \(a) of break \(b) \(early.description): \(early.path)", about: .ad(AdReference(b, a)),
                             reason: .endedEarly)
            }
            if !playing.started {
                current?.started = true
                recorder.emit(.adBreak(.contentPauseRequested, breakIndex: b))
                recorder.emit(.adBreakStarted(breakIndex: b, cueTime: playing.due.deferred
                                              ? recorder.seconds(ofFrame: playing.due.cueFrame) : nil))
                recorder.fire(.breakStart, urls: breakTracking(b, .breakStart), macros: macros(b, nil, nil),
                              about: .adBreak(b))
            }
            let start = macros(b, a, .zero)
            recorder.emit(.ad(.started, AdReference(b, a)))
            recorder.fire(.impression, urls: ad.beacons.impressions, macros: start, about: .ad(AdReference(b, a)))
            recorder.emit(.ad(.impression, AdReference(b, a)))
            recorder.fire(.creativeView, urls: tracking(ad, .creativeView), macros: start, about: .ad(AdReference(b, a)))
            recorder.fire(.start, urls: tracking(ad, .start), macros: start, about: .ad(AdReference(b, a)))
            current?.ad = PlayingAd(adIndex: a, info: info, milestones: milestones(of: ad, duration: info.duration))
            return true
        }
        return false
    }

    private func complete(_ ad: inout PlayingAd, breakIndex b: Int) {
        // Offsets the shown frames did not reach (the media ran short of its duration) still belong to the ad.
        fireMilestones(of: &ad, breakIndex: b, upTo: ad.info.duration)
        recorder.emit(.ad(.complete, AdReference(b, ad.adIndex)))
        recorder.fire(.complete, urls: tracking(plan.breaks[b].ads[ad.adIndex].ad, .complete),
                      macros: macros(b, ad.adIndex, adTime(ad)), about: .ad(AdReference(b, ad.adIndex)))
        mark(breakIndex: b, adIndex: ad.adIndex, .played)
    }

    private func endBreak() {
        guard let playing = current else { return }
        let b = playing.breakIndex
        current = nil
        slots[b].status = .done
        guard playing.started else { return }
        recorder.emit(.adBreak(.ended, breakIndex: b))
        recorder.fire(.breakEnd, urls: breakTracking(b, .breakEnd), macros: macros(b, nil, nil), about: .adBreak(b))
        recorder.emit(.adBreak(.contentResumeRequested, breakIndex: b))
    }

    /// Logs what opening an ad's media noted, at this moment, before its `LOADED` or `AD_ERROR`.
    private func record(_ note: MediaNote, of ad: AdReference) {
        switch note {
        case .buffered(let url, let waited):
            recorder.emit(.adBuffering(ad, url: url, message: "waited \(waited.secondsText) for the media download"))
        case .log(let reason, let message):
            recorder.log(message, about: .ad(ad), reason: reason)
        }
    }

    /// Reports a failed ad (`AD_ERROR`, its error URLs, the break's VMAP `error` URLs) and marks it failed; the
    /// break's next fallback (a stand-alone ad of its pod response) then takes its place, with a `LOG`.
    private func fail(breakIndex b: Int, adIndex a: Int, error: AdError, adTime: MediaDuration?) {
        report(error, breakIndex: b, adIndex: a, adTime: adTime)
        reportedFailures.insert(AdReference(b, a))
        mark(breakIndex: b, adIndex: a, .failed(error))
        if let index = try? plan.insertFallback(breakIndex: b, after: a) {
            recorder.log("\(plan.breaks[b].ads[index].ad.label) (stand-alone) replaces ad \(a) of break \(b), which failed: "
                + error.message, about: .ad(AdReference(b, index)), reason: .fallback)
        }
    }

    /// `AD_ERROR` for an ad the plan already marks failed, with its error URLs.
    private func reportLoadFailure(breakIndex b: Int, adIndex a: Int) {
        let error = plan.breaks[b].ads[a].error ?? AdError(.undefined, "ad \(a) of break \(b) failed while loading")
        report(error, breakIndex: b, adIndex: a, adTime: nil)
    }

    private func report(_ error: AdError, breakIndex b: Int, adIndex a: Int, adTime: MediaDuration?) {
        recorder.emit(.adError(.ad(AdReference(b, a)), code: error.code.rawValue, message: error.message))
        var context = macros(b, a, adTime)
        context.errorCode = error.code
        let urls = plan.breaks[b].ads[a].ad.beacons.errorURLs + error.errorURLs.filter { !plan.breaks[b].ads[a].ad.beacons.errorURLs.contains($0) }
        recorder.fire(.error, urls: urls, macros: context, about: .ad(AdReference(b, a)))
        recorder.fire(.error, urls: breakTracking(b, .error), macros: context, about: .ad(AdReference(b, a)))
    }

    /// The media layer could not show the ad of the last decision: the ad fails and the break moves on.
    /// Returns false when no ad is playing.
    func failPlayingAd(_ error: AdError) -> Bool {
        guard let playing = current, let ad = playing.ad else { return false }
        fail(breakIndex: playing.breakIndex, adIndex: ad.adIndex, error: error,
             adTime: recorder.rate.time(ofFrame: max(0, ad.tick - 1)) - .zero)
        current?.ad = nil
        return true
    }

    /// Skips the ad on screen if it is skippable and its skip offset has passed; otherwise says why not.
    /// Returns the refusal, or `nil` when the ad was skipped.
    func skip() -> String? {
        guard let playing = current, let ad = playing.ad else { return "no ad is playing" }
        let b = playing.breakIndex, a = ad.adIndex
        let linear = plan.breaks[b].ads[a].ad
        guard ad.tick < ad.info.frameCount else { return "ad \(a) of break \(b) has ended" }
        guard let offset = linear.skipOffset else { return "ad \(a) of break \(b) is not skippable" }
        let skippableFrom = offset.resolved(duration: ad.info.duration)
        let position = adTime(ad)
        guard skippableFrom <= position, skippableFrom <= ad.info.duration else {
            return "ad \(a) of break \(b) can be skipped from \(skippableFrom) (it is \(ad.info.duration) long); "
                + "it is at \(position)"
        }
        recorder.emit(.ad(.skipped, AdReference(b, a)))
        recorder.fire(.skip, urls: tracking(linear, .skip), macros: macros(b, a, position), about: .ad(AdReference(b, a)))
        mark(breakIndex: b, adIndex: a, .skipped)
        current?.ad = nil
        return nil
    }

    /// Reports a click on the ad on screen: `CLICK` with its ClickThrough URL (which nothing opens: there is no
    /// browser), then its `clickTracking` URLs. Returns the refusal when no ad is on screen, or `nil`.
    func click() -> String? {
        // As for `skip`: the ad the next frame shows, so a click after its last frame (or between ads) is refused.
        guard let playing = current, let ad = playing.ad, ad.tick < ad.info.frameCount else {
            return "no ad is on screen"
        }
        let b = playing.breakIndex, a = ad.adIndex
        let linear = plan.breaks[b].ads[a].ad
        recorder.emit(.click(AdReference(b, a), clickThrough: linear.beacons.clickThrough))
        recorder.fire(.clickTracking, urls: linear.beacons.clickTracking, macros: macros(b, a, adTime(ad)), about: .ad(AdReference(b, a)))
        return nil
    }

    /// Reports a pause or a resume of the ad on screen (`PAUSE`/`RESUME` and the VAST `pause`/`resume` URLs);
    /// nothing while content plays.
    func playbackPaused(_ paused: Bool) {
        guard let playing = current, let ad = playing.ad else { return }
        let b = playing.breakIndex, a = ad.adIndex
        recorder.emit(.ad(paused ? .pause : .resume, AdReference(b, a)))
        recorder.fire(paused ? .pause : .resume, urls: tracking(plan.breaks[b].ads[a].ad, paused ? .pause : .resume),
                      macros: macros(b, a, adTime(ad)), about: .ad(AdReference(b, a)))
    }

    // MARK: - Helpers

    /// How much of the ad has been shown: its next tick's time.
    private func adTime(_ ad: PlayingAd) -> MediaDuration { recorder.rate.time(ofFrame: ad.tick) - .zero }

    /// Fires, in order, every milestone at or before `time` on the ad's clock.
    private func fireMilestones(of ad: inout PlayingAd, breakIndex b: Int, upTo time: MediaDuration) {
        while let next = ad.milestones.first, next.offset <= time {
            ad.milestones.removeFirst()
            switch next.report {
            case .moment(let moment)?: recorder.emit(.ad(moment, AdReference(b, ad.adIndex)))
            case .progress?: recorder.emit(.adProgress(AdReference(b, ad.adIndex), adTime: next.offset.seconds.doubleValue))
            case nil: break
            }
            if let vastEvent = next.vastEvent {
                recorder.fire(vastEvent, urls: next.urls, macros: macros(b, ad.adIndex, adTime(ad)),
                              about: .ad(AdReference(b, ad.adIndex)))
            }
        }
    }

    /// The quartiles of the real duration, then each `progress` offset, then `AD_PROGRESS` at every whole second
    /// below the duration, in time order (in that order at a tie).
    private func milestones(of ad: LinearAd, duration: MediaDuration) -> [Milestone] {
        let quartiles: [(Rational, SessionEvent.AdMoment, TrackingEventName)] = [
            (Rational(1, 4), .firstQuartile, .firstQuartile), (Rational(1, 2), .midpoint, .midpoint),
            (Rational(3, 4), .thirdQuartile, .thirdQuartile),
        ]
        var all = quartiles.map { fraction, type, event in
            Milestone(offset: duration * fraction, report: .moment(type), vastEvent: event, urls: tracking(ad, event))
        }
        for event in ad.beacons.tracking where event.event == .progress {
            guard let offset = event.offset else { continue }
            all.append(Milestone(offset: offset.resolved(duration: duration), report: nil, vastEvent: .progress,
                                 urls: [event.url]))
        }
        var second: Int64 = 1
        while MediaDuration(seconds: Rational(second)) < duration {
            all.append(Milestone(offset: MediaDuration(seconds: Rational(second)), report: .progress, vastEvent: nil,
                                 urls: []))
            second += 1
        }
        return all.enumerated()
            .sorted { $0.element.offset == $1.element.offset ? $0.offset < $1.offset : $0.element.offset < $1.element.offset }
            .map(\.element)
    }

    private func tracking(_ ad: LinearAd, _ event: TrackingEventName) -> [String] {
        ad.beacons.tracking.filter { $0.event == event }.map(\.url)
    }

    private func breakTracking(_ b: Int, _ event: TrackingEventName) -> [String] {
        plan.breaks[b].tracking.filter { $0.event == event }.map(\.url)
    }

    /// The macro values of an ad (or, with `a` nil, of its break) at ad time `adTime`.
    private func macros(_ b: Int, _ a: Int?, _ adTime: MediaDuration?) -> MacroContext {
        let position: MacroContext.BreakPositionValue = switch slots[b].kind {
        case .preroll: .preroll
        case .midroll: .midroll
        case .postroll: .postroll
        }
        let ads = plan.breaks[b].ads.map(\.ad)
        // The break's length is known only when every ad of it declares its own.
        let declared = ads.compactMap(\.declaredDuration)
        let breakDuration = declared.count == ads.count
            ? declared.reduce(MediaDuration.zero, +) : nil
        let ad = a.map { ads[$0] }
        return MacroContext(adPlayhead: adTime.map { .zero + $0 }, breakPosition: position,
                            assetURI: ad?.selection?.chosen?.url, adCount: a.map { $0 + 1 }, breakAdCount: ads.count,
                            breakDuration: breakDuration, podSequence: ad?.sequence,
                            universalAdIds: ad?.universalAdIds, clickable: ad.map { $0.beacons.clickThrough != nil },
                            skippable: ad.map { $0.skipOffset != nil })
    }
}
