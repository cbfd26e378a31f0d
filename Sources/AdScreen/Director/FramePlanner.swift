import AdPlayback
import Foundation
import MediaCore

/// What the renderer has opened of a frame's media, asked by the `Director` while it decides and plans a frame:
/// media-free answers (a file path, a URL, whether a creative opened), so that deciding and planning stay free of
/// FFmpeg. It is the one way the director learns what the media holds; what fails while a frame is drawn comes back
/// as a `MediaReport` instead.
///
/// Which banner or full-screen ad is on screen is decided by the screen ads' rules (`ScreenAdRun` and their
/// playback); whether its creative could be opened is what the renderer found before the render (or, in `play`, when
/// it arrived: the director hands it each creative loaded live, `openFullScreen` and `showBanner`).
public protocol FrameMediaCatalog {
    /// Where the banner creative `scene` shows at output time `time` was read from; `nil` when it shows none (none
    /// loaded, or it could not be opened).
    func bannerSource(of scene: SceneID, at time: MediaTime) -> String?
    /// What full-screen request `request` loaded that can be drawn; `nil` when nothing (its present failed).
    func fullScreenCreative(request: Int) -> LoadedFullScreen?
    /// A native asset's image: `nil` when it was not fetched or does not open; else where it was read from, when
    /// known (`nil` in `play`).
    func nativeImage(_ url: String) -> LoadedImage?
    /// The file the player of `scene` (not the primary one) shows: that of its last picture fetched; `nil` when it
    /// shows none (it is not drawn).
    func playerSource(of scene: SceneID) -> String?
    /// `play`: opens `creative`, loaded live by full-screen request `request`, to be drawn from now on.
    ///
    /// - Returns: for a video, whether it opened and its length (one that cannot play fails to present); `nil` for
    ///   an image.
    func openFullScreen(_ creative: DisplayCreative, request: Int) -> FullScreenVideoOutcome?
    /// `play`: shows `creative` (`nil`: nothing) as `scene`'s banner from output time `time` on.
    ///
    /// - Throws: `ScreenAdError.mediaUnavailable` when its image cannot be decoded; the banner then shows nothing.
    func showBanner(_ creative: DisplayCreative?, in scene: SceneID, from time: MediaTime) throws(ScreenAdError)
    /// `play`: the native images that arrived (bytes by URL), each read from its `origins` entry, to be drawn from
    /// now on.
    func addNativeImages(_ images: [String: Data], origins: [String: String])
}

/// A full-screen creative the renderer opened, and where it was read from.
public enum LoadedFullScreen: Hashable, Sendable {
    case image(source: String)
    case video(source: String)
}

/// A native image the renderer opened, and where it was read from (`nil` when not known).
public struct LoadedImage: Hashable, Sendable {
    public var source: String?

    public init(source: String?) { self.source = source }
}

/// Makes a `FramePlan` from the players' decisions: the layers of every player, screen ad and native placement
/// of a frame, each placed on the output canvas once (the screen model's and the native placements' rectangles come
/// placed by `ScreenCanvas.place`; the picture-in-picture window is laid out in a placed window), and the frame's
/// sound and timeline layers. Media-free: it can be run, frame by frame, without FFmpeg.
public struct FramePlanner: Sendable {
    /// The output canvas.
    public let canvas: PixelSize
    public let frameRate: FrameRate
    /// The picture-in-picture backdrop's file (`--pip-background`); the slate when `nil`.
    public let background: String?
    /// Whether the screen's ads have creatives (`false`: `--device` alone, where a full-screen ad is a placeholder).
    public let screenAdCreatives: Bool
    /// The device's point scale (cards are measured in points).
    public let pointScale: PointScale

    public init(canvas: PixelSize, frameRate: FrameRate, background: String?, screenAdCreatives: Bool,
                pointScale: PointScale?) {
        self.canvas = canvas
        self.frameRate = frameRate
        self.background = background
        self.screenAdCreatives = screenAdCreatives
        self.pointScale = pointScale ?? PointScale(.one)
    }

    /// A player's frame as the planner takes it: its scene, its session's decision, the file of the source it
    /// shows, and whether its session has ended (its last frame held).
    public struct Player: Sendable {
        public var scene: SceneID?
        public var decision: FrameDecision
        public var source: String
        public var held: Bool

        public init(scene: SceneID?, decision: FrameDecision, source: String, held: Bool = false) {
            self.scene = scene
            self.decision = decision
            self.source = source
            self.held = held
        }

        /// Its layer in the timeline, for a player other than the primary one: the source and tick on screen,
        /// whether frozen, and the ad playing.
        func timelineLayer(kind: Timeline.Layer.Player.Kind, scene: SceneID, rect: PixelRect) -> Timeline.Layer {
            var ad: AdReference?
            if case .ad(let reference, _) = decision.source { ad = reference }
            return .player(.init(kind, .init(scene: scene, rect: rect), source: source,
                                 playing: .init(srcStartTick: decision.source.tick, paused: decision.isPaused || held, ad: ad)))
        }
    }

    /// What the frame of `primary` shows and plays: on a device, the screen with every scene's player (`others`),
    /// screen ads and native placements (`native`), the full-screen ads from `screenAds`; else the player alone.
    public func plan(_ primary: Player, others: [Player] = [], screenAds: ScreenAdPlayback?, native: NativeScreenRun.Outcome?,
                     catalog: any FrameMediaCatalog) -> FramePlan {
        let decision = primary.decision
        let audio = self.audio(decision, screenAds: screenAds, catalog: catalog)
        guard let screen = decision.screen, let scene = decision.playerScene else {
            let layers = playerLayers(.player(nil, decision.source), in: PixelRect(size: canvas), pip: decision.pip,
                                      frame: decision.frame, scene: nil)
            return FramePlan(frame: decision.frame, layers: layers, playerLayer: layers.count - 1, audio: audio, timeline: nil)
        }
        var plan = screenLayers(screen, primary: primary, scene: scene, others: others, screenAds: screenAds,
                                native: native, catalog: catalog)
        plan.audio = audio
        return plan
    }

    /// The frame's sound: a video full-screen ad's over the player's scene, else silence while paused, else the
    /// player's source.
    func audio(_ decision: FrameDecision, screenAds: ScreenAdPlayback?, catalog: any FrameMediaCatalog) -> PlannedAudio {
        if let scene = decision.playerScene, screenAdCreatives,
           let shown = screenAds?.presentation(of: scene, at: frameRate.time(ofFrame: decision.frame)),
           case .video? = catalog.fullScreenCreative(request: shown.request) {
            return .fullScreenVideo(request: shown.request, scene: scene, start: frameRate.firstFrame(atOrAfter: shown.from))
        }
        return decision.isPaused ? .silence : .player(decision.source)
    }

    /// A player's layers in `window`: its picture letterboxed, or, in picture-in-picture, the backdrop (the
    /// background or the slate) over the window and the picture letterboxed in the floating one. The picture is the
    /// last layer.
    func playerLayers(_ picture: MediaReference, in window: PixelRect, pip: PixelRect?, frame: Int64,
                      scene: SceneID?) -> [PlannedLayer] {
        guard let pip else { return [PlannedLayer(.picture(picture, .letterbox), in: window, scene: scene)] }
        let backdrop: PlannedLayer.Content = background == nil ? .color(.slate) : .picture(.pictureInPictureBackground(frame: frame), .fill)
        return [PlannedLayer(backdrop, in: window, scene: scene), PlannedLayer(.picture(picture, .letterbox), in: pip, scene: scene)]
    }

    /// A device frame's plan without its sound, bottom first: the bezel over the canvas, the display black, then
    /// each scene's layers (and the system's divider or edge). The player's scene shows the player (the content or
    /// the ad, or the picture-in-picture backdrop and window); another scene shows its own player, or black when it
    /// has none; a banner is its loaded creative stretched over its rectangle; a full-screen ad its creative (a
    /// placeholder colour without creatives); a landing screen a plain colour. A scene's native placements are
    /// drawn right after its content, and the picture-in-picture window floats over everything.
    func screenLayers(_ screen: ScreenFrame, primary: Player, scene playerScene: SceneID, others: [Player],
                      screenAds: ScreenAdPlayback?, native: NativeScreenRun.Outcome?,
                      catalog: any FrameMediaCatalog) -> FramePlan {
        let decision = primary.decision, frame = decision.frame
        let time = frameRate.time(ofFrame: frame)
        var plan = FramePlan(frame: frame, layers: Self.background(canvas: canvas, display: screen.display),
                             playerLayer: nil, audio: .silence, timeline: [])
        var timeline: [Timeline.Layer] = []
        // The picture-in-picture window floats over every scene and banner, as the system draws it.
        var floating: (layer: PlannedLayer, timeline: Timeline.Layer, isPrimary: Bool)?
        for layer in screen.layers {
            let area = Timeline.Layer.Area(scene: layer.scene, rect: layer.rect)
            switch layer.kind {
            case .content where layer.scene == playerScene:
                var player = playerLayers(.player(playerScene, decision.source), in: layer.rect, pip: decision.pip, frame: frame,
                                          scene: layer.scene)
                if let pip = decision.pip {
                    floating = (player.removeLast(), .player(.init(.pip, .init(scene: layer.scene, rect: pip), source: primary.source)), true)
                    plan.layers += player
                    timeline.append(.player(.init(.content, area, source: background)))
                } else {
                    plan.layers += player
                    plan.playerLayer = plan.layers.count - 1
                    let kind: Timeline.Layer.Player.Kind = if case .ad = decision.source { .ad } else { .content }
                    timeline.append(.player(.init(kind, area, source: primary.source)))
                }
            case .content:
                if let shown = others.first(where: { $0.scene == layer.scene }) {
                    // Another scene's player: its picture in its window, or its backdrop and floating window.
                    let pip = shown.decision.pip
                    var player = playerLayers(.player(layer.scene, shown.decision.source), in: layer.rect, pip: pip, frame: frame,
                                              scene: layer.scene)
                    if let pip {
                        floating = (player.removeLast(), shown.timelineLayer(kind: .pip, scene: layer.scene, rect: pip), false)
                        timeline.append(.player(.init(.content, area, source: background)))
                    } else {
                        let kind: Timeline.Layer.Player.Kind = if case .ad = shown.decision.source { .ad } else { .content }
                        timeline.append(shown.timelineLayer(kind: kind, scene: layer.scene, rect: layer.rect))
                    }
                    plan.layers += player
                } else {
                    plan.layers.append(PlannedLayer(.color(.black), in: layer.rect, scene: layer.scene))
                    timeline.append(.player(.init(.content, area, source: nil)))
                }
            case .banner:
                // The creative the loader fetched for this scene's current width (nothing when it failed).
                let source = catalog.bannerSource(of: layer.scene, at: time)
                if source != nil {
                    plan.layers.append(PlannedLayer(.picture(.banner(layer.scene, frame: frame), .fill), in: layer.rect, scene: layer.scene))
                }
                timeline.append(.banner(area, source: source))
            case .fullscreen:
                guard let shown = fullScreenLayers(layer, frame: frame, screenAds: screenAds, catalog: catalog) else { continue }
                plan.layers += shown.layers
                timeline.append(shown.timeline)
            case .overlay:
                plan.layers.append(PlannedLayer(.color(.overlay), in: layer.rect, scene: layer.scene))
                timeline.append(.overlay(area))
            case .shadow:
                guard let shadow = layer.shadow else { continue }
                plan.layers.append(PlannedLayer(.shadow(caster: shadow.caster, radius: shadow.radius, reach: shadow.reach),
                                                in: layer.rect, scene: layer.scene))
                timeline.append(Timeline.Layer(shadow: layer))
            case .divider, .edge:
                // The divider lies between the scenes, in neither: it is planned and recorded at the screen's level.
                let scene = layer.kind == .divider ? SceneID.screen : layer.scene
                plan.layers += Self.chrome(layer.kind, in: layer.rect, scene: scene).map { [$0] } ?? []
                timeline.append(layer.kind == .divider ? .divider(Timeline.Layer.Area(scene: .screen, rect: area.rect)) : .edge(area))
            case .ad, .pip, .slider, .card, .native:
                // Contributed by the ads manager and the PiP controller through the player, above, and by the
                // native placements over their scene's content, below.
                continue
            }
            if layer.kind == .content, let native {
                let placements = nativeLayers(of: layer.scene, frame: frame, outcome: native, catalog: catalog)
                plan.layers += placements.layers
                timeline += placements.timeline
            }
        }
        if let floating {
            plan.layers.append(floating.layer)
            if floating.isPrimary { plan.playerLayer = plan.layers.count - 1 }
            timeline.append(floating.timeline)
        }
        plan.timeline = timeline
        return plan
    }

    /// What a device frame shows under its scenes: the bezel over the canvas, the display black.
    public static func background(canvas: PixelSize, display: PixelRect?) -> [PlannedLayer] {
        [PlannedLayer(.color(.bezel), in: PixelRect(size: canvas), scene: nil)]
            + (display.map { [PlannedLayer(.color(.black), in: $0, scene: nil)] } ?? [])
    }

    /// How the system's chrome between scenes is drawn: Split View's divider a dark bar, a Slide Over window's
    /// edge a grey rim with rounded ends (the painter of `verify` draws them with the same layers); `nil` for any
    /// other kind.
    public static func chrome(_ kind: ScreenLayer.Kind, in rect: PixelRect, scene: SceneID) -> PlannedLayer? {
        switch kind {
        case .divider: PlannedLayer(.color(.divider), in: rect, scene: scene)
        case .edge: PlannedLayer(.roundedRect(.slideOverEdge, radius: rect.width / 2), in: rect, scene: scene)
        default: nil
        }
    }

    /// What a presented full-screen ad draws over its scene's window, bottom first, and its timeline layer; `nil`
    /// when none is presented there, or its present failed (the content plays on, uncovered).
    ///
    /// An image is fitted over black; a video plays from its first frame at the frame it presented on (tick 0 then,
    /// on its own clock) and holds its last frame once it has ended, until the dismiss. Without creatives
    /// (`--device` alone) the model's layer is a placeholder colour.
    func fullScreenLayers(_ layer: ScreenLayer, frame: Int64, screenAds: ScreenAdPlayback?,
                          catalog: any FrameMediaCatalog) -> (layers: [PlannedLayer], timeline: Timeline.Layer)? {
        let area = Timeline.Layer.Area(scene: layer.scene, rect: layer.rect)
        guard screenAdCreatives else {
            return ([PlannedLayer(.color(.fullScreenPlaceholder), in: layer.rect, scene: layer.scene)], .fullScreen(area, .placeholder))
        }
        guard let shown = screenAds?.presentation(of: layer.scene, at: frameRate.time(ofFrame: frame)),
              let creative = catalog.fullScreenCreative(request: shown.request) else { return nil }
        let picture: MediaReference
        let recorded: Timeline.Layer.FullScreenCreative
        switch creative {
        case .video(let source):
            let tick = frame - frameRate.firstFrame(atOrAfter: shown.from)
            picture = .fullScreenVideo(request: shown.request, tick: tick)
            recorded = .video(source: source, srcStartTick: tick)
        case .image(let source):
            picture = .fullScreenImage(request: shown.request, frame: frame)
            recorded = .image(source: source)
        }
        return ([PlannedLayer(.color(.black), in: layer.rect, scene: layer.scene),
                 PlannedLayer(.picture(picture, .letterbox), in: layer.rect, scene: layer.scene)],
                .fullScreen(area, recorded))
    }
}
