import Foundation
import MediaCore
import Serving
import Testing

/// `BreakStitcher.value(of:within:)`, how a viewer waits for a break's build: the build's value when it comes in
/// time, nil when it does not, and the system's timer released once answered (a server with a long `--stitch-wait`
/// held one sleeping timer per session for that long: the memory that crept up under `serve-scale`). The timer is
/// the real one (a dispatch source); the tests read its state from dispatch.
@Suite struct StitchWaitTests {
    @Test func aValueInTimeIsAnsweredAndItsTimerIsReleased() async throws {
        let timer = WaitTimer()
        let build = Task { 42 }
        let value = await BreakStitcher.value(of: build, within: .seconds(3600), timer: timer)
        #expect(value == 42)
        // Cancelled when the value came: nothing waits on for the hour.
        #expect(timer.isCancelled)
    }

    @Test func aLateValueIsNilAndTheBuildGoesOn() async throws {
        let timer = WaitTimer()
        let release = LockedState<CheckedContinuation<Void, Never>?>(nil)
        let build = Task { () -> Int in
            await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
            return 7
        }
        // The build waits for the release, which comes only after the answer: the answer is the timer's.
        let waited = await BreakStitcher.value(of: build, within: .milliseconds(20), timer: timer)
        #expect(waited == nil)
        #expect(timer.isCancelled)
        while release.withLock({ $0 == nil }) { await Task.yield() }
        release.withLock { $0 }?.resume()
        #expect(await build.value == 7)
    }

    @Test func manyWaitsAnsweredAtOnceEachReleaseTheirTimer() async throws {
        let timers = (0..<500).map { _ in WaitTimer() }
        await withTaskGroup(of: Int?.self) { group in
            for (n, timer) in timers.enumerated() {
                group.addTask { await BreakStitcher.value(of: Task { n }, within: .seconds(600), timer: timer) }
            }
            var answered = 0
            for await value in group where value != nil { answered += 1 }
            #expect(answered == 500)
        }
        #expect(timers.filter { !$0.isCancelled }.isEmpty)
    }
}
