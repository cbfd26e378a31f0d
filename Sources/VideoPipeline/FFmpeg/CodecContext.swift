import CFFmpeg
import MediaCore

/// Owns an `AVCodecContext` (a decoder or an encoder) from the line that allocates it; only `deinit` frees it.
///
/// Wrapped before anything can throw, so no error path frees it by hand: a context whose `avcodec_open2` fails
/// (an ad with corrupt codec parameters) is released once, by its owner, like any other.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    let codec: UnsafePointer<AVCodec>

    init(codec: UnsafePointer<AVCodec>) throws(MediaError) {
        self.codec = codec
        pointer = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&c)
    }

    /// An opened decoder for `stream` of the file at `path`.
    ///
    /// - Throws: `.unreadable` when this FFmpeg has no decoder for the codec; FFmpeg errors naming
    ///   `avcodec_parameters_to_context` or `avcodec_open2` (corrupt codec parameters).
    static func decoder(for stream: UnsafeMutablePointer<AVStream>, kind: StreamKind, threads: Int,
                        path: String) throws(MediaError) -> CodecContext {
        let id = stream.pointee.codecpar.pointee.codec_id
        guard let decoder = avcodec_find_decoder(id) else {
            throw .unreadable(path: path, function: "avcodec_find_decoder",
                              message: "no decoder for \(String(cString: avcodec_get_name(id)))")
        }
        let context = try CodecContext(codec: decoder)
        try check(avcodec_parameters_to_context(context.pointer, stream.pointee.codecpar), "avcodec_parameters_to_context", path: path)
        context.pointer.pointee.pkt_timebase = stream.pointee.time_base
        context.pointer.pointee.thread_count = Int32(threads)
        if kind == .video { context.pointer.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE }
        try context.open(options: nil, path: path)
        return context
    }

    /// Opens the codec (`avcodec_open2`) with `options`; what the codec did not use stays in them.
    func open(options: FFmpegOptions?, path: String?) throws(MediaError) {
        if let options {
            try check(options.pass { avcodec_open2(pointer, codec, $0) }, "avcodec_open2", path: path)
        } else {
            try check(avcodec_open2(pointer, codec, nil), "avcodec_open2", path: path)
        }
    }

    /// The decoded audio's format, as libswresample takes it (an unspecified layout becomes the default one).
    var audioFormat: (layout: AVChannelLayout, format: AVSampleFormat, sampleRate: Int32) {
        var layout = pointer.pointee.ch_layout
        if layout.order == AV_CHANNEL_ORDER_UNSPEC { av_channel_layout_default(&layout, layout.nb_channels) }
        return (layout, pointer.pointee.sample_fmt, pointer.pointee.sample_rate)
    }

    /// Sends `frame` to this encoder, or the end of the stream when `nil` (`avcodec_send_frame`).
    func send(_ frame: Frame?, path: String?) throws(MediaError) {
        try check(avcodec_send_frame(pointer, frame?.pointer), "avcodec_send_frame", path: path)
    }

    /// The opened encoder's global header (x264's SPS and PPS in Annex B, AAC's `AudioSpecificConfig`); empty when
    /// it has none.
    var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }

    /// How many pictures the encoder reorders (`has_b_frames`).
    var reorderDepth: Int64 { Int64(pointer.pointee.has_b_frames) }

    var codecID: AVCodecID { pointer.pointee.codec_id }

    /// The time base its frames and packets are stamped in.
    var timeBase: AVRational { pointer.pointee.time_base }

    /// Samples the encoder puts before the first input sample (`initial_padding`).
    var initialPadding: Int { Int(pointer.pointee.initial_padding) }

    /// Samples per audio frame it wants (0 when any number will do).
    var frameSize: Int { Int(pointer.pointee.frame_size) }

    /// Hands each packet this encoder has ready to `body`, in `packet` (unreferenced before each).
    func receivePackets(into packet: Packet, path: String?, _ body: (Packet) throws(MediaError) -> Void) throws(MediaError) {
        while true {
            packet.unref()
            let r = avcodec_receive_packet(pointer, packet.pointer)
            if r == averrorEAGAIN || r == averrorEOF { return }
            try check(r, "avcodec_receive_packet", path: path)
            try body(packet)
        }
    }

    /// Gives `frame` (unreferenced first) fresh buffers for `count` samples in this encoder's format.
    func prepareAudio(_ frame: Frame, count: Int) throws(MediaError) {
        frame.unref()
        frame.pointer.pointee.nb_samples = Int32(count)
        frame.pointer.pointee.format = pointer.pointee.sample_fmt.rawValue
        frame.pointer.pointee.sample_rate = pointer.pointee.sample_rate
        try check(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &pointer.pointee.ch_layout), "av_channel_layout_copy")
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
    }
}
