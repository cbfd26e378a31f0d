import Foundation
import MediaCore

/// Hands the audio packets of each output frame from the stage's audio thread (which encodes them) to its encode
/// thread (which writes them after the frame's video), in frame order.
///
/// One batch per frame, sent and received in the same order. Once the sender fails (or the stage is dropped and
/// the channel closed), a receiver that finds no batch waiting gets that error instead of waiting for one that
/// will never come. Each batch's packets belong to the channel between `send` and `receive`, then to the receiver.
final class PacketChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[Packet]] = []
    private var failure: MediaError?

    /// Queues the next frame's packets.
    func send(_ packets: [Packet]) {
        condition.lock()
        batches.append(packets)
        condition.broadcast()
        condition.unlock()
    }

    /// No more batches will come: the ones queued are still received, then `receive` throws `error`.
    func fail(_ error: MediaError) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The next frame's packets, waiting until they are sent.
    /// - Throws: the sender's failure, once no batch is left.
    func receive() throws(MediaError) -> [Packet] {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && failure == nil { condition.wait() }
        if !batches.isEmpty { return batches.removeFirst() }
        throw failure!
    }
}
