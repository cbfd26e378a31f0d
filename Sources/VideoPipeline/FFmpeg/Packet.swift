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

    /// A new packet that takes this one's payload and properties (`av_packet_move_ref`), leaving this one blank
    /// for reuse.
    func movedOut() throws(MediaError) -> Packet {
        let packet = try Packet()
        av_packet_move_ref(packet.pointer, pointer)
        return packet
    }

    /// Its duration, in its stream's time base (0 when unknown).
    var duration: Int64 { pointer.pointee.duration }

    /// Whether the demuxer marks it as not to be presented (`AV_PKT_FLAG_DISCARD`): an MP4's AAC priming, which its
    /// edit list skips.
    var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }

    /// Its payload, valid until the packet is unreferenced or its payload replaced.
    var payload: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: pointer.pointee.data, count: Int(pointer.pointee.size)) }

    /// Stamps it for a muxer: presentation and decode time and duration (in the time base it is written from),
    /// and no byte position (the source file's means nothing in the output).
    func stamp(pts: Int64, dts: Int64, duration: Int64) {
        pointer.pointee.pts = pts
        pointer.pointee.dts = dts
        pointer.pointee.duration = duration
        pointer.pointee.pos = -1
    }

    /// Sets its flags to a keyframe's (`AV_PKT_FLAG_KEY`) or none.
    func setKeyframe(_ key: Bool) {
        pointer.pointee.flags = key ? AV_PKT_FLAG_KEY : 0
    }

    /// Replaces the payload with `units`, each behind a 4-byte length, keeping the packet's properties (`scratch`
    /// holds them meanwhile).
    func replacePayload(withLengthPrefixed units: [[UInt8]], scratch: Packet) throws(MediaError) {
        var bytes: [UInt8] = []
        for unit in units { bytes += [UInt8(unit.count >> 24 & 0xFF), UInt8(unit.count >> 16 & 0xFF), UInt8(unit.count >> 8 & 0xFF), UInt8(unit.count & 0xFF)] + unit }
        scratch.unref()
        try check(av_packet_copy_props(scratch.pointer, pointer), "av_packet_copy_props")
        unref()
        try check(av_new_packet(pointer, Int32(bytes.count)), "av_new_packet")
        bytes.withUnsafeBufferPointer { pointer.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        try check(av_packet_copy_props(pointer, scratch.pointer), "av_packet_copy_props")
    }
}
