import AdDecisioning
import AdPlayback
import MediaCore

/// A native load the run began (a `load slider` it applied) and waits the answer of: `NativeAdLoader.load(_:)` of
/// its placement's source, fetched by whoever drives the run.
public struct NativeLoadRequest: Hashable, Sendable {
    /// The order in which the run began it, from 0.
    public let id: Int
    public let placement: NativePlacement
}

extension NativeScreenRun {
    /// Makes the loads the script asks for, each when the frame loop applies its `load slider` (awaiting it, so
    /// that it lands at its own frame plus its placement's latency), and evaluates the run until `end`.
    ///
    /// - Parameter load: fetches one placement's block (`NativeAdLoader.load(_:)` in a render).
    public func run(load: (NativePlacement) async throws(NativeError) -> NativeBlock) async -> Outcome {
        var evaluation = Evaluation(run: self)
        for frame in 0..<max(0, frameRate.firstFrame(atOrAfter: end)) {
            for request in evaluation.begin(frame: frame) {
                do throws(NativeError) {
                    evaluation.answer(request, .success(try await load(request.placement)))
                } catch {
                    evaluation.answer(request, .failure(error))
                }
            }
            evaluation.finish(frame: frame)
        }
        return evaluation.outcome
    }

    /// The run's rules applied frame by frame, the one evaluation of the batch path (`run(load:)`, the script's
    /// commands and answers awaited at their frame) and of the live one (`play`: commands added as they apply,
    /// answers given when they arrive).
    ///
    /// Each output frame is `begin(frame:)`, which lands the answered loads whose latency has passed and applies
    /// the commands due (returning the loads they began), then `answer(_:_:)` for any answer at hand, then
    /// `finish(frame:)`, which lands those that are due and counts binding and impressions on what the frame
    /// shows. A load lands at the first frame at or after its `load slider` plus the placement's latency at which
    /// its answer is known.
    public struct Evaluation: Sendable {
        public private(set) var run: NativeScreenRun
        /// With `false` (live) only the latest state is kept: the layers are asked for at the current frame only.
        let keepsHistory: Bool
        var sliders: [SliderState]
        var events: [NativeAdEvent] = []
        var snapshots: [(time: MediaTime, sliders: [SliderState])] = []
        /// The commands not applied yet, in time order: the script's, then those added live.
        var queue: ArraySlice<(time: MediaTime, command: Action)>
        var loads: Loads
        /// Whether the frame being evaluated changed a placement's state (a snapshot is taken at its end).
        var changed = false
        /// Which placement first showed each ad id and creative (`ad:ID`, `crid:ID`, `media:URL`).
        var shown: [String: String] = [:]
        var counted = Counted()
        /// The videos started.
        var videoStarts: [NativeVideoStart] = []
        /// For each placement, when its phase last changed (a count of phase changes): the newer of two placements
        /// drawn over each other live is the one changed last (`refuseOverlaps(at:)`).
        var phaseChanged: [Int]
        var phaseChanges = 0

        /// The placements' loads: where each stands, those waiting to land, those the frame being evaluated began,
        /// and the next request's id.
        struct Loads: Sendable {
            /// Each placement's load phases and retries (`maxRetries`), by request.
            var states: [NativeLoadStates]
            /// Loads begun and not landed, in the order begun; `result` once answered.
            var pending: [PendingLoad] = []
            /// The loads begun by the commands of the frame being evaluated (`begin(frame:)` returns them).
            var requested: [NativeLoadRequest] = []
            var nextRequest = 0
        }

        /// What is counted once per block a placement loaded, forgotten when its next block lands: impressions
        /// and binding failures reported, how long each card has been visible, and the cards whose video started.
        struct Counted: Sendable {
            /// Placements whose block impression or binding failure was counted; cards as [placement, index].
            var blockImpressed = Set<Int>(), blockBindingReported = Set<Int>()
            var cardImpressed = Set<[Int]>(), cardBindingReported = Set<[Int]>()
            /// Since when each card has been at least half visible without a break.
            var visibleSince: [[Int]: MediaTime] = [:]
            /// The cards ([placement, index]) whose video has started since their block loaded.
            var videoStarted = Set<[Int]>()

            /// Forgets what was counted of placement `p`'s block and its cards: a new block landed.
            mutating func forget(placement p: Int) {
                blockImpressed.remove(p)
                blockBindingReported.remove(p)
                cardImpressed = cardImpressed.filter { $0[0] != p }
                cardBindingReported = cardBindingReported.filter { $0[0] != p }
                visibleSince = visibleSince.filter { $0.key[0] != p }
                videoStarted = videoStarted.filter { $0[0] != p }
            }
        }

        struct PendingLoad: Sendable {
            let request: NativeLoadRequest
            let index: Int
            let due: MediaTime
            var result: Result<NativeBlock, NativeError>?
        }

        /// The evaluation of `run` from output frame 0, its script's commands queued.
        ///
        /// - Parameter keepsHistory: `false` keeps only the latest state, for a run evaluated as it plays (`play`,
        ///   which also refuses a placement drawn over another as it happens: `refuseOverlaps(at:)`).
        public init(run: NativeScreenRun, keepsHistory: Bool = true) {
            self.run = run
            self.keepsHistory = keepsHistory
            queue = run.commands[...]
            loads = Loads(states: run.placements.map { NativeLoadStates(maximumRetries: $0.maximumRetries) })
            sliders = run.placements.map { SliderState(imagesLoaded: $0.loadImages) }
            phaseChanged = run.placements.map { _ in 0 }
        }

        /// The events and layers so far (live: the layers of the last frame evaluated).
        public var outcome: Outcome { Outcome(events: events, videoStarts: videoStarts, snapshots: snapshots, run: run) }

        /// Removes the events so far and returns them, for a run evaluated as it plays.
        public mutating func takeEvents() -> [NativeAdEvent] {
            defer { events.removeAll() }
            return events
        }

        /// Queues `input`, applied at output time `time` by the next `begin(frame:)`. A command naming no placement
        /// is refused at once with the reason.
        public mutating func add(_ input: Input, at time: MediaTime) {
            do throws(NativeError) {
                queue.append((time, try NativeScreenRun.action(input, placements: run.placements)))
            } catch {
                guard case .unknownPlacement(_, let reason) = error, case .native(let native, let written) = input,
                      let first = run.placements.first else { return }
                events.append(NativeAdEvent(time: time, placement: native.placement ?? first.id, scene: first.scene,
                                            kind: .refused("\(written): \(reason)")))
            }
        }

        /// Records a screen change applied at its time (live), after every change recorded before it.
        public mutating func screenChanged(_ change: ScreenTimeline.Change) {
            run.screen.append(change)
        }

        /// Lands the loads answered and due, then applies the commands due at output frame `frame`.
        ///
        /// - Returns: the loads these commands began, to be answered (`answer(_:_:)`).
        public mutating func begin(frame: Int64) -> [NativeLoadRequest] {
            let t = run.frameRate.time(ofFrame: frame)
            if frame == 0 { for p in run.placements.indices { phase(t, p, .idle) } }
            changed = frame == 0
            changed = land(at: t) || changed
            while let next = queue.first, run.frameRate.firstFrame(atOrAfter: next.time) <= frame {
                queue.removeFirst()
                apply(next.command, at: t)
                changed = true
            }
            defer { loads.requested.removeAll() }
            return loads.requested
        }

        /// The answer to `request`: it lands when it is due.
        public mutating func answer(_ request: NativeLoadRequest, _ result: Result<NativeBlock, NativeError>) {
            guard let i = loads.pending.firstIndex(where: { $0.request == request }) else { return }
            loads.pending[i].result = result
        }

        /// Ends output frame `frame`: a load answered in it that is due lands (so a load without latency shows at
        /// its own frame), then binding and impressions are counted on what it shows.
        public mutating func finish(frame: Int64) {
            let t = run.frameRate.time(ofFrame: frame)
            changed = land(at: t) || changed
            // A render refuses overlapping placements before it starts (`Outcome.firstOverlap()`); live, the heights
            // are known only as loads land, so the newer of two placements drawn over each other is not shown.
            if !keepsHistory { changed = refuseOverlaps(at: t) || changed }
            if changed {
                if !keepsHistory { snapshots.removeAll() }
                snapshots.append((t, sliders))
            }
            for p in run.placements.indices { count(p, at: t) }
        }

        func event(_ t: MediaTime, _ p: Int, _ kind: NativeAdEvent.Kind, card: Int? = nil, ad: String? = nil) -> NativeAdEvent {
            NativeAdEvent(time: t, placement: run.placements[p].id, scene: run.placements[p].scene, kind: kind, card: card, ad: ad)
        }

        mutating func phase(_ t: MediaTime, _ p: Int, _ phase: NativeLoadState.Phase) {
            sliders[p].phase = phase
            phaseChanges += 1
            phaseChanged[p] = phaseChanges
            events.append(event(t, p, .moment(.loadPhase(phase))))
        }

        /// Lands the answered loads whose latency has passed by `t`; true when one did.
        mutating func land(at t: MediaTime) -> Bool {
            var landed = false
            while let i = loads.pending.firstIndex(where: { $0.due <= t && $0.result != nil }) {
                let load = loads.pending.remove(at: i)
                let p = load.index
                landed = true
                switch load.result! {
                case .success(let block):
                    loads.states[p].finish(load.request.placement.source, succeeded: true)
                    sliders[p].block = block
                    sliders[p].indices = withoutDuplicates(block, placement: p, at: t)
                    sliders[p].position = 0
                    sliders[p].animation = nil
                    counted.forget(placement: p)
                    phase(t, p, .loaded)
                    events.append(event(t, p, .moment(.loaded)))
                case .failure(let error):
                    loads.states[p].finish(load.request.placement.source, succeeded: false)
                    phase(t, p, .failed)
                    events.append(event(t, p, .moment(.failed(error.failureKind, message: error.description))))
                }
            }
            return landed
        }

        /// The indices of `block`'s ads that no other placement showed first, registering them for placement
        /// `p`; each one left out is an `onAdDuplicate` naming the placement that showed it.
        mutating func withoutDuplicates(_ block: NativeBlock, placement p: Int, at t: MediaTime) -> [Int] {
            let id = run.placements[p].id
            var kept: [Int] = []
            for (index, ad) in block.ads.enumerated() {
                let keys = ["ad:\(ad.id)"] + (ad.creativeKey.map { [$0] } ?? [])
                if let other = keys.compactMap({ shown[$0] }).first(where: { $0 != id }) {
                    let why = "ad \"\(ad.id)\" is left out: placement \"\(other)\" already showed it"
                    events.append(event(t, p, .moment(.duplicate(otherPlacement: other, message: why)), card: index, ad: ad.id))
                    continue
                }
                for key in keys where shown[key] == nil { shown[key] = id }
                kept.append(index)
            }
            return kept
        }

        private mutating func apply(_ action: Action, at t: MediaTime) {
            switch action {
            case .native(let command, let p):
                let slider = sliders[p], current = self
                let refuse = { (why: String) in current.event(t, p, .refused("\(command): \(why)")) }
                switch command {
                case .loadSlider:
                    let placement = run.placements[p]
                    do throws(NativeError) { try loads.states[p].begin(placement.source, placement: placement.id) } catch {
                        guard case .loadRefused(_, let reason) = error else { return }
                        return events.append(refuse(reason))
                    }
                    phase(t, p, .loading)
                    let request = NativeLoadRequest(id: loads.nextRequest, placement: placement)
                    loads.nextRequest += 1
                    loads.pending.append(PendingLoad(request: request, index: p, due: t + placement.latency))
                    loads.requested.append(request)
                case .loadImages:
                    if slider.imagesLoaded { return events.append(refuse("images are loaded already")) }
                    sliders[p].imagesLoaded = true
                case .swipe where run.placements[p].style == .single, .scroll where run.placements[p].style == .single:
                    return events.append(refuse("a single native ad does not scroll"))
                case .swipe(let direction, _):
                    guard let layout = run.layout(of: p, slider, at: t) else { return events.append(refuse("the slider shows no cards")) }
                    let target = min(max(0, slider.position + (direction == .left ? 1 : -1)), layout.lastPosition)
                    guard target != slider.position else {
                        return events.append(refuse("no card further \(direction == .left ? "right" : "left")"))
                    }
                    sliders[p].animation = (run.offset(slider, layout, at: t), t)
                    sliders[p].position = target
                case .scroll(let target, _):
                    guard let layout = run.layout(of: p, slider, at: t) else { return events.append(refuse("the slider shows no cards")) }
                    guard target < layout.cards.count else { return events.append(refuse("the slider shows \(layout.cards.count) cards")) }
                    sliders[p].position = min(target, layout.lastPosition)
                    sliders[p].animation = nil
                }
            case .tap(let x, let y):
                // The top card under the finger, in the last placement drawn there; a full-screen ad or landing
                // screen over the scene takes the tap instead.
                let run = self.run, sliders = self.sliders, screen = run.screen.state(at: t)
                // The tap is in the device's points (as the screen takes it), at their nearest pixel of the device's
                // own canvas; the layers are on the output canvas.
                let (dx, dy) = run.canvas.offset(of: screen), pixel = screen.canvasPixel(x: x, y: y)
                let hit = sliders.indices.reversed().lazy.filter { screen.scene(run.placements[$0].scene)?.presentation == nil }.compactMap { p in
                    run.layers(of: p, sliders[p], at: t).last { $0.card != nil && $0.contains(x: pixel.x + dx, y: pixel.y + dy) }.map { (p, $0) }
                }.first
                guard let (p, layer) = hit, let (index, adID) = layer.card, let ad = sliders[p].block?.ads[index] else { return }
                events.append(event(t, p, .moment(.click(link: ad.link.url)), card: index, ad: adID))
                beacons(ad.link.clickTrackers, .clickTracking, p, card: index, ad: adID, at: t)
            }
        }

        mutating func beacons(_ urls: [String], _ name: TrackingEventName, _ p: Int, card: Int, ad: String, at t: MediaTime) {
            for url in urls {
                events.append(event(t, p, .beacon(name, url: url), card: card, ad: ad))
            }
        }

        /// Binding failures and impressions of placement `p` from what frame time `t` shows.
        mutating func count(_ p: Int, at t: MediaTime) {
            guard sliders[p].phase == .loaded, let block = sliders[p].block,
                  let all = run.layout(of: p, sliders[p], at: t, bindingOnly: true) else { return }
            if let failure = all.header.bindingFailure(run.placements[p].style == .single ? [] : block.assets) {
                if counted.blockBindingReported.insert(p).inserted { events.append(event(t, p, .moment(.bindingFailure(message: failure)))) }
                return
            }
            for card in all.cards {
                guard let failure = card.layout.bindingFailure(block.ads[card.index].assets),
                      counted.cardBindingReported.insert([p, card.index]).inserted else { continue }
                events.append(event(t, p, .moment(.bindingFailure(message: failure)), card: card.index, ad: card.ad))
            }
            guard let layout = run.layout(of: p, sliders[p], at: t), layout.frame.width > 0 else { return }
            // The block counts as soon as it is bound and on screen; it does not wait for its images.
            if run.placements[p].style == .slider, counted.blockImpressed.insert(p).inserted { events.append(event(t, p, .moment(.impression))) }
            let offset = run.offset(sliders[p], layout, at: t)
            // A card counts only what the viewer can see: inside its scene's content frame, and not under a full-screen
            // ad or a landing screen the scene presents.
            let screen = run.screen.state(at: t)
            let placement = run.placements[p]
            let window = screen.scene(placement.scene)?.presentation == nil ? screen.layout(of: placement.scene).map(screen.contentFrame(of:)) : nil
            startVideos(p, layout, offset: offset, window: window, at: t)
            for (row, card) in layout.cards.enumerated() where !counted.cardImpressed.contains([p, card.index]) {
                let key = [p, card.index]
                guard let window, layout.visibleFraction(row, offset: offset, within: window) * Rational(2) >= .one else {
                    counted.visibleSince[key] = nil
                    continue
                }
                let since = counted.visibleSince[key] ?? t
                counted.visibleSince[key] = since
                guard (t - since).seconds >= .one else { continue }
                counted.cardImpressed.insert(key)
                events.append(event(t, p, .moment(.impression), card: card.index, ad: card.ad))
                beacons(block.ads[card.index].impressionBeacons, .impression, p, card: card.index, ad: card.ad, at: t)
            }
        }
    }

}
