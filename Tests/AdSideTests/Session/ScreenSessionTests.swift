@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// A session on a device: the player is drawn in its scene's window, screen commands apply and every event names
/// the scene.
@Suite struct ScreenSessionTests {
    static func session(_ script: String, device: Device = .iPad11,
                        orientation: Orientation = .landscape) throws -> PlaybackSession {
        var configuration = try testConfiguration(script: script)
        let screen = ScreenState(device: device, orientation: orientation, scenes: [.init(id: "main", hasBanner: true)])
        configuration.canvas = ScreenCanvas(initial: screen, script: configuration.script, live: false).size
        return try PlaybackSession(plan: AdPlan(breaks: []), configuration: configuration,
                                   media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil,
                                   screen: DeviceScreen(initial: screen, script: configuration.script, live: false))
    }

    @Test func pictureInPictureFollowsTheSceneWindowThroughARotation() throws {
        // iPad 11" at scale 1, rotating: canvas 1194x1194. Landscape display at y (1194 − 834) / 2 = 180; portrait
        // at x 180.
        let run = runToEnd(try Self.session("pip@1; rotate portrait@2"))
        let before = try #require(run.decisions[15].screen), after = try #require(run.decisions[25].screen)
        #expect(before.display == PixelRect(x: 0, y: 180, width: 1194, height: 834))
        #expect(after.display == PixelRect(x: 180, y: 0, width: 834, height: 1194))
        for (decision, screen) in [(run.decisions[15], before), (run.decisions[25], after)] {
            let pip = try #require(decision.pip), window = try #require(screen.window(of: "main"))
            #expect(decision.playerScene == "main")
            // A third of the window's width, 16 px from its bottom-right corner.
            #expect(pip.width == (window.width / 3) & ~1)
            #expect(pip.maxX <= window.maxX - 16 && pip.maxY <= window.maxY - 16 && pip.x > window.x && pip.y > window.y)
        }
        #expect(run.events.allSatisfy { $0.scene == "main" })
        #expect(run.events.contains { $0.kind == .screen(.willTransition(scene: "main", to: PointSize(width: 834, height: 1194))) })
    }

    @Test func aRefusedScreenCommandSaysWhyAndChangesNothing() throws {
        let run = runToEnd(try Self.session("fold@1"))
        let refusal = try #require(run.events.first { $0.columns.reason == .refused })
        #expect(refusal.columns.message == "fold ignored: screen command \"fold\": ipad-11 does not fold")
        #expect(Set(run.decisions.compactMap { $0.screen?.display }).count == 1)
    }

    @Test func withoutADeviceNothingNamesAScene() throws {
        let session = try PlaybackSession(plan: AdPlan(breaks: []), configuration: try testConfiguration(script: "pip@1"),
                                          media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil)
        let run = runToEnd(session)
        #expect(run.events.allSatisfy { $0.scene == nil })
        #expect(run.decisions.allSatisfy { $0.screen == nil && $0.playerScene == nil })
    }
}
