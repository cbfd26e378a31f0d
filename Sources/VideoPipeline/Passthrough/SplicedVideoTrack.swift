import CFFmpeg
import Foundation
import MediaCore

/// One H.264 track made of the content's own packets, copied, and pictures encoded around them: the core of a
/// passthrough render, which re-encodes only the partial GOPs at each cut and the ads.
///
/// **How one stream holds both.** The copied packets refer to the content's SPS and PPS; the encoded runs to
/// x264's, which are set up with `sps-id` one past the content's highest id, so the two sets have distinct ids and
/// the track's `avcC` lists both (ISO/IEC 14496-15 allows several). A decoder activates the SPS a slice's PPS names
/// at each IDR, and every switch is at an IDR: a copied run starts at one of the content's IDRs and ends before the
/// next, and each encoded run is a fresh encoder whose first picture is an IDR. x264 gets the content's profile,
/// level, sample aspect and colour description, so the switch changes nothing a player shows.
///
/// **Timestamps.** Presentation time is the output frame index; decode time is the packet's decode index less a
/// constant delay `D`, the larger of the content's and the encoder's reordering depth. Each run is closed (no
/// reference crosses an IDR), so within a run whose own depth is at most `D` every packet's decode time is at most
/// its presentation time, and decode times increase across the splices.
///
/// **Limits.** The content must be H.264, 8-bit 4:2:0, constant frame rate equal to the output's, at the output's
/// size, with closed GOPs starting at IDRs (x264's default); `SplicedVideoTrack.checkCopyable` says which condition fails.
final class SplicedVideoTrack {
    let destination: String
    let format: OutputFormat
    /// The content's IDR pictures, by display index from its first picture: where a copied run may start.
    let keyframes: [Int64]
    /// The content's pictures.
    let contentFrames: Int64

    private let encoding: EncodingSettings
    private let context: OutputContext
    let stream: UnsafeMutablePointer<AVStream>
    private let input: InputFile
    private let inputStream: Int
    private let inputTimeBase: Rational
    private let firstPTS: Int64
    private let contentSets: AVCParameterSets
    private let encoderSPSID: Int
    private let delay: Int64
    private let packet: Packet
    /// Holds a packet's properties while its payload is rewritten.
    private let properties: Packet
    private var encoder: CodecContext?
    private var runStart: Int64 = 0
    private var runFrames: Int64 = 0
    private var frames: Int64 = 0
    private var decodeIndex: Int64 = 0

    /// Opens `content` for copying and adds the track to `context` (before its header is written).
    init(in context: OutputContext, content: String, format: OutputFormat, encoding: EncodingSettings,
         reportedAs destination: String) throws(MediaError) {
        self.destination = destination
        self.context = context
        self.format = format
        self.encoding = encoding
        input = try InputFile(path: content)
        guard let index = input.bestStream(.video) else { throw .missingStream(path: content, kind: .video) }
        inputStream = index
        let par = input.stream(index).pointee.codecpar!
        try SplicedVideoTrack.checkCopyable(par.pointee, path: content, format: format)
        inputTimeBase = input.stream(index).pointee.time_base.rational ?? Rational(1, 90_000)
        guard let extradata = par.pointee.extradata, par.pointee.extradata_size > 0 else {
            throw .cannotCopy(path: content, reason: "its H.264 has no avcC (parameter sets in the stream only)")
        }
        contentSets = try AVCParameterSets(avcC: Array(UnsafeBufferPointer(start: extradata, count: Int(par.pointee.extradata_size))))
        encoderSPSID = (contentSets.sequenceSetIDs.max() ?? 0) + 1
        guard encoderSPSID < 32, (contentSets.pictureSetIDs.max() ?? 0) < 255 else {
            throw .cannotCopy(path: content, reason: "its parameter set ids leave none free for the re-encoded pictures")
        }
        packet = try Packet()
        properties = try Packet()
        (keyframes, contentFrames, firstPTS) = try SplicedVideoTrack.scan(input, stream: index, timeBase: inputTimeBase, rate: format.frameRate)

        stream = try allocated(avformat_new_stream(context.pointer, nil), "avformat_new_stream")
        let first = try SplicedVideoTrack.makeEncoder(format: format, encoding: encoding, content: input.stream(index).pointee.codecpar.pointee,
                                                      profile: contentSets.profile, level: contentSets.level, spsID: encoderSPSID,
                                                      destination: destination)
        let encoderSets = try AVCParameterSets(annexB: Array(UnsafeBufferPointer(start: first.pointer.pointee.extradata,
                                                                               count: Int(first.pointer.pointee.extradata_size))))
        guard Set(encoderSets.sequenceSetIDs).isDisjoint(with: contentSets.sequenceSetIDs),
              Set(encoderSets.pictureSetIDs).isDisjoint(with: contentSets.pictureSetIDs) else {
            throw .cannotCopy(path: content, reason: "x264's parameter set ids \(encoderSets.sequenceSetIDs) clash with the content's")
        }
        encoder = first
        delay = Int64(max(par.pointee.video_delay, first.pointer.pointee.has_b_frames))
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, first.pointer), "avcodec_parameters_from_context")
        try setExtradata(contentSets.merged(with: encoderSets).avcC)
        stream.pointee.time_base = format.frameRate.timeBase.av
        stream.pointee.avg_frame_rate = format.frameRate.perSecond.av
        stream.pointee.sample_aspect_ratio = par.pointee.sample_aspect_ratio
    }

    /// Frames written so far.
    var frameCount: Int64 { frames }

    /// Copies the content's pictures `range` (display indices): `range.lowerBound` must be an IDR (`keyframes`), and
    /// `range.upperBound` another or the content's end.
    func copy(_ range: Range<Int64>) throws(MediaError) {
        precondition(keyframes.contains(range.lowerBound) && (keyframes.contains(range.upperBound) || range.upperBound == contentFrames),
                     "copied run \(range) does not start and end at IDRs")
        try endRun()
        let start = Rational(range.lowerBound) / format.frameRate.perSecond / inputTimeBase
        try check(av_seek_frame(input.context, Int32(inputStream), firstPTS + start.rounded, AVSEEK_FLAG_BACKWARD), "av_seek_frame", path: input.path)
        var copied: Int64 = 0
        while copied < range.count {
            packet.unref()
            let r = av_read_frame(input.context, packet.pointer)
            if r == averrorEOF { break }
            try check(r, "av_read_frame", path: input.path)
            guard packet.pointer.pointee.stream_index == Int32(inputStream) else { continue }
            let display = try displayIndex(packet.pointer.pointee.pts)
            guard range.contains(display) else {
                if display >= range.upperBound { break } else { continue }
            }
            try rewriteLengths()
            try write(pts: frames + display - range.lowerBound, key: packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0)
            copied += 1
        }
        guard copied == Int64(range.count) else {
            throw .unreadable(path: input.path, function: "av_read_frame", message: "\(copied) of the \(range.count) pictures of \(range) were read")
        }
        frames += Int64(range.count)
    }

    /// Encodes `picture` (yuv420p at the output size) as the next frame; the first after a copy starts a new run
    /// with an IDR.
    func encode(_ picture: VideoPicture) throws(MediaError) {
        precondition(picture.size == format.size && picture.frame.pixelFormat == AV_PIX_FMT_YUV420P)
        if encoder == nil {
            encoder = try SplicedVideoTrack.makeEncoder(format: format, encoding: encoding, content: input.stream(inputStream).pointee.codecpar.pointee,
                                                        profile: contentSets.profile, level: contentSets.level, spsID: encoderSPSID,
                                                        destination: destination)
        }
        if runFrames == 0 { runStart = frames }
        picture.frame.pointer.pointee.pts = runFrames
        picture.frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try check(avcodec_send_frame(encoder!.pointer, picture.frame.pointer), "avcodec_send_frame", path: destination)
        runFrames += 1
        frames += 1
        try drainRun()
    }

    /// Ends the last encoded run (before the file's trailer is written).
    func finish() throws(MediaError) {
        try endRun()
        encoder = nil
    }

    // MARK: - Runs

    /// x264 for a run: the output's size and rate, the content's profile, level, aspect and colour, and SPS/PPS ids
    /// from `spsID` (x264 numbers its PPS like its SPS).
    private static func makeEncoder(format: OutputFormat, encoding: EncodingSettings, content par: AVCodecParameters,
                                    profile: UInt8, level: UInt8, spsID: Int, destination: String) throws(MediaError) -> CodecContext {
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw .invalidSetting(name: "passthrough", value: "h264", reason: "this FFmpeg has no libx264 encoder")
        }
        let encoder = try CodecContext(codec: codec)
        let c = encoder.pointer
        c.pointee.width = Int32(format.size.width)
        c.pointee.height = Int32(format.size.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = format.frameRate.timeBase.av
        c.pointee.framerate = format.frameRate.perSecond.av
        c.pointee.sample_aspect_ratio = par.sample_aspect_ratio.num > 0 ? par.sample_aspect_ratio : AVRational(num: 1, den: 1)
        c.pointee.color_range = par.color_range
        c.pointee.color_primaries = par.color_primaries
        c.pointee.color_trc = par.color_trc
        c.pointee.colorspace = par.color_space
        c.pointee.chroma_sample_location = par.chroma_location
        c.pointee.thread_count = Int32(encoding.threads)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT | AV_CODEC_FLAG_GLOBAL_HEADER
        let options = FFmpegOptions()
        try options.set("preset", encoding.preset)
        try options.set("crf", String(encoding.crf))
        try options.set("profile", SplicedVideoTrack.profileName(profile))
        try options.set("level", String(level))
        try options.set("x264-params", "sps-id=\(spsID)")
        try encoder.open(options: options, path: destination)
        return encoder
    }

    private func drainRun() throws(MediaError) {
        guard let encoder else { return }
        while true {
            packet.unref()
            let r = avcodec_receive_packet(encoder.pointer, packet.pointer)
            if r == averrorEAGAIN || r == averrorEOF { return }
            try check(r, "avcodec_receive_packet", path: destination)
            try annexBToLengths()
            try write(pts: runStart + packet.pointer.pointee.pts, key: packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0)
        }
    }

    /// Flushes the current encoded run, if any; the next `encode` opens a fresh encoder.
    private func endRun() throws(MediaError) {
        guard runFrames > 0, let encoder else { return }
        try check(avcodec_send_frame(encoder.pointer, nil), "avcodec_send_frame", path: destination)
        try drainRun()
        self.encoder = nil
        runFrames = 0
    }

    private func write(pts: Int64, key: Bool) throws(MediaError) {
        let p = packet.pointer
        p.pointee.stream_index = stream.pointee.index
        p.pointee.pts = pts
        p.pointee.dts = decodeIndex - delay
        p.pointee.duration = 1
        p.pointee.pos = -1
        p.pointee.flags = key ? AV_PKT_FLAG_KEY : 0
        decodeIndex += 1
        av_packet_rescale_ts(p, format.frameRate.timeBase.av, stream.pointee.time_base)
        try check(av_interleaved_write_frame(context.pointer, p), "av_interleaved_write_frame", path: destination)
    }

    // MARK: - NAL units

    /// The copied packet with 4-byte NAL lengths (the track's), whatever the content's were.
    private func rewriteLengths() throws(MediaError) {
        guard contentSets.lengthSize != 4 else { return }
        let p = packet.pointer.pointee
        let units = AVCParameterSets.nalUnits(lengthPrefixed: UnsafeBufferPointer(start: p.data, count: Int(p.size)), lengthSize: contentSets.lengthSize)
        guard let units else { throw .unreadable(path: input.path, function: "av_read_frame", message: "a packet's NAL lengths overrun it") }
        try replacePayload(units.map { Array($0) })
    }

    /// An encoded packet (Annex B) as length-prefixed NAL units, without parameter sets or delimiters (the track's
    /// `avcC` has the sets).
    private func annexBToLengths() throws(MediaError) {
        let p = packet.pointer.pointee
        let units = AVCParameterSets.nalUnits(annexB: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))))
        try replacePayload(units.filter { ![7, 8, 9].contains($0[0] & 0x1F) })
    }

    private func replacePayload(_ units: [[UInt8]]) throws(MediaError) {
        var bytes: [UInt8] = []
        for unit in units { bytes += [UInt8(unit.count >> 24 & 0xFF), UInt8(unit.count >> 16 & 0xFF), UInt8(unit.count >> 8 & 0xFF), UInt8(unit.count & 0xFF)] + unit }
        properties.unref()
        try check(av_packet_copy_props(properties.pointer, packet.pointer), "av_packet_copy_props")
        packet.unref()
        try check(av_new_packet(packet.pointer, Int32(bytes.count)), "av_new_packet")
        bytes.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        try check(av_packet_copy_props(packet.pointer, properties.pointer), "av_packet_copy_props")
    }

    private func setExtradata(_ bytes: [UInt8]) throws(MediaError) {
        let par = stream.pointee.codecpar!
        av_freep(&par.pointee.extradata)
        let buffer = try allocated(av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)), "av_mallocz").assumingMemoryBound(to: UInt8.self)
        buffer.update(from: bytes, count: bytes.count)
        par.pointee.extradata = buffer
        par.pointee.extradata_size = Int32(bytes.count)
    }

    // MARK: - The content

    /// The display index of a content packet stamped `pts`.
    private func displayIndex(_ pts: Int64) throws(MediaError) -> Int64 {
        guard let pts = pts.timestamp else { throw .cannotCopy(path: input.path, reason: "a video packet has no timestamp") }
        let index = Rational(pts - firstPTS) * inputTimeBase * format.frameRate.perSecond
        guard index.isInteger else { throw .cannotCopy(path: input.path, reason: "its pictures are not on the output's frame grid") }
        return index.numerator
    }

    /// Demuxes the content once: its IDR pictures (display indices), its picture count and its first timestamp.
    private static func scan(_ input: InputFile, stream: Int, timeBase: Rational, rate: FrameRate) throws(MediaError) -> ([Int64], Int64, Int64) {
        let packet = try Packet()
        var samples: [(pts: Int64, key: Bool)] = []
        while true {
            packet.unref()
            let r = av_read_frame(input.context, packet.pointer)
            if r == averrorEOF { break }
            try check(r, "av_read_frame", path: input.path)
            guard packet.pointer.pointee.stream_index == Int32(stream) else { continue }
            guard let pts = packet.pointer.pointee.pts.timestamp else { throw .cannotCopy(path: input.path, reason: "a video packet has no timestamp") }
            samples.append((pts, packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 && isIDR(packet)))
        }
        guard let first = samples.map(\.pts).min() else { throw .noFrames(path: input.path) }
        var keyframes: [Int64] = []
        for sample in samples where sample.key {
            let index = Rational(sample.pts - first) * timeBase * rate.perSecond
            guard index.isInteger else { throw .cannotCopy(path: input.path, reason: "its pictures are not on the output's frame grid") }
            keyframes.append(index.numerator)
        }
        return (keyframes.sorted(), Int64(samples.count), first)
    }

    /// Whether a length-prefixed (4-byte) sample holds an IDR slice.
    private static func isIDR(_ packet: Packet) -> Bool {
        let p = packet.pointer.pointee
        let buffer = UnsafeBufferPointer(start: p.data, count: Int(p.size))
        for length in [4, 2, 1] {
            if let units = AVCParameterSets.nalUnits(lengthPrefixed: buffer, lengthSize: length) {
                return units.contains { $0.first.map { $0 & 0x1F == 5 } ?? false }
            }
        }
        return false
    }

    /// Whether the content can be copied into an output of `format`; the reason when not.
    static func checkCopyable(_ par: AVCodecParameters, path: String, format: OutputFormat) throws(MediaError) {
        func no(_ why: String) -> MediaError { .cannotCopy(path: path, reason: why) }
        guard par.codec_id == AV_CODEC_ID_H264 else { throw no("its video is \(String(cString: avcodec_get_name(par.codec_id))), not H.264") }
        guard AVPixelFormat(rawValue: par.format) == AV_PIX_FMT_YUV420P || AVPixelFormat(rawValue: par.format) == AV_PIX_FMT_YUVJ420P else {
            throw no("its pictures are not 8-bit 4:2:0")
        }
        guard Int(par.width) == format.size.width, Int(par.height) == format.size.height else {
            throw no("its pictures are \(par.width)x\(par.height), the output's \(format.size)")
        }
    }

    static func profileName(_ idc: UInt8) -> String {
        switch idc {
        case 66: "baseline"
        case 77: "main"
        default: "high"
        }
    }
}
