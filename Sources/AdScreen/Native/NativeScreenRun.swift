import AdPlayback
import MediaCore

/// The native placements of one screen over a render: loads made by the script's `load slider` commands, the
/// cards each slider shows (no ad twice on the screen), their layout as the screen changes, swipes, scrolls,
/// taps, and the events with their output times.
///
/// `Evaluation` applies the rules frame by frame; `run(load:)` drives it over a render with the script's commands,
/// making each load as its frame comes (through the caller's loader, before the render), and `play` drives it as
/// it plays, with the commands as they apply and the answers as they arrive. Its outcome gives `events` and
/// `layers(at:)` at each output frame.
public struct NativeScreenRun: Sendable {
    /// The screen over the run; a live run records the changes as they apply (`Evaluation.screenChanged(_:)`).
    public internal(set) var screen: ScreenTimeline
    public let placements: [NativePlacement]
    public let frameRate: FrameRate
    /// The output time the run is evaluated until (the render's duration).
    public let end: MediaTime
    public let measurer: any TextMeasurer
    /// The render's fixed canvas: every layer is placed in it as the screen model's layers are
    /// (`ScreenCanvas.place`), so a slider sits inside its display however the device turns or folds.
    public let canvas: ScreenCanvas
    /// The native commands and taps of the script, in time order.
    let commands: [(time: MediaTime, command: Action)]

    enum Action: Sendable {
        case native(NativeCommand, placement: Int)
        case tap(x: Int, y: Int)
    }

    /// What a run takes of the commands it is given: a native command (with how it was written, for messages) or
    /// a tap. The script says which of its commands these are (`Script/NativeScreenRun+Script.swift`).
    public enum Input: Sendable {
        case native(NativeCommand, written: String)
        case tap(x: Int, y: Int)
    }

    /// - Parameter canvas: the render's canvas.
    /// - Throws: `NativeError.unknownPlacement` naming a command whose placement is unknown, or that names none
    ///   on a screen with several placements.
    public init(screen: ScreenTimeline, placements: [NativePlacement], inputs: [(time: MediaTime, input: Input)],
                frameRate: FrameRate, end: MediaTime, measurer: any TextMeasurer, canvas: ScreenCanvas) throws(NativeError) {
        self.screen = screen
        self.canvas = canvas
        self.placements = placements
        self.frameRate = frameRate
        self.end = end
        self.measurer = measurer
        var commands: [(MediaTime, Action)] = []
        for timed in inputs {
            commands.append((timed.time, try Self.action(timed.input, placements: placements)))
        }
        self.commands = commands
    }

    /// What `input` does to the native placements: a native command on the placement it names, a tap.
    ///
    /// - Throws: `NativeError.unknownPlacement` for a native command whose placement is unknown, or that names none
    ///   on a screen with several placements.
    static func action(_ input: Input, placements: [NativePlacement]) throws(NativeError) -> Action {
        switch input {
        case .native(let native, let written):
            let index: Int?
            if let name = native.placement { index = placements.firstIndex { $0.id == name } } else { index = placements.count == 1 ? 0 : nil }
            guard let index else {
                let names = placements.map { "\"\($0.id)\"" }.joined(separator: ", ")
                throw .unknownPlacement(command: written, reason: native.placement == nil
                    ? "name the placement, one of \(names)" : "no native placement is called \"\(native.placement!.excerpt)\" (there are \(names))")
            }
            return .native(native, placement: index)
        case .tap(let x, let y):
            return .tap(x: x, y: y)
        }
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

    /// Slider `p`'s layers at `time` in output pixels (the render's canvas, placed as every screen layer is): the
    /// slider, then the placeholder while loading, or each card with its assets.
    func layers(of p: Int, _ slider: SliderState, at time: MediaTime) -> [NativeLayer] {
        let placement = placements[p]
        let state = screen.state(at: time)
        guard let scene = state.layout(of: placement.scene) else { return [] }
        let safe = scene.safeFrame
        func pixels(_ x: Rational, _ y: Int, _ width: Int, _ height: Int) -> PixelRect {
            let origin = state.displayRect, scale = state.pointScale
            let x0 = scale.pixels(exactly: x), y0 = scale.pixels(y)
            return canvas.place(PixelRect(x: origin.x + x0, y: origin.y + y0, width: scale.pixels(exactly: x + Rational(Int64(width))) - x0,
                                          height: scale.pixels(y + height) - y0), of: state)
        }
        func layer(_ kind: NativeLayer.Kind, _ rect: PixelRect, clip: PixelRect) -> NativeLayer {
            NativeLayer(placement: placement.id, scene: placement.scene, kind: kind, rect: rect, clip: clip)
        }
        // The scene's content frame cuts the slider, as a feed's window cuts what scrolls past its bottom: nothing
        // of it is drawn outside its scene (over the bezel, or over another scene), or under a banner laid out below.
        let window = canvas.place(state.pixelRect(state.contentFrame(of: scene)), of: state)
        if slider.phase == .loading {
            // The placeholder has the height of an empty slider with one line of header and no cards yet.
            let height = 2 * placement.template.padding + placement.template.iconSize
            let rect = pixels(Rational(Int64(safe.x)), safe.y + placement.top, safe.width, height).intersection(window)
            return rect.width > 0 && rect.height > 0 ? [layer(.placeholder, rect, clip: rect)] : []
        }
        guard let layout = layout(of: p, slider, at: time), let block = slider.block else { return [] }
        let frame = layout.frame
        let clip = pixels(Rational(Int64(frame.x)), frame.y, frame.width, frame.height).intersection(window)
        guard clip.width > 0, clip.height > 0 else { return [] }
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
            guard rect.x < clip.maxX, rect.maxX > clip.x || (rect.width == 0 && rect.x >= clip.x), rect.y < clip.maxY else { continue }
            layers.append(layer(single ? .native(index: card.index, ad: card.ad) : .card(index: card.index, ad: card.ad), rect, clip: clip))
            assets(card.layout.frames, of: block.ads[card.index].assets, card: card.index, x: r.x, y: r.y)
        }
        return layers
    }
}
