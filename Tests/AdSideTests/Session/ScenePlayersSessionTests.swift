@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// Two players on one iPad in Split View, each its own session: commands reach the player of their scene (or of
/// the active scene), the screen's commands are logged once, and one picture-in-picture window is shared.
@Suite struct ScenePlayersSessionTests {
    /// A session for `left` (the primary) and one for `right`, sharing the device's screen and one picture-in-picture
    /// slot, as the director makes them.
    static func sessions(_ script: String, mode: SessionConfiguration.Mode = .batch) throws -> [PlaybackSession] {
        var configuration = try testConfiguration(script: script, mode: mode)
        let screen = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "left"), .init(id: "right")],
                                 arrangement: .split(leading: "left", trailing: "right", .half))
        configuration.canvas = ScreenCanvas(initial: screen, script: configuration.script, live: false).size
        configuration.device.playerScenes = ["left", "right"]
        let slot = PictureInPictureSlot()
        let shared = DeviceScreen(initial: screen, script: configuration.script, live: mode == .live)
        return try ["left", "right"].map { (scene: SceneID) in
            var own = configuration
            own.device.playerScene = scene
            own.device.logsScreen = scene == "left"
            let session = try PlaybackSession(plan: AdPlan(breaks: []), configuration: own,
                                              media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil, screen: shared)
            session.pictureInPictureSlot = slot
            return session
        }
    }

    /// Steps the sessions together, as the stitcher does, until the first ends.
    static func run(_ sessions: [PlaybackSession]) -> [SessionRun] {
        var runs = sessions.map { _ in SessionRun() }
        while true {
            for (i, session) in sessions.enumerated() {
                guard let decision = session.nextFrame() else { return runs }
                runs[i].decisions.append(decision)
                runs[i].events += session.drainEvents()
            }
        }
    }

    @Test func aPlayerCommandGoesToItsScenesPlayerElseToTheActiveScenesPlayer() throws {
        let sessions = try Self.sessions("pause in right@1; resume in right@2; activate right@3; pause@4; resume@5")
        let runs = Self.run(sessions)
        let left = runs[0], right = runs[1]
        #expect(left.decisions.allSatisfy { !$0.isPaused }, "left was never told to pause")
        #expect(right.decisions.indices.filter { right.decisions[$0].isPaused } == Array(10..<20) + Array(40..<50))
        #expect(left.decisions.allSatisfy { $0.playerScene == "left" } && right.decisions.allSatisfy { $0.playerScene == "right" })
        // Each player logs its own commands with its scene; the screen's command is logged once, by the primary.
        let commands = { (run: SessionRun) in run.events.filter { $0.type == .command }.compactMap(\.columns.message) }
        #expect(commands(left) == ["activate right"])
        #expect(commands(right) == ["pause in right", "resume in right", "pause", "resume"])
        #expect(left.events.allSatisfy { $0.scene == "left" } && right.events.allSatisfy { $0.scene == "right" })
        #expect(left.events.contains { $0.type == .log } && !right.events.contains { $0.type == .log },
                "the screen's changes are logged by the primary only")
        // The primary's command log names the player each command went to, so that it replays to the same frames.
        #expect(sessions[0].commandLog.formatted() == "pause in right@1; resume in right@2; activate right@3; pause in right@4; resume in right@5")
    }

    @Test func aLiveCommandReachesTheActiveScenesPlayerThroughThePrimary() throws {
        let sessions = try Self.sessions("", mode: .live)
        sessions[0].forwardsLiveCommand = { sessions[1].submit($0) }
        var runs = [SessionRun(), SessionRun()]
        for frame in 0..<30 {
            if frame == 5 { sessions[0].submit(.screen(try ScreenCommand(words: ["activate", "right"]))) }
            if frame == 10 { sessions[0].submit(.pause) }
            for (i, session) in sessions.enumerated() {
                runs[i].decisions.append(try #require(session.nextFrame()))
            }
        }
        #expect(runs[0].decisions.allSatisfy { !$0.isPaused })
        #expect(runs[1].decisions.indices.filter { runs[1].decisions[$0].isPaused } == Array(10..<30))
        #expect(sessions[0].commandLog.formatted() == "activate right@0.5; pause in right@1")
    }

    @Test func onlyOnePlayerIsInPictureInPictureAtATime() throws {
        let runs = Self.run(try Self.sessions("pip on in right@1; pip on in left@2; pip off in right@3; pip on in left@4"))
        let left = runs[0], right = runs[1]
        let refusal = try #require(left.events.first { $0.columns.reason == .refused })
        #expect(refusal.frame == 20)
        #expect(refusal.columns.message == "pip on ignored: the player of scene \"right\" is in picture-in-picture (one window at a time)")
        #expect(right.decisions.indices.filter { right.decisions[$0].pip != nil } == Array(10..<30))
        #expect(left.decisions.indices.filter { left.decisions[$0].pip != nil }.first == 40)
        // The right player's window floats inside its own scene's window.
        let pip = try #require(right.decisions[15].pip), window = try #require(right.decisions[15].screen?.window(of: "right"))
        #expect(pip.x > window.x && pip.maxX <= window.maxX)
    }
}
