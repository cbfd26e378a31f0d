import CFFmpeg
import MediaCore

/// A stream of an `OutputContext`, which owns it (`avformat_new_stream`) and frees it with itself; this value only
/// names it, and lives no longer than the track that holds the context.
struct MuxerStream {
    fileprivate let pointer: UnsafeMutablePointer<AVStream>

    /// Its index in the container (what a packet's `stream_index` says).
    var index: Int32 { pointer.pointee.index }

    /// Its time base; the muxer may change it when the header is written.
    var timeBase: AVRational { pointer.pointee.time_base }

    /// Copies the codec parameters of the opened encoder `codec` (`avcodec_parameters_from_context`).
    func setParameters(from codec: CodecContext) throws(MediaError) {
        try check(avcodec_parameters_from_context(pointer.pointee.codecpar, codec.pointer), "avcodec_parameters_from_context")
    }

    /// Copies the codec parameters of `input`'s stream `index` (`avcodec_parameters_copy`), for its packets to be
    /// written as they are; the tag is left for the muxer to choose, and the time base is the input stream's.
    func copyParameters(from input: InputFile, stream index: Int) throws(MediaError) {
        let source = input.stream(index)
        try check(avcodec_parameters_copy(pointer.pointee.codecpar, source.pointee.codecpar), "avcodec_parameters_copy")
        pointer.pointee.codecpar.pointee.codec_tag = 0
        pointer.pointee.time_base = source.pointee.time_base
    }

    /// The PID the MPEG-TS muxer carries the stream on (`AVStream.id`; it numbers streams from 0x0100 otherwise).
    func setTransportStreamPID(_ pid: Int32) {
        pointer.pointee.id = pid
    }

    /// Sets the time base the muxer is asked for and, for video, the frame rate and sample aspect ratio it records.
    func setTiming(timeBase: AVRational, frameRate: AVRational? = nil, sampleAspect: AVRational? = nil) {
        pointer.pointee.time_base = timeBase
        if let frameRate { pointer.pointee.avg_frame_rate = frameRate }
        if let sampleAspect { pointer.pointee.sample_aspect_ratio = sampleAspect }
    }

    /// Sets the time base to `1 / rate` and records `rate` and `sampleAspect` (as the content states it, 0/1 when
    /// unknown).
    func setVideoTiming(rate: FrameRate, sampleAspect: AVRational) {
        setTiming(timeBase: rate.timeBase.av, frameRate: rate.perSecond.av, sampleAspect: sampleAspect)
    }

    /// Replaces the codec parameters' extradata (for H.264 in MP4 the `avcC`) with `bytes`.
    func setExtradata(_ bytes: [UInt8]) throws(MediaError) {
        let par = pointer.pointee.codecpar!
        av_freep(&par.pointee.extradata)
        let buffer = try allocated(av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)), "av_mallocz").assumingMemoryBound(to: UInt8.self)
        buffer.update(from: bytes, count: bytes.count)
        par.pointee.extradata = buffer
        par.pointee.extradata_size = Int32(bytes.count)
    }
}

extension OutputContext {
    /// Adds a stream (`avformat_new_stream`), before the header is written.
    func newStream() throws(MediaError) -> MuxerStream {
        MuxerStream(pointer: try allocated(avformat_new_stream(pointer, nil), "avformat_new_stream"))
    }

    /// Writes `packet`, stamped in `timeBase` (a frame or sample clock), to `stream`.
    func write(_ packet: Packet, to stream: MuxerStream, from timeBase: Rational, path: String) throws(MediaError) {
        try write(packet, to: stream, from: timeBase.av, path: path)
    }

    /// Writes `packet`, stamped in `timeBase`, to `stream`: rescaled to the stream's time base and interleaved
    /// with the other streams' (`av_interleaved_write_frame`, which takes the packet's data).
    func write(_ packet: Packet, to stream: MuxerStream, from timeBase: AVRational, path: String) throws(MediaError) {
        packet.pointer.pointee.stream_index = stream.index
        av_packet_rescale_ts(packet.pointer, timeBase, stream.timeBase)
        try check(av_interleaved_write_frame(pointer, packet.pointer), "av_interleaved_write_frame", path: path)
    }

    /// Writes `packet`, stamped in `timeBase`, to `stream` at once, ahead of whatever is queued for interleaving
    /// (`av_write_frame`), and flushes the muxer's own buffers (the mpegts muxer holds sound to fill a PES): a
    /// piece's first packets, in the order chosen to lead the file.
    func writeAhead(_ packet: Packet, to stream: MuxerStream, from timeBase: Rational, flush: Bool = true, path: String) throws(MediaError) {
        packet.pointer.pointee.stream_index = stream.index
        av_packet_rescale_ts(packet.pointer, timeBase.av, stream.timeBase)
        try check(av_write_frame(pointer, packet.pointer), "av_write_frame", path: path)
        if flush { try check(av_write_frame(pointer, nil), "av_write_frame", path: path) }
    }
}
