import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The channel the output stage's audio thread hands each frame's audio packets to its encoder thread through.
@Suite struct PacketChannelTests {
    /// Batches come out in the order they went in; after the sender fails, the ones queued still come out, then
    /// its error, and a receiver waiting on an empty channel is woken by it.
    @Test(.timeLimit(.minutes(1))) func thePacketChannelKeepsOrderAndPassesOnAFailure() throws {
        let channel = PacketChannel()
        channel.send([try Packet(), try Packet()])
        channel.send([])
        channel.send([try Packet()])
        channel.fail(.interrupted)
        #expect(try channel.receive().count == 2)
        #expect(try channel.receive().isEmpty)
        #expect(try channel.receive().count == 1)
        #expect(throws: MediaError.interrupted) { try channel.receive() }

        let waiting = PacketChannel()
        let outcome = LockedState<MediaError?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            do throws(MediaError) { _ = try waiting.receive() } catch { outcome.withLock { $0 = error } }
            done.signal()
        }.start()
        waiting.fail(.invalidSetting(name: "audio", value: "aac", reason: "fails"))
        done.wait()
        #expect(outcome.withLock { $0 } == .invalidSetting(name: "audio", value: "aac", reason: "fails"))
    }
}
