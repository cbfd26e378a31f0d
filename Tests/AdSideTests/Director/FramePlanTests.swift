import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// Frames planned without media (issue 24): the director decides every frame of a session and the planner places
/// each layer on the canvas; nothing here links FFmpeg. The creatives are what the loaders fetched
/// (`FetchedCreatives`), the text is measured by the monospace measurer.
@Suite struct FramePlanTests {
    static let rate = FrameRate(30)
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("media")

    /// The bundled session that rotates an iPhone 15 twice with a banner below the player and a slider under it
    /// (`media/rotating-slider.session.json`, also a golden render), loaded as a render loads it, and its director.
    static func rotatingSlider() async throws -> Director {
        let (director, native, _) = try await session(media.appendingPathComponent("rotating-slider.session.json").path)
        _ = try #require(native)
        return director
    }

    /// The session file at `path` loaded as a render loads it (its screen ads and native placements fetched), and a
    /// director of it whose primary player shows 16:9 content of `contentFrames` frames at 30 fps without ads, with
    /// what it was given to plan from.
    static func session(_ path: String, contentFrames: Int64 = 1800) async throws
        -> (director: Director, native: NativeAds?, catalog: FetchedCreatives) {
        let session = try ScreenSession(contentsOfSessionFile: path)
        let script = try SessionScript(parsing: try #require(session.script))
        let screenAds = try await session.loadAds(script: script, settings: AdsLoaderSettings())
        // The bundled content is 60 s at 30 fps, 16:9.
        let native = try await session.loadNative(script: script, settings: AdsLoaderSettings(), frameRate: rate,
                                                  end: MediaTime(seconds: 60), measurer: MonospaceTextMeasurer())
        let canvas = ScreenCanvas(initial: session.screen, script: script, live: false)
        let configuration = SessionConfiguration(frameRate: rate, canvas: canvas.size, contentFrameCount: contentFrames,
                                                 contentAspect: Rational(16, 9), script: script)
        let planner = FramePlanner(canvas: canvas.size, frameRate: rate, background: nil, screenAdCreatives: true,
                                   pointScale: session.screen.pointScale)
        let catalog = FetchedCreatives(screenAds: screenAds, native: native)
        let director = try Director(plan: .empty, configuration: configuration, media: FakeAdMedia(rate: rate, seconds: [:]),
                                    appDelegate: nil, screen: session.screen, screenAds: screenAds,
                                    native: native.map { .rendered($0.outcome, events: []) } ?? .none,
                                    planner: planner, catalog: catalog)
        return (director, native, catalog)
    }

    @Test func everyLayerOfARotatingSliderSessionLiesInsideItsSceneOnEveryFrame() async throws {
        let director = try await Self.rotatingSlider()
        var frames = 0, cards = 0, banners = 0, displays: Set<PixelRect> = []
        while let decision = director.nextFrame()?.decision {
            frames += 1
            let plan = director.plan(decision, source: "content.mp4")
            let screen = try #require(decision.screen)
            displays.insert(screen.display)
            for layer in plan.layers {
                let drawn = layer.drawn
                guard drawn.width > 0, drawn.height > 0 else { continue }
                #expect(PixelRect(size: director.planner.canvas).contains(drawn), "frame \(plan.frame): \(layer.content) at \(drawn) off the canvas")
                // The bezel and the display are the canvas's own; everything else belongs to a scene.
                guard let id = layer.scene else { continue }
                let scene = try #require(screen.scenes.first { $0.id == id })
                #expect(screen.display.contains(drawn), "frame \(plan.frame): \(layer.content) at \(drawn) outside the display \(screen.display)")
                #expect(scene.rect.contains(drawn), "frame \(plan.frame): \(layer.content) at \(drawn) outside scene \(id) \(scene.rect)")
            }
            for record in try #require(plan.timeline) {
                switch record {
                case .card: cards += 1
                case .banner(_, let source?):
                    banners += 1
                    #expect(source.hasSuffix("media/banner.png"), "\(source)")
                default: break
                }
            }
        }
        // Quit at 10 s; both orientations (two displays in the canvas that holds them); cards and the banner in each.
        #expect(frames == 300)
        #expect(displays.count == 2, "\(displays)")
        #expect(cards > 300 && banners == 300, "\(cards) cards, \(banners) banners")
    }

    static let canvas = PixelSize(width: 640, height: 360)

    /// A player without a device on a 640x360 canvas: 3 s of 16:9 content, no ads, `script`.
    static func player(script: String) throws -> Director {
        let planner = FramePlanner(canvas: canvas, frameRate: rate, background: nil, screenAdCreatives: false, pointScale: nil)
        return try Director(plan: .empty, configuration: SessionConfiguration(
            frameRate: rate, canvas: canvas, contentFrameCount: 90, contentAspect: Rational(16, 9),
            script: try SessionScript(parsing: script)), media: FakeAdMedia(rate: rate, seconds: [:]),
            appDelegate: nil, screen: nil, screenAds: nil, planner: planner, catalog: FetchedCreatives(screenAds: nil, native: nil))
    }

    @Test func thePlayersPictureIsLetterboxedInItsWindowAndItsSoundIsTheContentsUntilPaused() throws {
        let director = try Self.player(script: "pip on@1; pause@2; resume@2.5")
        var plans: [FramePlan] = []
        while let decision = director.nextFrame()?.decision, plans.count < 75 {
            plans.append(director.plan(decision, source: "content.mp4"))
        }
        try #require(plans.count == 75)
        // Full screen: the picture alone over the canvas, the content's sound at its tick.
        #expect(plans[0].layers == [PlannedLayer(.picture(.player(nil, .content(tick: 0)), .letterbox), in: PixelRect(size: Self.canvas), scene: nil)])
        #expect(plans[0].playerLayer == 0 && plans[0].audio == .player(.content(tick: 0)) && plans[0].timeline == nil)
        // In picture-in-picture: the slate under the floating window, which is the player's picture (the last layer).
        let pip = plans[45]
        #expect(pip.layers.count == 2 && pip.layers[0].content == .color(.slate) && pip.playerLayer == 1)
        if case .picture(.player(nil, .content(let tick)), .letterbox, nil) = pip.layers[1].content { #expect(tick == 45) } else {
            Issue.record("\(pip.layers[1])")
        }
        #expect(pip.layers[1].rect.width < Self.canvas.width && PixelRect(size: Self.canvas).contains(pip.layers[1].rect))
        // Paused from 2 s to 2.5 s: silence, the picture frozen.
        #expect(plans[70].audio == .silence)
        #expect(plans[70].layers == plans[61].layers)
    }

    @Test func aScreenAdEventJoinsTheLogOnceTheOutputReachesItsTimeAfterTheSessionsEventsOfThatMoment() throws {
        let director = try Self.player(script: "pause@0.5; resume@1")
        director.schedule([ScreenAdEvent(time: MediaTime(seconds: Rational(1, 2)), scene: "main", .bannerViewDidReceiveAd)])
        var logged: [SessionEvent] = []
        for written in Int64(1)...20 {
            _ = try #require(director.nextFrame())
            let events = director.drainEvents(written: written)
            // Not before the output has reached 0.5 s (frame 15).
            #expect(written > 15 || !events.contains { if case .screenAd = $0.kind { true } else { false } }, "at \(written): \(events)")
            logged += events
        }
        let index = try #require(logged.firstIndex { if case .screenAd(.bannerViewDidReceiveAd, _) = $0.kind { true } else { false } })
        #expect(logged[index].frame == 15)
        // After the pause the script made at the same moment.
        let pause = try #require(logged.firstIndex { if case .command = $0.kind { true } else { false } })
        #expect(pause < index && logged[pause].frame == 15)
        #expect(logged.map(\.time) == logged.map(\.time).sorted())
    }

    @Test func everyPlayerOfTheScreenSeesTheOneScreenTheCommandsChange() throws {
        // Two players in Split View on an iPad that turns to portrait at 1 s: one screen, changed once.
        var configuration = try testConfiguration(script: "rotate portrait@1; split 1/3@2")
        let screen = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "left"), .init(id: "right")],
                                 arrangement: .split(leading: "left", trailing: "right", .half))
        configuration.canvas = ScreenCanvas(initial: screen, script: configuration.script, live: false).size
        let planner = FramePlanner(canvas: configuration.canvas, frameRate: tenFPS, background: nil, screenAdCreatives: false,
                                   pointScale: screen.pointScale)
        let right = Director.PlayerSetup(scene: "right", plan: .empty, content: .init(frameCount: 60, aspect: Rational(16, 9)),
                                         media: FakeAdMedia(rate: tenFPS, seconds: [:]))
        let director = try Director(plan: .empty, configuration: configuration, media: FakeAdMedia(rate: tenFPS, seconds: [:]),
                                    appDelegate: nil, others: [right], screen: screen, screenAds: nil, planner: planner,
                                    catalog: FetchedCreatives(screenAds: nil, native: nil))
        let shared = try #require(director.screen)
        #expect(director.players[0].session.device.screen === shared)
        var windows: Set<PixelRect> = []
        for _ in 0..<30 {
            // The director steps the other player with the primary one, once per output frame.
            let frame = try #require(director.nextFrame())
            #expect(frame.others.map(\.scene) == ["right"])
            let other = try #require(director.players[0].shown)
            // Each player's frame shows the same screen, the one the director holds.
            #expect(other.frame == frame.decision.frame && other.source == frame.others.first?.source)
            #expect(other.screen == frame.decision.screen && frame.decision.screen == shared.frame)
            windows.insert(try #require(other.screen?.window(of: "right")))
        }
        // Landscape half, portrait half, then split at a third: the other player's window followed each change.
        #expect(windows.count == 3, "\(windows)")
        #expect(shared.state.orientation == .portrait)
    }
}
