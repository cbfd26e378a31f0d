import CFFmpeg

/// Owns an `AVPacket`; its buffer is unreferenced on reuse and freed in `deinit`.
///
/// A class rather than a `~Copyable` struct: one packet is reused across a read loop by a decoder or muxer
/// that itself is a class, and the reference is never shared beyond it.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        pointer = try allocated(av_packet_alloc(), "av_packet_alloc")
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    func unref() { av_packet_unref(pointer) }
}
