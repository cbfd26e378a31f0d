@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import MediaCore
import Testing

/// The command log a session keeps (what `play --command-log` writes): linear work however long it grows, and always
/// within the limits of the script that replays it.
@Suite struct CommandLogTests {
    static func session(_ configuration: SessionConfiguration) throws -> PlaybackSession {
        try PlaybackSession(plan: AdPlan(breaks: []), configuration: configuration,
                            media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil)
    }

    /// 100,000 commands, each appended to the log: the log was copied whole at each append (96 s for a 2.5 s
    /// `play` of 100,000 piped commands, over 20 s here for 20,000). Nothing counts the copies, so the bound is
    /// the wall clock, generous (a linear debug build takes about a second).
    @Test func aHundredThousandCommandsAreLoggedInLinearWork() throws {
        var configuration = try testConfiguration(contentSeconds: 3)
        let count = 100_000
        configuration.script = SessionScript((0..<count).map { i in
            TimedCommand(time: MediaTime(seconds: Rational(Int64(i % 25), 10)), command: i % 2 == 0 ? .pause : .resume)
        })
        let session = try Self.session(configuration)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = runToEnd(session) }
        #expect(session.commandLog.commands.count == count)
        #expect(elapsed < .seconds(30), "\(elapsed)")
    }

    /// A live session takes commands until its log holds `SessionScript.maximumCommands`, keeping room for the script
    /// commands still to come; the rest are left out (counted, not applied, not logged), so the log replays.
    @Test func aLiveSessionLeavesOutTheCommandsItsLogCannotReplay() throws {
        let session = try Self.session(try testConfiguration(script: "pause@0.5; resume@0.6", mode: .live))
        _ = session.nextFrame()
        for _ in 0..<SessionScript.maximumCommands { session.submit(.click) }
        _ = runToEnd(session, maxFrames: 10)
        #expect(session.commandLog.commands.count == SessionScript.maximumCommands)
        #expect(session.ignoredLiveCommands == 2, "two places are kept for the script's pause and resume")
        #expect(session.commandLog.commands.suffix(2).map(\.command) == [.pause, .resume])
        let text = session.commandLog.formatted(frameRate: tenFPS) + "\n"
        #expect(try SessionScript(parsing: text) == session.commandLog)
    }

    /// Long commands fill the script's bytes before its count: the log stops short of `SessionScript.maximumBytes`.
    @Test func aLiveSessionKeepsItsLogWithinTheScriptsBytes() throws {
        let session = try Self.session(try testConfiguration(mode: .live))
        _ = session.nextFrame()
        let long = SessionCommand.screen(.activate(SceneID(String(repeating: "s", count: 4000))))
        for _ in 0..<1100 { session.submit(long) }
        _ = runToEnd(session, maxFrames: 3)
        let text = session.commandLog.formatted(frameRate: tenFPS) + "\n"
        #expect(session.ignoredLiveCommands > 0 && session.commandLog.commands.count + session.ignoredLiveCommands == 1100)
        #expect(text.utf8.count <= SessionScript.maximumBytes)
        #expect(SessionScript.maximumBytes - text.utf8.count < 4100, "as many as fit")
        #expect(throws: Never.self) { try SessionScript(parsing: text) }
    }
}
