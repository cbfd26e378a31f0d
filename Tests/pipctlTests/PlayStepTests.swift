import AdPlayback
import Foundation
import MediaCore
import Testing
@testable import pipctl

/// `play --step`'s clock: the reader's `advance` and the play loop's `parking`, on threads of their own as in `play`.
@Suite(.timeLimit(.minutes(1))) struct PlayStepTests {
    /// The reader's `advance` moves the clock and returns only once the loop has caught up with it and waits; the
    /// loop says the time reached once.
    @Test func anAdvanceReturnsOnceTheLoopHasPlayedToItAndWaits() async throws {
        let step = PlayStep()
        let start = step.clock.now
        #expect(step.parking(now: start) == nil, "nothing to say before an advance")
        let returned = LockedState(false)
        let reader = Thread {
            step.advance(by: MediaDuration(seconds: Rational(5, 2)))
            returned.withLock { $0 = true }
        }
        reader.start()
        while step.clock.now == start { try await Task.sleep(for: .milliseconds(1)) }
        #expect(step.clock.now - start == .milliseconds(2500))
        // The loop has not played to 2.5 s yet: nothing to say, and the reader still waits.
        #expect(step.parking(now: start + .seconds(1)) == nil)
        #expect(!returned.withLock { $0 })
        #expect(step.parking(now: step.clock.now) == MediaTime(seconds: Rational(5, 2)))
        while !returned.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(step.parking(now: step.clock.now) == nil, "said once")
    }

    /// The session's end lets a waiting reader go on; an advance after it returns at once.
    @Test func theEndReleasesTheReader() async throws {
        let step = PlayStep()
        let returned = LockedState(0)
        let reader = Thread {
            step.advance(by: MediaDuration(seconds: 1))
            returned.withLock { $0 += 1 }
            step.advance(by: MediaDuration(seconds: 1))
            returned.withLock { $0 += 1 }
        }
        let start = step.clock.now
        reader.start()
        while step.clock.now == start { try await Task.sleep(for: .milliseconds(1)) }
        step.end()
        while returned.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(step.clock.now - start == .seconds(1), "the advance after the end does not move the clock")
    }

    /// The reader: `advance T` with --step moves the clock; without it, or with a time that is not one, one line says why.
    @Test func advanceLinesAreReadOnlyWithStep() {
        let plain = CommandReader(inbox: CommandInbox())
        plain.handle("advance 1")
        #expect(plain.takeNotices() == ["'advance' needs --step: without it the session plays on the wall clock"])
        let step = PlayStep()
        let stepped = CommandReader(inbox: CommandInbox(), step: step)
        stepped.handle("advance 0")
        stepped.handle("advance soon")
        #expect(stepped.takeNotices() == [
            "ignored 'advance 0': advance takes a time in seconds, more than 0 (advance 2.5)",
            "ignored 'advance soon': advance takes a time in seconds, more than 0 (advance 2.5)",
        ])
        stepped.handle("help")
        #expect(stepped.takeNotices() == [CommandReader.stepHelp])
        step.end()
        let start = step.clock.now
        stepped.handle("advance 1")
        #expect(step.clock.now == start, "after the end the clock stays")
    }
}
