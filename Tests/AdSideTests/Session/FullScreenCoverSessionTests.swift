@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// A full-screen ad presented over a player that plays a linear ad pauses that ad, with its `PAUSE` and `RESUME`
/// events and beacons, as `pause`/`resume` do.
@Suite struct FullScreenCoverSessionTests {
    /// A 2 s mid-roll at 2 s (pause/resume tracking) on 6 s of content, on an iPad whose scene "main" a full-screen
    /// ad covers over `covers` (output seconds, in tenths).
    static func session(_ script: String = "", covers: [(from: Int64, until: Int64)]) throws -> PlaybackSession {
        var configuration = try testConfiguration(script: script)
        let screen = ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "main")])
        configuration.canvas = ScreenCanvas(initial: screen, script: configuration.script, live: false).size
        let presentations = covers.map {
            FullScreenPresentation(scene: "main", from: seconds(Rational($0.from, 10)), until: seconds(Rational($0.until, 10)), request: 0)
        }
        return try PlaybackSession(
            plan: AdPlan(breaks: [AdBreak(position: .midroll(seconds(2)), ads: [testAd("m", tracking: [.pause, .resume])])]),
            configuration: configuration, media: FakeAdMedia(rate: tenFPS, seconds: ["m": 2]), appDelegate: nil,
            screen: DeviceScreen(initial: screen, script: configuration.script, live: false, presentations: presentations))
    }

    @Test func aCoverOverALinearAdPausesItWithItsPauseAndResumeEventsAndBeacons() throws {
        // The ad starts at frame 20; covered from 2.5 s to 3.5 s: frozen on its tick 4 meanwhile.
        let run = runToEnd(try Self.session(covers: [(25, 35)]))
        #expect(run.decisions[25] == FrameDecision(frame: 25, source: .ad(AdReference(0, 0), tick: 4), isPaused: true,
                                                   screen: run.decisions[25].screen, playerScene: "main"))
        #expect(run.decisions[35].source == .ad(AdReference(0, 0), tick: 5))
        #expect(run.events.filter { $0.type == .pause || $0.type == .resume }.map(\.compact) == ["25 PAUSE b0 a0", "35 RESUME b0 a0"])
        #expect(run.beacons(.pause).map(\.frame) == [25] && run.beacons(.resume).map(\.frame) == [35])
        #expect(run.frames(of: .firstQuartile) == [35])
    }

    @Test func aCoverOverContentHasNoAdPauseEvents() throws {
        let run = runToEnd(try Self.session(covers: [(5, 15)]))
        #expect(run.decisions[10].isPaused)
        #expect(run.frames(of: .pause).isEmpty && run.frames(of: .resume).isEmpty)
    }

    @Test func aUserPauseUnderTheCoverPausesTheAdOnceAndItsResumeAfterTheCoverResumesItOnce() throws {
        // Covered 2.5–3.5 s; the user pauses at 3 s (under the cover) and resumes at 4 s (after it).
        let run = runToEnd(try Self.session("pause@3; resume@4", covers: [(25, 35)]))
        #expect(run.events.filter { $0.type == .pause || $0.type == .resume }.map(\.compact) == ["25 PAUSE b0 a0", "40 RESUME b0 a0"])
        #expect(run.decisions[37].isPaused)
    }
}
