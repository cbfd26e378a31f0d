import CFFmpeg
import Foundation
import MediaCore

/// Encodes canvas pictures and audio and muxes them into a file, atomically.
///
/// Video frame `n` gets timestamp `n` in the time base `1 / frame rate`; audio gets the running sample count in
/// `1 / sample rate`, so the two clocks are exact and independent. The file is written under a temporary name
/// beside the destination and renamed into place by `finish()`; a writer dropped before that removes it.
public final class MediaWriter {
    public let destination: String
    public let format: OutputFormat
    public let encoding: EncodingSettings

    private let output: AtomicFile
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let video: Encoder
    private let audio: Encoder
    private let packet: Packet
    private let fifo: OpaquePointer
    private let audioFrame: Frame
    private let audioFrameSize: Int
    private var videoFrames: Int64 = 0
    private var audioSamples: Int64 = 0
    private var finished = false

    /// Video frames written so far.
    public var frameCount: Int64 { videoFrames }
    /// Audio samples written so far.
    public var sampleCount: Int64 { audioSamples + Int64(av_audio_fifo_size(fifo)) }

    /// An encoder and its stream.
    private final class Encoder {
        let codec: UnsafeMutablePointer<AVCodecContext>
        let stream: UnsafeMutablePointer<AVStream>

        init(codec: UnsafeMutablePointer<AVCodecContext>, stream: UnsafeMutablePointer<AVStream>) {
            self.codec = codec
            self.stream = stream
        }

        deinit {
            var c: UnsafeMutablePointer<AVCodecContext>? = codec
            avcodec_free_context(&c)
        }
    }

    /// Creates the temporary output and opens the encoders.
    ///
    /// The container follows the destination's extension (`.mp4`, `.m4v`, `.mov`, `.mkv`); other names get the
    /// profile's own (MP4 for delivery, Matroska for lossless).
    /// - Throws: `.invalidSetting` for a bad size, rate or encoder setting, `.outputNotWritable` when the
    ///   destination's directory is missing, FFmpeg errors naming the function.
    public init(destination: String, format: OutputFormat, encoding: EncodingSettings) throws(MediaError) {
        FFmpegLog.applyDefault()
        try format.validate()
        try encoding.validate()
        self.destination = destination
        self.format = format
        self.encoding = encoding
        let containerName = try MediaWriter.container(for: destination, profile: encoding.profile)
        output = try AtomicFile.forMedia(destination)

        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&ctx, nil, containerName, output.temporaryPath), "avformat_alloc_output_context2")
        context = try allocated(ctx, "avformat_alloc_output_context2")
        context.pointee.flags |= AVFMT_FLAG_BITEXACT
        packet = try Packet()
        do {
            video = try MediaWriter.openVideo(context, format: format, encoding: encoding)
            audio = try MediaWriter.openAudio(context, format: format, encoding: encoding)
        } catch {
            avformat_free_context(context)
            throw error
        }
        audioFrameSize = audio.codec.pointee.frame_size > 0 ? Int(audio.codec.pointee.frame_size) : 1024
        fifo = try allocated(av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(format.channels), Int32(audioFrameSize * 4)),
                             "av_audio_fifo_alloc")
        audioFrame = try Frame()
        try openFile()
    }

    deinit {
        if !finished, context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
        av_audio_fifo_free(fifo)
    }

    static func container(for destination: String, profile: EncodingSettings.Profile) throws(MediaError) -> String {
        let ext = URL(fileURLWithPath: destination).pathExtension.lowercased()
        switch (ext, profile) {
        case ("mkv", _): return "matroska"
        case ("mp4", .delivery), ("m4v", .delivery): return "mp4"
        case ("mov", .delivery): return "mov"
        case ("mp4", .lossless), ("m4v", .lossless), ("mov", .lossless):
            throw .invalidSetting(name: "profile", value: "lossless",
                                  reason: "writes FFV1 and PCM, which need Matroska: name the output .mkv")
        default: return profile == .delivery ? "mp4" : "matroska"
        }
    }

    private func openFile() throws(MediaError) {
        try check(avio_open(&context.pointee.pb, output.temporaryPath, AVIO_FLAG_WRITE), "avio_open", path: destination)
        var options: OpaquePointer? = nil
        if encoding.profile == .delivery { av_dict_set(&options, "movflags", "+faststart", 0) }
        defer { av_dict_free(&options) }
        try check(avformat_write_header(context, &options), "avformat_write_header", path: destination)
    }

    private static func newStream(_ context: UnsafeMutablePointer<AVFormatContext>) throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        try allocated(avformat_new_stream(context, nil), "avformat_new_stream")
    }

    private static func openVideo(_ context: UnsafeMutablePointer<AVFormatContext>, format: OutputFormat,
                                  encoding: EncodingSettings) throws(MediaError) -> Encoder {
        let name = encoding.profile == .delivery ? "libx264" : "ffv1"
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .invalidSetting(name: "profile", value: encoding.profile.rawValue, reason: "this FFmpeg has no \(name) encoder")
        }
        let stream = try newStream(context)
        let c = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        let encoder = Encoder(codec: c, stream: stream)
        c.pointee.width = Int32(format.size.width)
        c.pointee.height = Int32(format.size.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = format.frameRate.timeBase.av
        c.pointee.framerate = format.frameRate.perSecond.av
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.thread_count = Int32(encoding.threads)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        if encoding.profile == .delivery {
            av_dict_set(&options, "preset", encoding.preset, 0)
            av_dict_set(&options, "crf", String(encoding.crf), 0)
        } else {
            av_dict_set(&options, "level", "3", 0)
            av_dict_set(&options, "slicecrc", "1", 0)
        }
        try check(avcodec_open2(c, codec, &options), "avcodec_open2")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, c), "avcodec_parameters_from_context")
        stream.pointee.time_base = c.pointee.time_base
        stream.pointee.avg_frame_rate = c.pointee.framerate
        stream.pointee.sample_aspect_ratio = c.pointee.sample_aspect_ratio
        return encoder
    }

    private static func openAudio(_ context: UnsafeMutablePointer<AVFormatContext>, format: OutputFormat,
                                  encoding: EncodingSettings) throws(MediaError) -> Encoder {
        let name = encoding.profile == .delivery ? "aac" : "pcm_s16le"
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .invalidSetting(name: "profile", value: encoding.profile.rawValue, reason: "this FFmpeg has no \(name) encoder")
        }
        let stream = try newStream(context)
        let c = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        let encoder = Encoder(codec: c, stream: stream)
        c.pointee.sample_fmt = encoding.profile == .delivery ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_S16
        c.pointee.sample_rate = Int32(format.sampleRate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(format.channels))
        c.pointee.time_base = AVRational(num: 1, den: Int32(format.sampleRate))
        if encoding.profile == .delivery { c.pointee.bit_rate = Int64(encoding.audioBitRate) }
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try check(avcodec_open2(c, codec, nil), "avcodec_open2")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, c), "avcodec_parameters_from_context")
        stream.pointee.time_base = c.pointee.time_base
        return encoder
    }

    /// Encodes the compositor's canvas as the next video frame.
    public func writeVideo(_ compositor: Compositor) throws(MediaError) {
        try writeVideo(compositor.picture)
    }

    /// Encodes `picture` (which must be yuv420p at the output size) as the next video frame.
    public func writeVideo(_ picture: VideoPicture) throws(MediaError) {
        precondition(picture.size == format.size && picture.frame.pixelFormat == AV_PIX_FMT_YUV420P)
        picture.frame.pointer.pointee.pts = videoFrames
        picture.frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try check(avcodec_send_frame(video.codec, picture.frame.pointer), "avcodec_send_frame", path: destination)
        videoFrames += 1
        try drain(video)
    }

    /// Appends the samples of `buffer` (planar float in the output format) to the audio track.
    public func writeAudio(_ buffer: AudioBuffer) throws(MediaError) {
        precondition(buffer.channels == format.channels && buffer.sampleRate == format.sampleRate)
        guard buffer.count > 0 else { return }
        let written = buffer.withPlanes { av_audio_fifo_write(fifo, $0, Int32(buffer.count)) }
        try check(written, "av_audio_fifo_write", path: destination)
        while Int(av_audio_fifo_size(fifo)) >= audioFrameSize {
            try encodeAudio(count: audioFrameSize)
        }
    }

    /// Flushes the encoders, writes the trailer and moves the file into place.
    public func finish() throws(MediaError) {
        try finishWriting().commitMedia()
    }

    /// Flushes the encoders and writes the trailer, leaving the file under its temporary name: the caller puts it
    /// in place with its other outputs (`AtomicFile.commitAll`), so that they all appear or none does.
    public func finishWriting() throws(MediaError) -> AtomicFile {
        precondition(!finished)
        let rest = Int(av_audio_fifo_size(fifo))
        if rest > 0 { try encodeAudio(count: rest) }
        try check(avcodec_send_frame(video.codec, nil), "avcodec_send_frame", path: destination)
        try drain(video)
        try check(avcodec_send_frame(audio.codec, nil), "avcodec_send_frame", path: destination)
        try drain(audio)
        try check(av_write_trailer(context), "av_write_trailer", path: destination)
        let ioError = context.pointee.pb.pointee.error
        finished = true
        let closed = avio_closep(&context.pointee.pb)
        try check(ioError < 0 ? ioError : closed, "avio_closep", path: destination)
        return output
    }

    /// Pops `count` samples from the FIFO and encodes them as one audio frame.
    private func encodeAudio(count: Int) throws(MediaError) {
        let frame = audioFrame
        frame.unref()
        frame.pointer.pointee.nb_samples = Int32(count)
        frame.pointer.pointee.format = audio.codec.pointee.sample_fmt.rawValue
        frame.pointer.pointee.sample_rate = Int32(format.sampleRate)
        try check(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &audio.codec.pointee.ch_layout), "av_channel_layout_copy")
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        if audio.codec.pointee.sample_fmt == AV_SAMPLE_FMT_FLTP {
            let read = withUnsafeMutablePointer(to: &frame.pointer.pointee.data) {
                $0.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_read(fifo, $0, Int32(count)) }
            }
            try check(read, "av_audio_fifo_read", path: destination)
        } else {
            try readInterleavedS16(into: frame, count: count)
        }
        frame.pointer.pointee.pts = audioSamples
        audioSamples += Int64(count)
        try check(avcodec_send_frame(audio.codec, frame.pointer), "avcodec_send_frame", path: destination)
        try drain(audio)
    }

    /// PCM wants interleaved 16-bit: read planar floats, round and clamp.
    private func readInterleavedS16(into frame: Frame, count: Int) throws(MediaError) {
        if staging == nil || staging!.capacity < count {
            staging = try AudioBuffer(channels: format.channels, sampleRate: format.sampleRate, capacity: max(count, audioFrameSize))
        }
        let staging = staging!
        let read = staging.withPlanes { av_audio_fifo_read(fifo, $0, Int32(count)) }
        try check(read, "av_audio_fifo_read", path: destination)
        let out = UnsafeMutableRawPointer(frame.dataPointer(0)!).assumingMemoryBound(to: Int16.self)
        let channels = format.channels
        for c in 0..<channels {
            let plane = staging.plane(c)
            for i in 0..<count {
                let v = (plane[i] * 32767).rounded()
                out[i * channels + c] = Int16(max(-32768, min(32767, v)))
            }
        }
    }

    private var staging: AudioBuffer?

    /// Takes every packet the encoder has ready and writes it.
    private func drain(_ encoder: Encoder) throws(MediaError) {
        while true {
            packet.unref()
            let r = avcodec_receive_packet(encoder.codec, packet.pointer)
            if r == averrorEAGAIN || r == averrorEOF { return }
            try check(r, "avcodec_receive_packet", path: destination)
            packet.pointer.pointee.stream_index = encoder.stream.pointee.index
            av_packet_rescale_ts(packet.pointer, encoder.codec.pointee.time_base, encoder.stream.pointee.time_base)
            try check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame", path: destination)
        }
    }
}
