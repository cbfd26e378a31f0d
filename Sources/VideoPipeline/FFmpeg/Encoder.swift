import CFFmpeg
import MediaCore

/// An opened encoder (its `CodecContext`, which owns it) and the output stream it feeds (owned by the output).
final class Encoder {
    let codec: CodecContext
    let stream: MuxerStream
    /// The opened codec's time base, which its packets are stamped in (read once: `write(_:into:path:)` may run
    /// on another thread than the one encoding).
    private let timeBase: AVRational

    private init(codec: CodecContext, stream: MuxerStream) {
        self.codec = codec
        self.stream = stream
        timeBase = codec.timeBase
    }

    private static func find(_ name: String, profile: EncodingSettings.Profile) throws(MediaError) -> UnsafePointer<AVCodec> {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .invalidSetting(name: "profile", value: profile.rawValue, reason: "this FFmpeg has no \(name) encoder")
        }
        return codec
    }

    /// libx264 (delivery, `X264Encoder`) or FFV1 (lossless) at the output size and rate, bit-exact, on a new stream
    /// of `output`.
    static func video(in output: OutputContext, format: OutputFormat, encoding: EncodingSettings) throws(MediaError) -> Encoder {
        let stream = try output.newStream()
        if encoding.profile == .delivery {
            let x264 = X264Encoder(format: format, encoding: encoding, globalHeader: output.wantsGlobalHeader, match: nil)
            return try Encoder.video(try x264.open(path: nil), on: stream)
        }
        let codec = try CodecContext(codec: try find("ffv1", profile: encoding.profile))
        codec.setVideo(format: format, sampleAspect: AVRational(num: 1, den: 1), threads: encoding.threads, globalHeader: output.wantsGlobalHeader)
        let options = FFmpegOptions()
        try options.set("level", "3")
        try options.set("slicecrc", "1")
        try codec.open(options: options, path: nil)
        return try Encoder.video(codec, on: stream)
    }

    /// The opened video encoder `codec` feeding `stream`, which takes its parameters and timing.
    private static func video(_ codec: CodecContext, on stream: MuxerStream) throws(MediaError) -> Encoder {
        try stream.setParameters(from: codec)
        let timing = codec.videoTiming
        stream.setTiming(timeBase: codec.timeBase, frameRate: timing.frameRate, sampleAspect: timing.sampleAspect)
        return Encoder(codec: codec, stream: stream)
    }

    /// AAC (delivery) or 16-bit PCM (lossless) at the output's sample rate and channels, on a new stream.
    static func audio(in output: OutputContext, format: OutputFormat, encoding: EncodingSettings) throws(MediaError) -> Encoder {
        let stream = try output.newStream()
        let encoder = Encoder(codec: try audioCodec(format: format, encoding: encoding, globalHeader: output.wantsGlobalHeader), stream: stream)
        try stream.setParameters(from: encoder.codec)
        stream.setTiming(timeBase: encoder.codec.timeBase)
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
    var frameSize: Int? { codec.frameSize > 0 ? codec.frameSize : nil }

    /// Whether the encoder takes planar float (AAC) rather than interleaved 16-bit (PCM).
    var takesPlanarFloat: Bool { codec.pointer.pointee.sample_fmt == AV_SAMPLE_FMT_FLTP }

    /// Gives `frame` (unreferenced first) fresh buffers for `count` samples in the encoder's format.
    func prepareAudio(_ frame: Frame, count: Int) throws(MediaError) { try codec.prepareAudio(frame, count: count) }

    /// Sends a frame stamped `pts` (in the encoder's time base), or the end of the stream when `nil`; a
    /// `keyframe` is forced to be one (an IDR with x264; every FFV1 frame is one already).
    func send(_ frame: Frame?, pts: Int64, keyframe: Bool = false, path: String) throws(MediaError) {
        if let frame {
            frame.presentationTime = pts
            frame.forceKeyframe(keyframe)
        }
        try codec.send(frame, path: path)
    }

    /// Takes every packet the encoder has ready and writes it to `output`, rescaled to the stream's time base.
    func drain(into output: OutputContext, using packet: Packet, path: String) throws(MediaError) {
        try codec.receivePackets(into: packet, path: path) { packet throws(MediaError) in
            try output.write(packet, to: stream, from: codec.timeBase, path: path)
        }
    }

    /// Takes every packet the encoder has ready, in order, to be written later by `write(_:into:path:)` (on the
    /// thread that owns the muxer); `packet` is the scratch they are received through.
    func drain(using packet: Packet, path: String) throws(MediaError) -> [Packet] {
        var packets: [Packet] = []
        try codec.receivePackets(into: packet, path: path) { packet throws(MediaError) in packets.append(try packet.movedOut()) }
        return packets
    }

    /// Writes packets `drain(using:path:)` took to `output`, in their order, rescaled to the stream's time base;
    /// it touches neither the codec nor its state, so another thread may be encoding meanwhile.
    func write(_ packets: [Packet], into output: OutputContext, path: String) throws(MediaError) {
        for packet in packets { try output.write(packet, to: stream, from: timeBase, path: path) }
    }
}
