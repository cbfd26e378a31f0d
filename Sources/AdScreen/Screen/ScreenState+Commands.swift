import AdPlayback
import MediaCore

/// Applying screen commands: each either changes the state and returns its events, or throws and changes nothing.
extension ScreenState {
    /// Applies `command` and returns what changed, in the order an app hears it (see `ScreenEvent`).
    ///
    /// - Parameter canvas: the output canvas the screen is drawn on (`ScreenCanvas.frame(of:)` places the state's
    ///   layers in it, centred, when the device may rotate). A `tap` is not in its pixels but in the device's points
    ///   (`canvasPoints`, hit-tested at their nearest pixel of `canvasSize`, where `layers()` places the layers), so
    ///   that the same tap lands on the same layer whatever canvas or point scale a render or `play` draws with;
    ///   `nil` when the state's own canvas is the output's.
    /// - Throws: `ScreenError.unknownScene` for a scene the app does not have, `.refused` for a command that
    ///   cannot apply now (rotating to the orientation the device is in, folding a device that does not fold,
    ///   splitting one scene, tapping outside the canvas, dismissing what is not presented…).
    public mutating func apply(_ command: ScreenCommand, canvas output: ScreenCanvas? = nil) throws(ScreenError) -> [ScreenEvent] {
        var next = self
        let written = command.description
        func refuse(_ detail: String) -> ScreenError { .refused(command: written, detail: detail) }
        func known(_ scene: SceneID) throws(ScreenError) -> SceneID {
            guard self.scene(scene) != nil else { throw .unknownScene(command: written, scene: scene) }
            return scene
        }
        func onScreen(_ scene: SceneID) throws(ScreenError) -> SceneLayout {
            guard let layout = layout(of: try known(scene)) else { throw refuse("scene \"\(scene)\" is not on screen") }
            return layout
        }
        var events: [ScreenEvent] = []
        switch command {
        case .rotate(let orientation):
            guard orientation != self.orientation else { throw refuse("the device is already \(orientation.rawValue)") }
            next.orientation = orientation
        case .fold, .unfold:
            let target: FoldState = command == .fold ? .folded : .unfolded
            guard device.isFoldable else { throw refuse("\(device.name) does not fold") }
            guard fold != target else { throw refuse("the device is already \(target.rawValue)") }
            next.fold = target
        case .split(let fraction):
            guard device.supportsMultipleScenes else { throw refuse("\(device.name) shows one scene at a time") }
            guard scenes.count >= 2 else { throw refuse("Split View needs two scenes; the app has one") }
            // The scenes on screen, bottom first, completed from the declared ones when only one is showing.
            var pair = arrangement.scenesOnScreen
            if pair.count < 2 { pair += scenes.map(\.id).filter { !pair.contains($0) } }
            next.arrangement = .split(leading: pair[0], trailing: pair[1], fraction)
        case .resize(let scene, let size):
            _ = try onScreen(scene)
            guard screenSize.fits(size) else { throw refuse("\(size) is larger than the screen, \(screenSize)") }
            next.arrangement = .free(sceneLayouts.map { layout in
                guard layout.id == scene else { return .init(scene: layout.id, frame: layout.frame) }
                // Keep the scene's place, moved only as far as the new size needs to stay on the display.
                let x = min(layout.frame.x, screenSize.width - size.width)
                let y = min(layout.frame.y, screenSize.height - size.height)
                return .init(scene: scene, frame: PointRect(origin: x, y, size: size))
            })
        case .activate(let scene):
            _ = try known(scene)
            guard scene != activeScene else { throw refuse("scene \"\(scene)\" is already active") }
            if !arrangement.scenesOnScreen.contains(scene) { next.arrangement = .fullScreen(scene) }
            next.activeScene = scene
        case .presentInterstitial(let scene):
            _ = try onScreen(scene)
            if let shown = self.scene(scene)?.presentation { throw refuse("scene \"\(scene)\" already presents \(shown.rawValue)") }
            next.setPresentation(.interstitial, of: scene)
            events.append(.presented(scene: scene, .interstitial))
        case .dismiss(let scene):
            guard let shown = self.scene(try known(scene))?.presentation else {
                throw refuse("scene \"\(scene)\" presents nothing")
            }
            next.setPresentation(nil, of: scene)
            events.append(.dismissed(scene: scene, shown))
        case .tap(let x, let y):
            // In the device's points, hit-tested at their nearest pixel of the device's own canvas: a live session's
            // output canvas holds both orientations (it may turn at any time) and a render's only what its script
            // reaches, and a render of a play's log may use another point scale, so output pixels would differ.
            let canvas = canvasPoints
            guard x < canvas.width, y < canvas.height else { throw refuse("(\(x), \(y)) is outside the device's \(canvas) points") }
            let pixel = canvasPixel(x: x, y: y)
            let own = layers()
            // The layer hit, as drawn on the output canvas (`frame(of:)` places `layers()` one for one).
            let hit = own.lastIndex { !$0.kind.isSystemChrome && $0.contains(x: pixel.x, y: pixel.y) }.map { output?.frame(of: self).layers[$0] ?? own[$0] }
            events.append(.tapped(x: x, y: y, layer: hit))
            if let hit {
                // A touch activates the scene it lands in, as on iPadOS; a tap on a banner opens its landing screen.
                next.activeScene = hit.scene
                if hit.kind == .banner {
                    next.setPresentation(.bannerLanding, of: hit.scene)
                    events.append(.presented(scene: hit.scene, .bannerLanding))
                }
            }
        }
        if !next.arrangement.scenesOnScreen.contains(next.activeScene), let top = next.arrangement.scenesOnScreen.last {
            // The active scene left the screen (a split of two others): the top scene on screen takes over.
            next.activeScene = top
        }
        let following = next.layoutEvents(from: self)
        // A tap is heard first and activates its scene after; any other command changes the layout first.
        if case .tap = command { events += following } else { events = following + events }
        self = next
        return events
    }

    /// Requests every banner on screen that has not been loaded for its current width (the app's first load),
    /// returning a `bannerNeedsReload` for each; after that, `apply` requests a banner again when its width
    /// changes or its scene comes on screen.
    public mutating func loadBanners() -> [ScreenEvent] {
        var events: [ScreenEvent] = []
        for index in scenes.indices where scenes[index].hasBanner {
            guard let frame = bannerFrame(of: scenes[index].id), scenes[index].bannerLoadedSize?.width != frame.width else { continue }
            scenes[index].bannerLoadedSize = frame.size
            events.append(.bannerNeedsReload(scene: scenes[index].id, size: frame.size))
        }
        return events
    }

    /// The events that take an app from `old` to this state's layout: will-transition for each scene on screen
    /// before and after whose size changes, a coordinate-space update for each scene whose frame or safe area changes, activation changes,
    /// then each banner's reload (new width) or re-anchoring (same width, new place or height).
    private mutating func layoutEvents(from old: ScreenState) -> [ScreenEvent] {
        let before = Dictionary(uniqueKeysWithValues: old.sceneLayouts.map { ($0.id, $0) })
        let after = sceneLayouts
        var events: [ScreenEvent] = after.compactMap { layout in
            // A scene coming on screen is not resized: it only hears its first coordinate-space update.
            guard let old = before[layout.id], old.frame.size != layout.frame.size else { return nil }
            return .willTransition(scene: layout.id, to: layout.frame.size)
        }
        events += after.filter { before[$0.id] != $0 }.map { .didUpdateCoordinateSpace($0) }
        events += scenes.map(\.id).filter { old.activationState(of: $0) != activationState(of: $0) }
            .map { .activationChanged(scene: $0, to: activationState(of: $0)) }
        for index in scenes.indices where scenes[index].hasBanner {
            let id = scenes[index].id, loaded = scenes[index].bannerLoadedSize, before = old.bannerFrame(of: id)
            guard let frame = bannerFrame(of: id), before != frame else { continue }
            // Not loaded: requested when its scene comes on screen, left to `loadBanners()` otherwise.
            if loaded == nil && before != nil { continue }
            switch AnchoredAdaptiveBanner.change(from: loaded, to: frame.size) {
            case .reload:
                scenes[index].bannerLoadedSize = frame.size
                events.append(.bannerNeedsReload(scene: id, size: frame.size))
            case .reanchor:
                scenes[index].bannerLoadedSize = frame.size
                events.append(.bannerReanchored(scene: id, frame: frame))
            case .unchanged:
                events.append(.bannerReanchored(scene: id, frame: frame))
            }
        }
        return events
    }

    /// `scene`'s interstitial failed to present (no ad loaded, too large for its window, its media unavailable):
    /// nothing covers the scene, so a later `present` is accepted and a `dismiss` refused. No event: the screen
    /// ads' own failure event says it.
    public mutating func presentFailed(in scene: SceneID) {
        guard self.scene(scene)?.presentation == .interstitial else { return }
        setPresentation(nil, of: scene)
    }

    private mutating func setPresentation(_ presentation: ScenePresentation?, of scene: SceneID) {
        guard let index = scenes.firstIndex(where: { $0.id == scene }) else { return }
        scenes[index].presentation = presentation
    }
}
