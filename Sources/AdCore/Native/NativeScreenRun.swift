import MediaCore

/// The native placements of one screen over a render: loads made by the script's `load slider` commands, the
/// cards each slider shows (no ad twice on the screen), their layout as the screen changes, swipes, scrolls,
/// taps, and the events with their output times.
///
/// `run(load:)` makes the loads, in time order (each through the caller's loader, before the render); what
/// follows is a pure function of the outcomes, evaluated at each output frame: `events` and `layers(at:)`.
public struct NativeScreenRun: Sendable {
    public let screen: ScreenTimeline
    public let placements: [NativePlacement]
    public let frameRate: FrameRate
    /// The output time the run is evaluated until (the render's duration).
    public let end: MediaTime
    public let measurer: any TextMeasurer
    /// The native commands and taps of the script, in time order.
    let commands: [(time: MediaTime, command: Action)]

    enum Action: Sendable {
        case native(NativeCommand, placement: Int)
        case tap(x: Int, y: Int)
    }

    /// - Throws: `NativeError.unknownPlacement` naming a command whose placement is unknown, or that names none
    ///   on a screen with several placements.
    public init(screen: ScreenTimeline, placements: [NativePlacement], script: SessionScript, frameRate: FrameRate,
                end: MediaTime, measurer: any TextMeasurer) throws(NativeError) {
        self.screen = screen
        self.placements = placements
        self.frameRate = frameRate
        self.end = end
        self.measurer = measurer
        var commands: [(MediaTime, Action)] = []
        for timed in script.commands {
            switch timed.command {
            case .native(let command):
                let index: Int?
                if let name = command.placement { index = placements.firstIndex { $0.id == name } } else { index = placements.count == 1 ? 0 : nil }
                guard let index else {
                    let names = placements.map { "\"\($0.id)\"" }.joined(separator: ", ")
                    throw .unknownPlacement(command: timed.description, reason: command.placement == nil
                        ? "name the placement, one of \(names)" : "no native placement is called \"\(command.placement!)\" (there are \(names))")
                }
                commands.append((timed.time, .native(command, placement: index)))
            case .screen(.tap(let x, let y)):
                commands.append((timed.time, .tap(x: x, y: y)))
            default:
                break
            }
        }
        self.commands = commands
    }

    /// A run evaluated: its events in time order, and its layers at any output time.
    public struct Outcome: Sendable {
        public let events: [NativeAdEvent]
        /// When each video in a card starts playing, in time order (`NativeVideoStart`).
        public let videoStarts: [NativeVideoStart]
        let snapshots: [(time: MediaTime, sliders: [SliderState])]
        let run: NativeScreenRun

        /// The layers of every placement at output time `time`, bottom first.
        public func layers(at time: MediaTime) -> [NativeLayer] {
            let sliders = sliders(at: time)
            return sliders.indices.flatMap { run.layers(of: $0, sliders[$0], at: time) }
        }

        /// Every placement's state at output time `time`: the last snapshot taken by then, else all idle.
        func sliders(at time: MediaTime) -> [SliderState] {
            snapshots.last { $0.time <= time }?.sliders ?? run.placements.map { _ in SliderState() }
        }
    }

    /// The state of one slider between two commands.
    struct SliderState: Sendable {
        var phase: NativeLoadState.Phase = .idle
        /// The cards kept after duplicates were left out, with their index in the response.
        var block: NativeBlock?
        var indices: [Int] = []
        var position = 0
        /// A swipe's animation: from this offset (points), starting then, towards `position`.
        var animation: (from: Rational, start: MediaTime)?
        var imagesLoaded = true
    }

    /// Makes the loads the script asks for and evaluates the run.
    ///
    /// - Parameter load: fetches one placement's block (`NativeAdLoader.load(_:)` in a render).
    public func run(load: (NativePlacement) async throws(NativeError) -> NativeBlock) async -> Outcome {
        var states = placements.map { NativeLoadStates(maximumRetries: $0.maximumRetries) }
        var results: [Int: Result<NativeBlock, NativeError>] = [:]
        for (i, entry) in commands.enumerated() {
            guard case .native(.loadSlider, let p) = entry.command else { continue }
            do throws(NativeError) {
                try states[p].begin(placements[p].source, placement: placements[p].id)
            } catch {
                results[i] = .failure(error)
                continue
            }
            do throws(NativeError) {
                results[i] = .success(try await load(placements[p]))
                states[p].finish(placements[p].source, succeeded: true)
            } catch {
                results[i] = .failure(error)
                states[p].finish(placements[p].source, succeeded: false)
            }
        }
        return evaluate(results)
    }

    /// The pure part: the events and states given each load command's outcome, frame by frame.
    func evaluate(_ results: [Int: Result<NativeBlock, NativeError>]) -> Outcome {
        var evaluation = Evaluation(run: self, results: results)
        for frame in 0..<max(0, frameRate.firstFrame(atOrAfter: end)) {
            evaluation.step(frame: frame)
        }
        return Outcome(events: evaluation.events, videoStarts: evaluation.videoStarts, snapshots: evaluation.snapshots, run: self)
    }

    /// What the frame loop carries from one frame to the next.
    struct Evaluation {
        let run: NativeScreenRun
        let results: [Int: Result<NativeBlock, NativeError>]
        var sliders: [SliderState]
        var events: [NativeAdEvent] = []
        var snapshots: [(time: MediaTime, sliders: [SliderState])] = []
        /// Which placement first showed each ad id and creative (`ad:ID`, `crid:ID`, `media:URL`).
        var shown: [String: String] = [:]
        var pendingLoads: [(due: MediaTime, placement: Int, result: Result<NativeBlock, NativeError>)] = []
        var nextCommand = 0
        /// Placements whose block impression or binding failure was counted; cards as [placement, index].
        var blockImpressed = Set<Int>(), blockBindingReported = Set<Int>()
        var cardImpressed = Set<[Int]>(), cardBindingReported = Set<[Int]>()
        /// Since when each card has been at least half visible without a break.
        var visibleSince: [[Int]: MediaTime] = [:]
        /// The videos started, and the cards ([placement, index]) whose video has started since their block loaded.
        var videoStarts: [NativeVideoStart] = []
        var videoStarted = Set<[Int]>()

        init(run: NativeScreenRun, results: [Int: Result<NativeBlock, NativeError>]) {
            self.run = run
            self.results = results
            sliders = run.placements.map { SliderState(imagesLoaded: $0.loadImages) }
        }

        func event(_ t: MediaTime, _ p: Int, _ kind: NativeAdEvent.Kind, card: Int? = nil, ad: String? = nil,
                   message: String? = nil) -> NativeAdEvent {
            NativeAdEvent(time: t, placement: run.placements[p].id, scene: run.placements[p].scene, kind: kind, card: card, ad: ad,
                          message: message)
        }

        mutating func phase(_ t: MediaTime, _ p: Int, _ phase: NativeLoadState.Phase) {
            sliders[p].phase = phase
            var e = event(t, p, .phase)
            e.phase = phase
            events.append(e)
        }

        /// One output frame: loads that are due land, then the commands due apply in order, then a load they
        /// began without latency lands (so it shows at its own frame); then binding and impressions are counted
        /// on what this frame shows.
        mutating func step(frame: Int64) {
            let t = run.frameRate.time(ofFrame: frame)
            if frame == 0 { for p in run.placements.indices { phase(t, p, .idle) } }
            var changed = frame == 0
            changed = land(at: t) || changed
            while nextCommand < run.commands.count, run.frameRate.firstFrame(atOrAfter: run.commands[nextCommand].time) <= frame {
                apply(run.commands[nextCommand].command, index: nextCommand, at: t)
                nextCommand += 1
                changed = true
            }
            changed = land(at: t) || changed
            if changed { snapshots.append((t, sliders)) }
            for p in run.placements.indices { count(p, at: t) }
        }

        /// Lands the loads whose latency has passed by `t`; true when one did.
        mutating func land(at t: MediaTime) -> Bool {
            var landed = false
            while let i = pendingLoads.firstIndex(where: { $0.due <= t }) {
                let (_, p, result) = pendingLoads.remove(at: i)
                landed = true
                switch result {
                case .success(let block):
                    sliders[p].block = block
                    sliders[p].indices = withoutDuplicates(block, placement: p, at: t)
                    sliders[p].position = 0
                    sliders[p].animation = nil
                    blockImpressed.remove(p)
                    blockBindingReported.remove(p)
                    cardImpressed = cardImpressed.filter { $0[0] != p }
                    cardBindingReported = cardBindingReported.filter { $0[0] != p }
                    visibleSince = visibleSince.filter { $0.key[0] != p }
                    videoStarted = videoStarted.filter { $0[0] != p }
                    phase(t, p, .loaded)
                    events.append(event(t, p, .onAdLoad))
                case .failure(let error):
                    phase(t, p, .failed)
                    var failure = event(t, p, .onAdFailure, message: error.description)
                    failure.failure = error.failureKind
                    events.append(failure)
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
                    var e = event(t, p, .duplicate, card: index, ad: ad.id, message: "ad \"\(ad.id)\" is left out: placement \"\(other)\" already showed it")
                    e.otherPlacement = other
                    events.append(e)
                    continue
                }
                for key in keys where shown[key] == nil { shown[key] = id }
                kept.append(index)
            }
            return kept
        }

        mutating func apply(_ action: Action, index: Int, at t: MediaTime) {
            switch action {
            case .native(let command, let p):
                let slider = sliders[p], current = self
                let refuse = { (why: String) in current.event(t, p, .refused, message: "\(command): \(why)") }
                switch command {
                case .loadSlider:
                    guard let result = results[index] else { return }
                    if case .failure(.loadRefused(_, let reason)) = result { return events.append(refuse(reason)) }
                    phase(t, p, .loading)
                    pendingLoads.append((t + run.placements[p].latency, p, result))
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
                let hit = sliders.indices.reversed().lazy.filter { screen.scene(run.placements[$0].scene)?.presentation == nil }.compactMap { p in
                    run.layers(of: p, sliders[p], at: t).last { $0.card != nil && $0.contains(x: x, y: y) }.map { (p, $0) }
                }.first
                guard let (p, layer) = hit, let (index, adID) = layer.card, let ad = sliders[p].block?.ads[index] else { return }
                var click = event(t, p, .onAdClick, card: index, ad: adID)
                click.url = ad.link.url
                events.append(click)
                beacons(ad.link.clickTrackers, .clickTracking, p, card: index, ad: adID, at: t)
            }
        }

        mutating func beacons(_ urls: [String], _ name: TrackingEventName, _ p: Int, card: Int, ad: String, at t: MediaTime) {
            for url in urls {
                var beacon = event(t, p, .beacon, card: card, ad: ad)
                beacon.url = url
                beacon.beacon = name
                events.append(beacon)
            }
        }

        /// Binding failures and impressions of placement `p` from what frame time `t` shows.
        mutating func count(_ p: Int, at t: MediaTime) {
            guard sliders[p].phase == .loaded, let block = sliders[p].block,
                  let all = run.layout(of: p, sliders[p], at: t, bindingOnly: true) else { return }
            if let failure = all.header.bindingFailure(run.placements[p].style == .single ? [] : block.assets) {
                if blockBindingReported.insert(p).inserted { events.append(event(t, p, .onAdBindingFailure, message: failure)) }
                return
            }
            for card in all.cards {
                guard let failure = card.layout.bindingFailure(block.ads[card.index].assets),
                      cardBindingReported.insert([p, card.index]).inserted else { continue }
                events.append(event(t, p, .onAdBindingFailure, card: card.index, ad: card.ad, message: failure))
            }
            guard let layout = run.layout(of: p, sliders[p], at: t), layout.frame.width > 0 else { return }
            // The block counts as soon as it is bound and on screen; it does not wait for its images.
            if run.placements[p].style == .slider, blockImpressed.insert(p).inserted { events.append(event(t, p, .onAdImpression)) }
            let offset = run.offset(sliders[p], layout, at: t)
            // A card counts only what the viewer can see: inside its scene's window, and not under a full-screen
            // ad or a landing screen the scene presents.
            let screen = run.screen.state(at: t)
            let placement = run.placements[p]
            let window = screen.scene(placement.scene)?.presentation == nil ? screen.layout(of: placement.scene)?.frame : nil
            startVideos(p, layout, offset: offset, window: window, at: t)
            for (row, card) in layout.cards.enumerated() where !cardImpressed.contains([p, card.index]) {
                let key = [p, card.index]
                guard let window, layout.visibleFraction(row, offset: offset, within: window) * Rational(2) >= .one else {
                    visibleSince[key] = nil
                    continue
                }
                let since = visibleSince[key] ?? t
                visibleSince[key] = since
                guard (t - since).seconds >= .one else { continue }
                cardImpressed.insert(key)
                events.append(event(t, p, .onAdImpression, card: card.index, ad: card.ad))
                beacons(block.ads[card.index].impressionBeacons, .impression, p, card: card.index, ad: card.ad, at: t)
            }
        }
    }

    /// Slider `p`'s layout at `time`: its block's cards that bind (all of them with `bindingOnly`), in the
    /// scene's safe area as the screen is then; `nil` when nothing is loaded, the scene is off screen, or the
    /// block fails binding (unless `bindingOnly`).
    func layout(of p: Int, _ slider: SliderState, at time: MediaTime, bindingOnly: Bool = false) -> NativeSliderLayout? {
        guard slider.phase == .loaded, let block = slider.block,
              let scene = screen.state(at: time).layout(of: placements[p].scene) else { return nil }
        let safe = scene.safeFrame
        let placement = placements[p]
        // A single native ad is the first card kept, alone: no block assets, no next card in its place.
        let single = placement.style == .single
        let candidates = (single ? Array(slider.indices.prefix(1)) : slider.indices).map { (index: $0, ad: block.ads[$0]) }
        let blockAssets = single ? [] : block.assets
        let all = NativeSliderLayout(origin: (safe.x, safe.y + placement.top), width: safe.width, blockAssets: blockAssets,
                                     cards: candidates, template: placement.template, measurer: measurer)
        if bindingOnly { return all }
        guard all.header.bindingFailure(blockAssets) == nil else { return nil }
        let bound = all.cards.filter { $0.layout.bindingFailure(block.ads[$0.index].assets) == nil }.map(\.index)
        return NativeSliderLayout(origin: (safe.x, safe.y + placement.top), width: safe.width, blockAssets: blockAssets,
                                  cards: bound.map { (index: $0, ad: block.ads[$0]) }, template: placement.template, measurer: measurer)
    }

    /// The row's offset at `time`: on its position, or on the way there during a swipe's animation.
    func offset(_ slider: SliderState, _ layout: NativeSliderLayout, at time: MediaTime) -> Rational {
        let target = Rational(Int64(layout.offset(ofPosition: slider.position)))
        guard let (from, start) = slider.animation else { return target }
        let elapsed = (time - start).seconds
        let duration = NativeSliderLayout.swipeDuration.seconds
        guard elapsed < duration else { return target }
        return from + (target - from) * elapsed / duration
    }

    /// Slider `p`'s layers at `time` in output pixels: the slider, then the placeholder while loading, or each
    /// card with its assets.
    func layers(of p: Int, _ slider: SliderState, at time: MediaTime) -> [NativeLayer] {
        let placement = placements[p]
        let state = screen.state(at: time)
        guard let scene = state.layout(of: placement.scene) else { return [] }
        let safe = scene.safeFrame
        func pixels(_ x: Rational, _ y: Int, _ width: Int, _ height: Int) -> PixelRect {
            let origin = state.displayRect, scale = state.pointScale
            let x0 = scale.pixels(exactly: x), y0 = scale.pixels(y)
            return PixelRect(x: origin.x + x0, y: origin.y + y0, width: scale.pixels(exactly: x + Rational(Int64(width))) - x0,
                             height: scale.pixels(y + height) - y0)
        }
        func layer(_ kind: NativeLayer.Kind, _ rect: PixelRect, clip: PixelRect) -> NativeLayer {
            NativeLayer(placement: placement.id, scene: placement.scene, kind: kind, rect: rect, clip: clip)
        }
        if slider.phase == .loading {
            // The placeholder has the height of an empty slider with one line of header and no cards yet.
            let height = 2 * placement.template.padding + placement.template.iconSize
            let rect = pixels(Rational(Int64(safe.x)), safe.y + placement.top, safe.width, height)
            return [layer(.placeholder, rect, clip: rect)]
        }
        guard let layout = layout(of: p, slider, at: time), let block = slider.block else { return [] }
        let frame = layout.frame
        let clip = pixels(Rational(Int64(frame.x)), frame.y, frame.width, frame.height)
        let single = placement.style == .single
        var layers = single ? [] : [layer(.slider, clip, clip: clip)]
        func assets(_ frames: [NativeCardLayout.Frame], of assets: [NativeAsset], card: Int?, x: Rational, y: Int) {
            for f in frames where f.rect.width > 0 && f.rect.height > 0 {
                var isImage = false
                if let a = f.asset, case .image = assets[a].content { isImage = true }
                layers.append(layer(.asset(f.slot, card: card, asset: f.asset, placeholder: isImage && !slider.imagesLoaded),
                                    pixels(x + Rational(Int64(f.rect.x)), y + f.rect.y, f.rect.width, f.rect.height), clip: clip))
            }
        }
        assets(layout.header.frames, of: block.assets, card: nil, x: Rational(Int64(frame.x)), y: frame.y)
        let offset = offset(slider, layout, at: time)
        for (row, card) in layout.cards.enumerated() {
            let r = layout.cardRect(row, offset: offset)
            let rect = pixels(r.x, r.y, r.width, r.height)
            // Only the cards in the viewport (a zero-size one by its place) are drawn and listed.
            guard rect.x < clip.maxX, rect.maxX > clip.x || (rect.width == 0 && rect.x >= clip.x) else { continue }
            layers.append(layer(single ? .native(index: card.index, ad: card.ad) : .card(index: card.index, ad: card.ad), rect, clip: clip))
            assets(card.layout.frames, of: block.ads[card.index].assets, card: card.index, x: r.x, y: r.y)
        }
        return layers
    }
}
