import CFFmpeg
import MediaCore

/// Demuxes one file and decodes one of its streams (FFmpeg's send/receive loop, as in `doc/examples/transcode.c`).
///
/// Video and audio of a source each get their own decoder over their own `InputFile`: the two streams are then
/// read independently (no interleaving buffers, bounded memory whatever the file's interleaving) and can be
/// positioned independently.
final class StreamDecoder {
    enum Step {
        case frame(Frame)
        case endOfStream
    }

    let input: InputFile
    let streamIndex: Int
    let codec: CodecContext
    /// The time base of the stream's timestamps.
    let timeBase: Rational
    let kind: StreamKind
    private let packet: Packet
    private var flushing = false
    private var finished = false

    var path: String { input.path }

    init(path: String, kind: StreamKind, threads: Int = 0) throws(MediaError) {
        input = try InputFile(path: path)
        guard let index = input.bestStream(kind) else { throw .missingStream(path: path, kind: kind) }
        self.kind = kind
        streamIndex = index
        let stream = input.stream(index)
        timeBase = stream.pointee.time_base.rational ?? Rational(1, 1000)
        // Owned from allocation by CodecContext: an avcodec_open2 that fails frees it once, in its deinit.
        codec = try CodecContext.decoder(for: stream, kind: kind, threads: threads, path: path)
        packet = try Packet()
        // Only the chosen stream's packets are wanted; the demuxer may skip the rest cheaply.
        input.discardAll(except: index)
    }

    var stream: UnsafeMutablePointer<AVStream> { input.stream(streamIndex) }

    /// The stream's nominal frame rate: what its frames say (`avg_frame_rate`), else FFmpeg's guess when it is a
    /// plausible rate (for a track without frames that guess is just the time base).
    var nominalFrameRate: Rational? {
        let guessed = stream.pointee.r_frame_rate.rational.flatMap { $0 > .zero && $0 <= Rational(1000) ? $0 : nil }
        return stream.pointee.avg_frame_rate.rational ?? guessed
    }

    /// Decodes into `frame` (unreferenced first): the next frame, or the end of the stream.
    func decode(into frame: Frame) throws(MediaError) -> Step {
        frame.unref()
        while true {
            if finished { return .endOfStream }
            let received = avcodec_receive_frame(codec.pointer, frame.pointer)
            if received >= 0 { return .frame(frame) }
            if received == averrorEOF {
                finished = true
                return .endOfStream
            }
            if received != averrorEAGAIN { try check(received, "avcodec_receive_frame", path: path) }
            try feed()
        }
    }

    /// Sends the next packet of our stream to the decoder, or the flush signal at the end of the file.
    private func feed() throws(MediaError) {
        guard !flushing else { return }
        while true {
            packet.unref()
            let read = av_read_frame(input.context, packet.pointer)
            if read == averrorEOF {
                flushing = true
                try check(avcodec_send_packet(codec.pointer, nil), "avcodec_send_packet", path: path)
                return
            }
            try check(read, "av_read_frame", path: path)
            guard Int(packet.pointer.pointee.stream_index) == streamIndex else { continue }
            let sent = avcodec_send_packet(codec.pointer, packet.pointer)
            packet.unref()
            if sent == averrorEAGAIN { continue }
            try check(sent, "avcodec_send_packet", path: path)
            return
        }
    }

    /// Positions at or before `time` (stream clock, absolute as in the file), flushing the decoder.
    func seek(to time: MediaTime) throws(MediaError) {
        let target = time.value(in: timeBase, rounding: .down)
        try check(av_seek_frame(input.context, Int32(streamIndex), target, AVSEEK_FLAG_BACKWARD), "av_seek_frame", path: path)
        avcodec_flush_buffers(codec.pointer)
        flushing = false
        finished = false
    }

    /// The frame's presentation time on the stream clock, or `nil` when the file gives none.
    func presentationTime(of frame: Frame) -> MediaTime? {
        frame.pointer.pointee.best_effort_timestamp.timestamp.map { MediaTime(value: $0, timeBase: timeBase) }
    }
}
