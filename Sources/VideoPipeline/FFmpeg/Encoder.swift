import CFFmpeg
import MediaCore

/// An opened encoder (its `CodecContext`, which owns it) and the output stream it feeds (owned by the output).
final class Encoder {
    let codec: CodecContext
    let stream: UnsafeMutablePointer<AVStream>

    private init(codec: CodecContext, stream: UnsafeMutablePointer<AVStream>) {
        self.codec = codec
        self.stream = stream
    }

    private static func find(_ name: String, profile: EncodingSettings.Profile) throws(MediaError) -> UnsafePointer<AVCodec> {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .invalidSetting(name: "profile", value: profile.rawValue, reason: "this FFmpeg has no \(name) encoder")
        }
        return codec
    }

    /// libx264 (delivery) or FFV1 (lossless) at the output size and rate, bit-exact, on a new stream of `output`.
    static func video(in output: OutputContext, format: OutputFormat, encoding: EncodingSettings) throws(MediaError) -> Encoder {
        let codec = try find(encoding.profile == .delivery ? "libx264" : "ffv1", profile: encoding.profile)
        let stream = try allocated(avformat_new_stream(output.pointer, nil), "avformat_new_stream")
        let encoder = Encoder(codec: try CodecContext(codec: codec), stream: stream)
        let c = encoder.codec.pointer
        c.pointee.width = Int32(format.size.width)
        c.pointee.height = Int32(format.size.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = format.frameRate.timeBase.av
        c.pointee.framerate = format.frameRate.perSecond.av
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.thread_count = Int32(encoding.threads)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if output.wantsGlobalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let options = FFmpegOptions()
        if encoding.profile == .delivery {
            try options.set("preset", encoding.preset)
            try options.set("crf", String(encoding.crf))
            // A frame sent as a forced keyframe becomes an IDR, where a segment may start (x264 would otherwise
            // make it a plain I frame that later frames can reach across). Unforced frames are unaffected.
            try options.set("forced-idr", "1")
        } else {
            try options.set("level", "3")
            try options.set("slicecrc", "1")
        }
        try encoder.codec.open(options: options, path: nil)
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, c), "avcodec_parameters_from_context")
        stream.pointee.time_base = c.pointee.time_base
        stream.pointee.avg_frame_rate = c.pointee.framerate
        stream.pointee.sample_aspect_ratio = c.pointee.sample_aspect_ratio
        return encoder
    }

    /// AAC (delivery) or 16-bit PCM (lossless) at the output's sample rate and channels, on a new stream.
    static func audio(in output: OutputContext, format: OutputFormat, encoding: EncodingSettings) throws(MediaError) -> Encoder {
        let stream = try allocated(avformat_new_stream(output.pointer, nil), "avformat_new_stream")
        let encoder = Encoder(codec: try audioCodec(format: format, encoding: encoding, globalHeader: output.wantsGlobalHeader), stream: stream)
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.codec.pointer), "avcodec_parameters_from_context")
        stream.pointee.time_base = encoder.codec.pointer.pointee.time_base
        return encoder
    }

    /// The opened audio encoder `audio(in:format:encoding:)` feeds its stream with, on the sample clock
    /// (`1 / sample rate`); a passthrough track opens one per encoded run.
    static func audioCodec(format: OutputFormat, encoding: EncodingSettings, globalHeader: Bool) throws(MediaError) -> CodecContext {
        let codec = try CodecContext(codec: try find(encoding.profile == .delivery ? "aac" : "pcm_s16le", profile: encoding.profile))
        let c = codec.pointer
        c.pointee.sample_fmt = encoding.profile == .delivery ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_S16
        c.pointee.sample_rate = Int32(format.sampleRate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(format.channels))
        c.pointee.time_base = AVRational(num: 1, den: Int32(format.sampleRate))
        if encoding.profile == .delivery { c.pointee.bit_rate = Int64(encoding.audioBitRate) }
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try codec.open(options: nil, path: nil)
        return codec
    }

    /// Samples per audio frame the encoder wants; `nil` when any number will do.
    var frameSize: Int? { codec.pointer.pointee.frame_size > 0 ? Int(codec.pointer.pointee.frame_size) : nil }

    /// Whether the encoder takes planar float (AAC) rather than interleaved 16-bit (PCM).
    var takesPlanarFloat: Bool { codec.pointer.pointee.sample_fmt == AV_SAMPLE_FMT_FLTP }

    /// Gives `frame` (unreferenced first) fresh buffers for `count` samples in the encoder's format.
    func prepareAudio(_ frame: Frame, count: Int) throws(MediaError) { try codec.prepareAudio(frame, count: count) }

    /// Sends a frame stamped `pts` (in the encoder's time base), or the end of the stream when `nil`; a
    /// `keyframe` is forced to be one (an IDR with x264; every FFV1 frame is one already).
    func send(_ frame: Frame?, pts: Int64, keyframe: Bool = false, path: String) throws(MediaError) {
        if let frame {
            frame.pointer.pointee.pts = pts
            frame.pointer.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        }
        try check(avcodec_send_frame(codec.pointer, frame?.pointer), "avcodec_send_frame", path: path)
    }

    /// Takes every packet the encoder has ready and writes it to `output`, rescaled to the stream's time base.
    func drain(into output: OutputContext, using packet: Packet, path: String) throws(MediaError) {
        try codec.receivePackets(into: packet, path: path) { packet throws(MediaError) in
            packet.pointer.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet.pointer, codec.pointer.pointee.time_base, stream.pointee.time_base)
            try check(av_interleaved_write_frame(output.pointer, packet.pointer), "av_interleaved_write_frame", path: path)
        }
    }
}
